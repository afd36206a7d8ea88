package auxmap

import (
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
)

// The workloads: TRBE's traced branch test and SPE's sampled dd, each a
// loop over its code and data pages (mmu.Loop) running on one clock with
// the trace unit's bursts.

// loopSteps is one pass of the traced program: every code page fetched
// once through the instruction side, the data pages touched once each
// through the data side, spread evenly among the code pages (a branch
// test reads its conditions as it goes; dd's read clears its buffer
// between its code's pages).
func loopSteps(fetch, data mmu.LoopPort, codeVA uint64, code int, dataVA uint64, dataN int, write bool) []mmu.LoopStep {
	steps := make([]mmu.LoopStep, 0, code+dataN)
	j := 0
	for i := range code {
		steps = append(steps, mmu.LoopStep{Port: fetch, VA: codeVA + uint64(i)*mem.PageSize})
		for ; j < dataN && j*code <= i*dataN; j++ {
			steps = append(steps, mmu.LoopStep{Port: data, VA: dataVA + uint64(j)*mem.PageSize, Write: write})
		}
	}
	return steps
}

// burstTime is the time the unit takes to write one burst at its rate.
func (r *run) burstTime() sim.Time {
	return sim.Time(float64(r.c.burst) / r.c.rate * float64(sim.Second))
}

// loopPass makes one pass of the program at the core's time and returns
// the translations it simulated (none when replayed).
func (r *run) loopPass() (int64, error) {
	replayed := r.loop.Replayed
	c, err := r.loop.Pass(r.tCore)
	r.tCore += c
	if r.loop.Replayed != replayed {
		return 0, err
	}
	return int64(r.loop.Steps()), err
}

// trbeIteration: TRBE writes the whole buffer once at the trace rate; the
// branch test makes one pass over its code and data per burst (assumed: a
// pass of sparse branches yields about a burst of trace), before it.
func (r *run) trbeIteration() error {
	bursts := r.c.aux / r.c.burst
	dt := r.burstTime()
	for i := uint64(0); i < bursts; {
		r.tCore = max(r.tCore, r.tTrace)
		// Asked first without a call (Remembers inlines): with 4 KiB pages
		// each burst is the next page's, never a run.
		if r.recording == nil && r.trace.R.Remembers(r.area.VA+r.wp) && r.loop.Quiet() {
			if k := r.steadyBursts(bursts-i, dt); k > 0 {
				i += k
				if err := r.pace.Work(int64(k)); err != nil {
					return err
				}
				continue
			}
		}
		work, err := r.loopPass()
		if err != nil {
			return err
		}
		r.traceBurst()
		r.tTrace += dt
		i++
		if err := r.pace.Work(1 + work); err != nil {
			return err
		}
	}
	return nil
}

// steadyBursts writes up to n bursts at once while each hits the trace
// unit's L1 TLB entry and the loop is quiet (nothing may be recorded), as
// that many turns of trbeIteration's loop would: each burst waits for no
// walk (the hit's cost, L1.Hit, stalls it), the pass before it repeats
// the last one (no L2 TLB use in between), the core waits for the trace
// unit's clock at each. It returns how many it wrote (0: the caller
// writes the burst itself).
func (r *run) steadyBursts(n uint64, dt sim.Time) uint64 {
	k, c := r.trace.R.Hits(r.area.VA+r.wp, r.c.burst, int(min(n, (r.c.aux-r.wp)/r.c.burst)), true)
	if k == 0 {
		return 0
	}
	// The passes see what the last one saw: the hits touched only the
	// trace unit's own L1 TLB.
	pc, ok := r.loop.Repeat(uint64(k))
	if !ok { // cannot happen (the caller checked Quiet); pass by pass then
		for range k {
			_, _ = r.loopPass()
		}
		pc = 0
	}
	// The core's clock over k passes, each starting at the later of its
	// own and the burst's start: x_j = max(x_j-1, T_j) + pc with T_j =
	// tTrace + j*(c+dt), so x = max(start + k*pc, T_k-1 + pc).
	step := c + dt
	r.tCore = max(r.tCore+sim.Time(k)*pc, r.tTrace+sim.Time(k-1)*step+pc)
	r.stall += sim.Time(k) * c
	r.tTrace += sim.Time(k) * step
	r.wp = (r.wp + uint64(k)*r.c.burst) % r.c.aux
	return uint64(k)
}

// speIteration: dd copies count blocks, each one pass over its code and
// its one buffer at the core's rate, while SPE writes its records at the
// sampling rate; whichever is earlier goes next, on one clock. While the
// loop is quiet and no burst falls due, its passes are made at once.
func (r *run) speIteration() error {
	block := sim.Time(r.c.ddBlockTime() * float64(sim.Second))
	dt := r.burstTime()
	every := max(r.c.count/countSamples, 1) // SPE fills few cells: dd's blocks pace the samples
	for i := 0; i < r.c.count; {
		bursts := int64(0)
		for r.tTrace <= r.tCore {
			r.traceBurst()
			r.tTrace += dt
			bursts++
		}
		if r.recording != nil && i%every == 0 {
			r.sampleCounters(r.tCore - r.origin)
		}
		work := bursts
		if step := r.loop.PassTime() + block; r.loop.Quiet() && step > 0 {
			// The passes until the next burst is due (at least one), up to
			// the next counter sample.
			k := int((r.tTrace - r.tCore + step - 1) / step)
			k = max(1, min(k, r.c.count-i, every-i%every))
			pc, _ := r.loop.Repeat(uint64(k))
			r.tCore += sim.Time(k) * (pc + block)
			i += k
		} else {
			w, err := r.loopPass()
			if err != nil {
				return err
			}
			r.tCore += block
			work += w
			i++
		}
		if err := r.pace.Work(1 + work); err != nil {
			return err
		}
	}
	return nil
}
