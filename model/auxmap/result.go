package auxmap

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// Metric names.
const (
	MetricL1Refill   = "l1d_tlb_refill"
	MetricL2Refill   = "l2d_tlb_refill"
	MetricDTLBWalk   = "dtlb_walk"
	MetricL1IRefill  = "l1i_tlb_refill"
	MetricITLBWalk   = "itlb_walk"
	MetricStall      = "trace_stall_us"
	MetricTraceWalks = "walks_by_trace_unit"
)

// counts are the counters of one iteration (or a total).
type counts struct {
	l1Refill, l2Refill, dtlbWalk uint64
	l1iRefill, itlbWalk          uint64
	traceWalks, traceL1Refill    uint64
	traceTranslations            uint64
	stall                        sim.Time
	elapsed                      sim.Time
}

func (a counts) sub(b counts) counts {
	return counts{a.l1Refill - b.l1Refill, a.l2Refill - b.l2Refill, a.dtlbWalk - b.dtlbWalk,
		a.l1iRefill - b.l1iRefill, a.itlbWalk - b.itlbWalk, a.traceWalks - b.traceWalks, a.traceL1Refill - b.traceL1Refill, a.traceTranslations - b.traceTranslations,
		a.stall - b.stall, a.elapsed - b.elapsed}
}

func (a *counts) add(b counts) {
	a.l1Refill += b.l1Refill
	a.l2Refill += b.l2Refill
	a.dtlbWalk += b.dtlbWalk
	a.l1iRefill += b.l1iRefill
	a.itlbWalk += b.itlbWalk
	a.traceWalks += b.traceWalks
	a.traceL1Refill += b.traceL1Refill
	a.traceTranslations += b.traceTranslations
	a.stall += b.stall
	a.elapsed += b.elapsed
}

// total sums the iterations.
func (r *run) total() counts {
	var t counts
	for _, it := range r.iters {
		t.add(it)
	}
	return t
}

// result assembles the Result: counters per iteration (averaged), the
// allocator's chunks by order, the mapping's leaves by size.
func (r *run) result() *scenario.Result {
	t := r.total()
	n := float64(len(r.iters))
	per := func(v uint64) float64 { return float64(v) / n }
	unit := unitName(r.c.unit)
	metrics := []scenario.Metric{
		{Name: MetricL2Refill, Label: "l2d_tlb_refill per iteration (L2 TLB allocations after a walk, whoever asked)", Value: per(t.l2Refill), Group: "pmu"},
		{Name: MetricL1Refill, Label: "l1d_tlb_refill per iteration (the core's L1 data TLB)", Value: per(t.l1Refill), Group: "pmu"},
		{Name: MetricDTLBWalk, Label: "dtlb_walk per iteration (walks for the core's own data accesses)", Value: per(t.dtlbWalk), Group: "pmu"},
		{Name: MetricL1IRefill, Label: "l1i_tlb_refill per iteration (the core's L1 instruction TLB)", Value: per(t.l1iRefill), Group: "pmu"},
		{Name: MetricITLBWalk, Label: "itlb_walk per iteration (walks for the core's instruction fetches: in l2d_tlb_refill, not dtlb_walk)", Value: per(t.itlbWalk), Group: "pmu"},
		{Name: MetricTraceWalks, Label: "walks by the " + unit + " per iteration (not dtlb_walk)", Value: per(t.traceWalks), Group: "model"},
		{Name: unit + "_l1_tlb_refill", Label: unit + " one-entry L1 TLB refills per iteration", Value: per(t.traceL1Refill), Group: "model"},
		{Name: unit + "_translations", Label: unit + " translations per iteration (one per burst)", Value: per(t.traceTranslations), Group: "model"},
		{Name: MetricStall, Label: unit + " stalled on translation per iteration", Unit: "us", Value: t.stall.Microseconds() / n, Group: "time"},
		{Name: "iteration_us", Label: "iteration time", Unit: "us", Value: t.elapsed.Microseconds() / n, Group: "time"},
	}
	chunks := make([]int, r.m.Buddy().MaxOrder()+1)
	for _, ch := range r.buf.Chunks {
		chunks[ch.Order]++
	}
	for o, k := range chunks {
		if k > 0 {
			metrics = append(metrics, scenario.Metric{Name: fmt.Sprintf("chunks_by_order_%d", o),
				Label: fmt.Sprintf("AUX chunks of order %d (%s), last simulated session", o, scenario.FormatBytes(int64(4096)<<o)), Value: float64(k), Group: "allocator"})
		}
	}
	groups, entries := r.coalescable(), r.entriesPerPass() // one pass over the pages each, for the table and the narration
	metrics = append(metrics,
		scenario.Metric{Name: "aux_chunks", Label: "AUX chunks rb_alloc_aux took (last simulated session)", Value: float64(len(r.buf.Chunks)), Group: "allocator"},
		scenario.Metric{Name: "aux_max_order", Label: "largest chunk order rb_alloc_aux tried: max_order (get_order of the watermark) capped at the allocator's largest order", Value: float64(r.startOrder()), Group: "allocator"},
		scenario.Metric{Name: "map_4k_ptes", Label: "vmap: 4 KiB PTEs (last simulated session)", Value: float64(r.vmap.Pages), Group: "mapping"},
		scenario.Metric{Name: "map_64k_contig", Label: "vmap: 64 KiB contiguous runs (last simulated session)", Value: float64(r.vmap.Contig), Group: "mapping"},
		scenario.Metric{Name: "map_2m_blocks", Label: "vmap: 2 MiB blocks (last simulated session)", Value: float64(r.vmap.Blocks2M), Group: "mapping"},
		scenario.Metric{Name: "coalescable_groups", Label: "aligned 16 KiB VA groups whose four pages are physically consecutive, in the last simulated session's buffer (sessions differ)", Value: float64(groups), Group: "mapping"},
		scenario.Metric{Name: "l2_entries_per_pass", Label: "L2 TLB entries one pass over the last simulated session's buffer needs, as the L2 TLB coalesces (sessions differ; l2d_tlb_refill is their average)", Value: float64(entries), Group: "mapping"},
		scenario.Metric{Name: "simulated_iterations", Label: "iterations simulated access by access (the rest repeat the last two in turn)", Value: float64(r.simulated), Group: "model"},
	)
	faults := r.trace.R.Stats.Faults
	steps := r.narrate(t, groups, entries)
	var tl *timeline.Timeline
	if r.recording != nil {
		r.sampleCounters(max(r.tTrace, r.tCore) - r.origin) // the tracks end at the session's counts
		r.rec.Phase(timeline.Phase{Lane: unitName(r.c.unit), Kind: "dma-write", Label: "trace writes (last simulated session)", Start: 0, End: r.tTrace - r.origin})
		tl = r.rec.Finish(max(r.tTrace, r.tCore) - r.origin)
	}
	return &scenario.Result{
		End:     t.elapsed,
		Metrics: metrics,
		Checks: []scenario.Metric{
			{Name: "stale_bytes", Label: "stale bytes read (the CPU reads nothing of the buffer in this model)", Unit: "B", Value: 0, Group: "check"},
			{Name: "lost_bytes", Label: "trace bytes whose write faulted in translation", Unit: "B", Value: float64(faults * r.c.burst), Group: "check"},
			{Name: "translation_faults", Label: "translation faults", Value: float64(faults + r.core.R.Stats.Faults), Group: "check"},
		},
		Timeline:  tl,
		Narration: steps,
	}
}

