package smmu

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/sim"
)

// Bus is the memory system below the SMMU, shared with every other agent
// of the machine (the core, DMA devices): soc.Machine.PortAccess. Access
// asks it for a transfer of n bytes at pa at time at, the caller's
// current event time, reaching memory after lat (the interconnect path
// from the SMMU's port), and returns when the read data or the write
// response is back.
// Invariant: calls come in non-decreasing at across every agent on it.
type Bus interface {
	PortAccess(at sim.Time, pa uint64, n int, write bool, lat sim.Time) sim.Time
}

// Sched is the global event queue (soc.Machine.Schedule): the SMMU queues
// its own steps on it, and whoever runs the queue hands each one back
// through SMMU.Step when it comes due.
type Sched interface {
	Schedule(t sim.Time, ev int) error
}

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
