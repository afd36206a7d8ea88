package soc

import (
	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/sim"
)

// Core is the CPU core's clock and miss handling: the issue of loads and
// stores (core.*), the pool of outstanding L1 fills (core.mlp), the L1
// miss-stream prefetcher that fills L2 (prefetch.*) and write streaming
// (core.write_stream_after). The machine's per-line path runs on it.
type Core struct {
	cfg CoreConfig
	// now is the core's clock. Invariant: it never decreases; every
	// queued agent step earlier than now has run (Machine.sync) before
	// the core asks DRAM or starts a line.
	now sim.Time
	// busy is the core time spent in operations (cpu_cycles).
	// Invariant: busy <= now; idling (wait) adds to now only.
	busy sim.Time
	// mshr and pfq are the outstanding demand fills (core.mlp) and
	// prefetch fills (prefetch.inflight): an access takes the slot that
	// frees first and waits if none is free (sim.Pool).
	// Invariant: each holds exactly its configured number of completion
	// times, as a min-heap.
	mshr, pfq sim.Pool
	pf        cache.Prefetcher
	// loadsDone is the latest data arrival of the current operation (the
	// operation ends no earlier). Invariant: reset to 0 at the start of
	// each Copy/Read/Write.
	loadsDone sim.Time
	// wsRun counts consecutive full-line store misses (write streaming
	// starts at core.write_stream_after).
	wsRun int
}

// CoreState is the core's state as plain data (for views and golden
// tests).
type CoreState struct {
	Now, Busy   sim.Time // the clock, and the part of it spent in operations
	FillsInUse  int      // demand fills outstanding at Now (of core.mlp)
	Prefetching int      // prefetch fills outstanding at Now (of prefetch.inflight)
	StreamRun   int      // consecutive full-line store misses (write streaming)
}

// newCore builds an idle core of a validated configuration.
func newCore(c CoreConfig, p PrefetchConfig) Core {
	return Core{cfg: c, mshr: sim.NewPool(c.MLP), pfq: sim.NewPool(p.Inflight), pf: cache.NewPrefetcher(p.PrefetchConfig)}
}

// Snapshot returns the core's state.
func (c *Core) Snapshot() CoreState {
	return CoreState{Now: c.now, Busy: c.busy, FillsInUse: c.mshr.Busy(c.now), Prefetching: c.pfq.Busy(c.now), StreamRun: c.wsRun}
}

// wait idles the core until t (not counted as busy).
func (c *Core) wait(t sim.Time) {
	if t > c.now {
		c.now = t
	}
}

// spend charges d of busy core time.
func (c *Core) spend(d sim.Time) {
	if d > 0 {
		c.now += d
		c.busy += d
	}
}

// arrived notes data arriving at t for the current operation.
func (c *Core) arrived(t sim.Time) {
	if t > c.loadsDone {
		c.loadsDone = t
	}
}

// fillSlot takes a demand-fill slot from the core's time: the core waits
// for it; it returns the slot's start and the wait.
func (c *Core) fillSlot() (sim.Time, sim.Time) {
	start, wait := c.mshr.Slot(c.now)
	c.now = start
	return start, wait
}

// fillDone holds the slot taken by fillSlot until ready.
func (c *Core) fillDone(ready sim.Time) {
	if !c.mshr.Done(ready) {
		c.mshr.Insert(ready)
	}
}