// coalescable counts the AUX buffer's aligned 16 KiB VA groups whose four
// pages are physically consecutive (what the
// Cortex-A76 L2 TLB can hold in one coalesced entry).
func (r *run) coalescable() int {
	p := r.buf.Pages
	va := r.area.VA
	n := 0
	for i := 0; i+4 <= len(p); i++ {
		if (va+uint64(i)*4096)&(16<<10-1) != 0 {
			continue
		}
		ok := true
		for j := 1; ok && j < 4; j++ {
			ok = p[i+j] == p[i]+uint64(j)*4096
		}
		if ok {
			n++
		}
		i += 3
	}
	return n
}

// entriesPerPass counts the L2 TLB entries one pass over the buffer
// needs when nothing is evicted: one per leaf of 64 KiB or more, and for
// 4 KiB PTEs one per page the group's entries do not already cover, as
// mmu's coalescing fills them (on a TLB that coalesces; else one per
// page): in an aligned four-page VA group without a coalesced entry, a
// page's walk fills one that also covers every page of the group mapping
// the physical page at the same offset from it, if there is one; a page
// it does not cover later gets a 4 KiB entry of its own.
func (r *run) entriesPerPass() int {
	if r.vmap.Pages == 0 {
		return r.vmap.Contig + r.vmap.Blocks2M + r.vmap.Blocks1G
	}
	p := r.buf.Pages
	if r.mmu.L2.Config().Coalesce == 0 {
		return len(p)
	}
	n := 0
	for i := 0; i < len(p); {
		va := r.area.VA + uint64(i)*4096
		end := min(len(p), i+int(4-(va>>12)&3))
		covered := uint8(0) // bit j-i: page j is covered by the group's coalesced entry
		for j := i; j < end; j++ {
			if covered&(1<<(j-i)) != 0 {
				continue
			}
			n++
			if covered != 0 {
				continue // the group has its coalesced entry: a 4 KiB one
			}
			for k := i; k < end; k++ {
				if k != j && p[k] == p[j]+uint64(k-j)*4096 {
					covered |= 1<<(k-i) | 1<<(j-i)
				}
			}
		}
		i = end
	}
	return n
}
