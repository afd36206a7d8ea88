package etr

import (
	"github.com/dmaviz/dmaviz/model/sim"
)

// Pacing (scenario.Pacer): the run counts its work in 64-byte blocks of
// trace written, lines invalidated and bytes copied, so the page can give
// way every scenario.PaceQuantum blocks and show how far the run is. None
// of it changes what the run computes.

// workBytes is the pacing unit.
const workBytes = 64

// planWork estimates a run's work: the recorded session (trace, sync of at
// most the buffer, copy of at most the buffer, the scan of the caches for
// the initial picture) and, in the steady state, the earlier session.
func planWork(c config, nc bool) int64 {
	kept := min(c.written, c.size)
	w := int64(1)
	if nc {
		w = ncWeight
	}
	session := int64((c.written+kept+c.size)/workBytes) + w*int64(kept/workBytes)
	switch c.prior {
	case PriorSteady:
		return 2 * session
	case PriorCached:
		return session + w*int64(c.size/workBytes)
	}
	return session
}

// ncWeight is what a 64-byte block the CPU reads through the Normal-NC
// alias counts: four 16-byte loads, each its own DRAM read, cost about as
// much as four blocks of cacheable work (a 256 KiB slice of them took
// about 50 ms as WebAssembly, one pacing quantum at weight 1).
const ncWeight = 4

// cpuUnits is the pacing units of n bytes the CPU reads or copies.
func (r *run) cpuUnits(n uint64) int64 {
	u := int64(n / workBytes)
	if r.pol.NC {
		u *= ncWeight
	}
	return u
}

// paceTrace is the trace's progress callback, counting each step's bytes
// (Device.Trace cannot take an error back: session checks Pacer.Err after
// it).
func (r *run) paceTrace(step uint64) func(Pointers, sim.Time) {
	return func(p Pointers, t sim.Time) {
		r.pace.Work(int64(step / workBytes))
		r.traceProgress(p, t)
	}
}

// readPaced is the CPU reading [va, va+n) with 16-byte loads, in slices so
// the run can give way (the machine does the same accesses either way).
func (r *run) readPaced(va, n uint64) error {
	const slice = 64 << 10
	for off := uint64(0); off < n; off += slice {
		k := min(slice, n-off)
		if _, err := r.m.Read(va+off, k, 16); err != nil {
			return err
		}
		if err := r.pace.Work(r.cpuUnits(k)); err != nil {
			return err
		}
	}
	return nil
}
