package auxmap

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// largeStep explains prefer-large's mapping: the vmap batching series'
// steps, and its 4 KiB PTEs from the first order-0 step on. It names only
// the large mappings the buffer got (a 256 KiB buffer has no 2 MiB step).
func (r *run) largeStep() scenario.Step {
	v := r.vmap
	var title, gain string
	switch {
	case v.Blocks2M > 0 && v.Contig == 0 && v.Pages == 0:
		title, gain = "2 MiB blocks: 512 pages, one entry", "a block needs one walk and one L2 TLB entry for 512 pages"
	case v.Blocks2M == 0 && v.Contig > 0 && v.Pages == 0:
		title, gain = "64 KiB runs: 16 pages, one entry", "no step is 2 MiB; a 64 KiB run needs one walk and one L2 TLB entry for 16 pages"
	case v.Blocks2M > 0:
		title, gain = "Large mappings up to the first order-0 step", "a block needs one walk and one L2 TLB entry for 512 pages, a 64 KiB run one for 16"
	case v.Contig > 0:
		title, gain = "Large mappings up to the first order-0 step", "no step is 2 MiB; a 64 KiB run needs one walk and one L2 TLB entry for 16 pages"
	default:
		title, gain = "No large mapping", "no step is large, so every page has its own 4 KiB PTE, as with mainline vmap"
	}
	return scenario.Step{Title: title, Text: fmt.Sprintf(
		"rb_alloc_aux tried chunks of order %d and got %d. The vmap batching series (v4, unreleased) maps min(contiguous pages, PFN "+
			"alignment) pages per step: an aligned 2 MiB step as a block, a 64 KiB one as contiguous PTEs, and 4 KiB PTEs from the first "+
			"order-0 step on (mainline vmap: 4 KiB PTEs throughout). Here %d blocks, %d 64 KiB runs, %d 4 KiB PTEs: %s.",
		r.startOrder(), len(r.buf.Chunks), v.Blocks2M, v.Contig, v.Pages, gain)}
}

// workloadSteps say what the traced program's own translations add: the
// branch test's code and data (and what the published after figure
// leaves for them), or dd's code and its one buffer.
func (r *run) workloadSteps(t counts) []scenario.Step {
	n := float64(max(1, len(r.iters)))
	code, l1i, l1d := r.c.code/mem.PageSize, r.c.hw.TLB.L1I.Entries, r.c.hw.TLB.L1.Entries
	per := func(v uint64) string { return count(float64(v) / n) }
	if r.c.unit == SPE {
		return []scenario.Step{{Title: "dd's own pages", Text: fmt.Sprintf(
			"dd reuses one %s buffer: /dev/zero's read clears it (clear_user), /dev/null's write reads nothing. So the core translates that "+
				"buffer's %d page(s) and %d code pages (assumed): l1d_tlb_refill %s, dtlb_walk %s, itlb_walk %s per iteration. SPE samples one "+
				"in %d operations of %d blocks (%.0f each, assumed) and writes %s of records: %s of the %s l2d_tlb_refill are its walks.",
			scenario.FormatBytes(int64(r.c.bs)), r.c.bufPages(), code, per(t.l1Refill), per(t.dtlbWalk), per(t.itlbWalk),
			r.c.interval, r.c.count, ddBlockOps(r.c.bs), r.speWritten(t), per(t.traceWalks), per(t.l2Refill))}}
	}
	fit := " Code and data fit their L1 TLBs."
	if int(code) > l1i {
		fit = " The code misses the L1 ITLB on every pass and hits the L2 TLB, where it stays."
	}
	return []scenario.Step{
		{Title: "The branch test's own translations", Text: fmt.Sprintf(
			"The branch test (assumed: %s of code, %s of data; the published test's is not known) makes one pass per trace burst: %d code "+
				"pages through the %d-entry L1 instruction TLB, %d data pages through the %d-entry L1 data TLB.%s Per iteration: "+
				"l1d_tlb_refill %s, dtlb_walk %s, l1i_tlb_refill %s, itlb_walk %s.",
			scenario.FormatBytes(int64(r.c.code)), scenario.FormatBytes(int64(r.c.ws)), code, l1i, r.c.ws/mem.PageSize, l1d, fit,
			per(t.l1Refill), per(t.dtlbWalk), per(t.l1iRefill), per(t.itlbWalk))},
		{Title: "What the published after figure leaves for the test", Text: fmt.Sprintf(
			"%s of l2d_tlb_refill per iteration are the branch test's own walks. The published after figure, 513.1, is one walk per 2 MiB "+
				"block (512) and about one more: the measured test's own refills were about one per iteration, so its footprint was smaller "+
				"than assumed here, or not counted. Nothing here is adjusted toward it.", per(t.dtlbWalk+t.itlbWalk))},
	}
}
