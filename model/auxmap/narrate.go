package auxmap

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/sim"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// narrate is the classroom commentary, from the run's own numbers (groups
// and entries are coalescable and entriesPerPass).
func (r *run) narrate(t counts, groups, entries int) []scenario.Step {
	n := float64(len(r.iters))
	unit := "TRBE"
	if r.c.unit == SPE {
		unit = "SPE"
	}
	pages := len(r.buf.Pages)
	steps := []scenario.Step{
		{Title: "Why a trace unit translates", Text: fmt.Sprintf(
			"%s is programmed with the AUX buffer's virtual base, limit and write pointer (the driver vmapped the %d pages rb_alloc_aux gave it), "+
				"so every write needs the physical address first. Its one-entry L1 TLB holds one translation; a miss looks in the core's shared L2 TLB, "+
				"and a miss there walks the kernel's page tables, reading descriptors through the core's caches while the unit waits "+
				"(%.1f us per iteration here).", unit, pages, t.stall.Microseconds()/n)},
		{Title: "Refills and walks, and who counts them", Text: fmt.Sprintf(
			"l2d_tlb_refill counts every allocation into the L2 TLB after a walk, whoever caused it (the L2 TLB is unified: instruction "+
				"fetches count too): %.1f per iteration, of which the %s's walks are %.1f, the core's data walks (dtlb_walk) %.1f and its "+
				"instruction-fetch walks (itlb_walk) %.1f. l1d_tlb_refill counts only refills of the core's L1 data TLB (%.1f): the trace "+
				"unit's misses never appear in it or in dtlb_walk.", float64(t.l2Refill)/n, unit, float64(t.traceWalks)/n,
			float64(t.dtlbWalk)/n, float64(t.itlbWalk)/n, float64(t.l1Refill)/n)},
		r.platformStep(unit),
	}
	switch r.policy {
	case Order0, PreferLarge4K:
		steps = append(steps, r.pageSteps(t, pages, groups, entries)...)
		if r.policy == PreferLarge4K {
			steps = append(steps, r.contiguityStep(t, pages))
		}
	case PreferLarge:
		steps = append(steps, r.largeStep())
	}
	steps = append(steps, scenario.Step{Title: "What fragmentation does to prefer-large", Text: fmt.Sprintf(
		"PREFER_LARGE asks the buddy allocator for large chunks and lowers the order on each failure. With fragmentation %g, %d of "+
			"the allocator's 4 MiB blocks were left whole; once a buffer needs more than that, the chunks shrink and so do the mappings, "+
			"and the refill count climbs back toward the order-0 level.", r.c.frag, r.shape[len(r.shape)-1])})
	steps = append(steps, r.workloadSteps(t)...)
	// Spread the steps over the recorded session so the player walks
	// through them (the timeline is the last simulated session).
	end := max(r.tTrace, r.tCore) - r.origin
	for i := range steps {
		steps[i].T = end * sim.Time(i) / sim.Time(max(1, len(steps)-1))
		if r.recording != nil {
			r.rec.Mark(steps[i].T, i)
		}
	}
	return steps
}
