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

// BusConfig is the interconnect path between the SMMU's ports and the
// memory controller (the DRAM channel itself is the machine's).
type BusConfig struct {
	// ReadLatency is an unloaded read from the TBU's (or TCU's)
	// downstream port to data back; WriteLatency the same for a write
	// response.
	ReadLatency, WriteLatency sim.Time
}

// Validate checks the bus.
func (c *BusConfig) Validate() error {
	if c.ReadLatency < 0 || c.ReadLatency > sim.Microsecond || c.WriteLatency < 0 || c.WriteLatency > sim.Microsecond {
		return fmt.Errorf("bus.latency: %v / %v is out of range; allowed 0..1us", c.ReadLatency, c.WriteLatency)
	}
	return nil
}
