package smmu

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/sim"
)

// Sink is told what happened to each transaction when its data (or write
// response, or abort) is back at the master, at that time (t ==
// o.Done), or for an Early transaction when that time is known (t <=
// o.Done).
type Sink interface {
	Done(t sim.Time, x *Txn, o *Outcome)
}

// FillSink is a Sink that also hears of every TBU TLB fill, at its time
// (the view draws entries as they are written).
type FillSink interface {
	Filled(t sim.Time, x *Txn, entry int)
}

// BusConfig is the path between the SMMU's ports and the interconnect;
// below it the machine's memory system answers (soc.Machine.IOAccess: a
// snoop of the core's caches, the shared L3 or DRAM, at times derived
// from the machine's own latencies, so that a device's read and the
// core's agree).
type BusConfig struct {
	// Port is a TBU's (or the TCU's) master port to the interconnect and
	// back: what an access pays on top of the memory system's answer.
	Port sim.Time
}

// Validate checks the bus.
func (c *BusConfig) Validate() error {
	if c.Port < 0 || c.Port > sim.Microsecond {
		return fmt.Errorf("bus.port: %v is out of range; allowed 0..1us", c.Port)
	}
	return nil
}
