package auxmap

import (
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// The workloads: TRBE's traced loop and SPE's sampled dd copy, each
// running on one clock with the trace unit's bursts.

// burstTime is the time the unit takes to write one burst at its rate.
func (r *run) burstTime() sim.Time {
	return sim.Time(float64(r.c.burst) / r.c.rate * float64(sim.Second))
}

// trbeIteration: TRBE writes the whole buffer once at the trace rate; the
// core's loop visits each working-set page once per burst, between bursts.
func (r *run) trbeIteration() error {
	bursts := r.c.aux / r.c.burst
	dt := r.burstTime()
	for i := uint64(0); i < bursts; i++ {
		r.tCore = max(r.tCore, r.tTrace)
		var work int64
		if cr := r.core.R; r.coreSteady && cr.Gen() == r.coreGen {
			r.countPass() // (no call to loopPass per burst while steady)
			// Asked first without a call (Remembers inlines): with 4 KiB
			// pages each burst is the next page's, never a run.
			if r.recording == nil && r.trace.R.Remembers(r.area.VA+r.wp) {
				if k := r.steadyBursts(bursts-i, dt); k > 0 {
					i += k - 1
					if err := r.pace.Work(int64(k)); err != nil {
						return err
					}
					continue
				}
			}
		} else {
			work = r.loopPass()
		}
		r.traceBurst()
		r.tTrace += dt
		if err := r.pace.Work(1 + work); err != nil {
			return err
		}
	}
	return nil
}

// steadyBursts writes up to n bursts at once (their loop passes counted
// as steady: the first one's is, by the caller) while each hits the
// trace unit's L1 TLB entry (nothing may be recorded), as that many turns
// of trbeIteration's loop would: each burst waits for no walk (the hit's
// cost, L1.Hit, stalls it), the loop pass before it sees the same TLBs,
// the core waits for the trace unit's clock. It returns how many it
// wrote (0: the caller writes the burst itself).
func (r *run) steadyBursts(n uint64, dt sim.Time) uint64 {
	k, c := r.trace.R.Hits(r.area.VA+r.wp, r.c.burst, int(min(n, (r.c.aux-r.wp)/r.c.burst)), true)
	if k == 0 {
		return 0
	}
	// The first burst's pass is counted by the caller.
	r.countPasses(uint64(k - 1))
	r.tCore = max(r.tCore, r.tTrace+sim.Time(k-1)*(c+dt)) // the last burst's start
	r.stall += sim.Time(k) * c
	r.tTrace += sim.Time(k) * (c + dt)
	r.wp = (r.wp + uint64(k)*r.c.burst) % r.c.aux
	return uint64(k)
}

// loopPass is one pass of the traced loop over its data pages. A pass
// that hit the core's L1 TLB throughout leaves it as it was (LRU: the
// same pages touched in the same order), so while the TLB generation is
// unchanged the next pass would hit too and is counted, not simulated.
// It returns the translations it simulated.
func (r *run) loopPass() int64 {
	cr := r.core.R
	if r.coreSteady && cr.Gen() == r.coreGen {
		r.countPass()
		return 0
	}
	before := cr.L1.Stats.Refills
	for i := 0; i < r.wsN; i++ {
		c, _ := r.core.TranslateCost(r.wsVA+uint64(i)*mem.PageSize, false, r.tCore)
		r.tCore += c
	}
	r.coreSteady = cr.L1.Stats.Refills == before
	r.coreGen = cr.Gen()
	return int64(r.wsN)
}

// countPass counts a steady loop pass: every page hits the core's L1 TLB.
func (r *run) countPass() { r.countPasses(1) }

// countPasses counts n steady loop passes.
func (r *run) countPasses(n uint64) {
	cr := r.core.R
	r.coreSkips += n
	cr.L1.Stats.Lookups += n * uint64(r.wsN)
	cr.L1.Stats.Hits += n * uint64(r.wsN)
	cr.Stats.Translations += n * uint64(r.wsN)
}

// speIteration: dd copies ws bytes page by page (source page, then
// destination page) at the copy rate while SPE writes its records at the
// sampling rate; whichever is earlier goes next, on one clock.
func (r *run) speIteration() error {
	pages := r.c.ws / mem.PageSize
	perPage := sim.Time(float64(mem.PageSize) / r.c.copyRate * float64(sim.Second))
	dt := r.burstTime()
	every := max(pages/countSamples, 1) // SPE fills few cells: the copy's pages pace the samples
	for i := uint64(0); i < pages; i++ {
		bursts := int64(0)
		for r.tTrace <= r.tCore {
			r.traceBurst()
			r.tTrace += dt
			bursts++
		}
		if err := r.pace.Work(2 + bursts); err != nil {
			return err
		}
		if r.recording != nil && i%every == 0 {
			r.sampleCounters(r.tCore - r.origin)
		}
		s, _ := r.core.TranslateCost(r.srcVA+i*mem.PageSize, false, r.tCore)
		d, _ := r.core.TranslateCost(r.dstVA+i*mem.PageSize, true, r.tCore+s)
		r.tCore += s + d + perPage
	}
	return nil
}
