// Package auxmap is the perf AUX buffer scenarios of MODEL.md section 3
// (seed: "coresight: perf: Prefer large AUX mappings" and "perf: arm_spe:
// Prefer large AUX mappings"): rb_alloc_aux allocates the AUX buffer from
// the buddy allocator (order-0 pages, or PREFER_LARGE chunks), the driver
// vmaps it (4 KiB PTEs, or large mappings where runs allow), and a trace
// unit (TRBE or SPE) writes it through virtual addresses: every write
// translates through the unit's one-entry L1 TLB, the core's shared L2
// TLB and, on a miss, the core's table walker. The core runs its own
// workload at the same time on the same clock, so its accesses and the
// trace unit's share the L2 TLB.
//
// trbe-aux: TRBE traces a sparse-branch loop (few data pages); spe-aux:
// SPE samples a dd-like copy that streams its own source and destination
// pages. Both share this package's code.
package auxmap

import (
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// Published figure (MODEL.md section 3).
const (
	figureSource = "coresight: perf: Prefer large AUX mappings — TRBE, 1 GB AUX buffer, sparse branch test, 10 iterations, perf stat l2d_tlb_refill"
	// FigureBefore and FigureAfter are l2d_tlb_refill per iteration.
	FigureBefore = 161884.9
	FigureAfter  = 513.1
	// FigureChange is (after - before) / before in percent.
	FigureChange = -99.68
	TolBefore    = 0.15
	TolAfter     = 0.25
)

// Policy ids.
const (
	Order0        = "order0"
	PreferLarge   = "prefer-large"
	PreferLarge4K = "prefer-large-4k-vmap"
)

// Parameter names (URL keys).
const (
	ParamAUX        = "aux"
	ParamWatermark  = "watermark"
	ParamOverwrite  = "overwrite"
	ParamFrag       = "fragmentation"
	ParamRate       = "rate"
	ParamBurst      = "burst"
	ParamIterations = "iterations"
	ParamWorkingSet = "working_set"
	ParamCopyRate   = "copy_rate"
	ParamInterval   = "interval"
	ParamPreset     = "preset"
)

// DefaultPreset is the platform both scenarios open with: Neoverse N1
// (Cortex-A76 class), the one preset whose core documents how its L2 TLB
// holds 4 KiB pages (four contiguous pages coalesce into one entry, A76
// TRM), which is what sets the before figure at 0.62 refills per page.
// N1 has no TRBE (an Armv9 feature): its trace units' one-entry L1 TLB is
// assumed after the C1-Ultra TRM (model/platform tlb.go). The C1-Ultra
// class preset (dimensity-9500) documents no coalescing, so its before
// figure would be one refill per page. The explanation and the narration
// say so.
const DefaultPreset = "neoverse-n1"

// DefaultFragmentation is the share of free memory outside whole
// max-order blocks when the session starts. Fitted to 161,884.9 (the
// before figure): it decides how much of an order-0 buffer comes out of
// scattered small free blocks rather than split large ones.
const DefaultFragmentation = 0.2

// Unit says which trace unit a scenario models.
type Unit uint8

const (
	TRBE Unit = iota
	SPE
)

// Scenario is trbe-aux or spe-aux.
type Scenario struct{ unit Unit }

// NewTRBE returns the trbe-aux scenario.
func NewTRBE() *Scenario { return &Scenario{unit: TRBE} }

// NewSPE returns the spe-aux scenario.
func NewSPE() *Scenario { return &Scenario{unit: SPE} }

var policies = []scenario.Policy{
	{ID: Order0, Title: "order-0 pages, 4 KiB PTEs (before)",
		Help: "rb_alloc_aux takes order-0 pages (the default since 2025); vmap maps each with its own 4 KiB PTE"},
	{ID: PreferLarge, Title: "PREFER_LARGE chunks, large vmap (after)",
		Help: "PERF_PMU_CAP_AUX_PREFER_LARGE: chunks of order get_order(watermark), lowered on failure; vmap maps aligned runs with 2 MiB blocks and 64 KiB contiguous PTEs"},
	{ID: PreferLarge4K, Title: "PREFER_LARGE chunks, 4 KiB PTEs",
		Help: "physically contiguous chunks, but vmap still builds one 4 KiB PTE per page (the earlier SPE attempt)"},
}

// Spec describes the scenario.
func (s *Scenario) Spec() *scenario.Spec {
	var presets []scenario.Choice
	for _, p := range platform.Presets() {
		presets = append(presets, scenario.Choice{Value: p.Name, Label: p.Title})
	}
	params := []scenario.Param{
		{Name: ParamAUX, Label: "AUX buffer", Kind: scenario.KindBytes, Unit: "B", Default: "1GiB", Min: 64 << 10, Max: 4 << 30,
			Help: "perf AUX buffer (perf record -m ,SIZE): a power-of-two number of 4 KiB pages; with the working set, burst and iterations it is bounded so a run stays within about 1.7 s natively (a larger setting is refused with the largest that fits)"},
		{Name: ParamWatermark, Label: "AUX watermark", Kind: scenario.KindBytes, Unit: "B", Default: "0", Min: 0, Max: 4 << 30,
			Help: "attr.aux_watermark; 0 takes the default, half the buffer. PREFER_LARGE tries chunks of get_order(watermark) pages"},
		{Name: ParamOverwrite, Label: "Overwrite (snapshot) mode", Kind: scenario.KindBool, Default: "false",
			Help: "snapshot mode: the AUX area is mapped read-only, no watermark, PREFER_LARGE tries ilog2(nr_pages)"},
		{Name: ParamFrag, Label: "Fragmentation", Kind: scenario.KindFloat, Default: "0.2", Min: 0, Max: 1,
			Help: "share of free memory in small free blocks (spread evenly over orders 0..9) rather than whole 4 MiB blocks; 0.2 is fitted to the before figure (161,884.9)"},
		{Name: ParamRate, Label: "Trace rate", Kind: scenario.KindFloat, Unit: "MB/s", Default: "1000", Min: 1, Max: 100000,
			Help: "rate at which the trace unit writes the AUX buffer (assumed)"},
		{Name: ParamBurst, Label: "Trace burst", Kind: scenario.KindBytes, Unit: "B", Default: "4KiB", Min: 64, Max: 4 << 10,
			Help: "bytes the unit writes per burst (a power of two); a burst translates once"},
		{Name: ParamIterations, Label: "Iterations", Kind: scenario.KindInt, Default: "10", Min: 1, Max: 100,
			Help: "test iterations; counters are reported per iteration (averaged), as perf stat -r"},
		{Name: ParamPreset, Label: "Platform", Kind: scenario.KindChoice, Default: DefaultPreset,
			Help: "hardware preset; neoverse-n1 (Cortex-A76 class) is the default: its L2 TLB coalesces four contiguous pages; every preset's trace unit has a one-entry L1 TLB as the C1-Ultra TRM documents (assumed for the others)", Choices: presets},
	}
	sp := &scenario.Spec{
		Policies:      policies,
		DefaultA:      Order0,
		DefaultB:      PreferLarge,
		DefaultPreset: DefaultPreset,
	}
	if s.unit == TRBE {
		sp.ID = "trbe-aux"
		sp.Lesson, sp.LessonNote = lessonTRBE, lessonNoteTRBE
		sp.Title = "TRBE AUX buffer: order-0 pages and 4 KiB PTEs vs PREFER_LARGE chunks and large vmap"
		sp.Explanation = "TRBE writes the perf AUX buffer through its virtual address, so every page it writes needs a translation: " +
			"its one-entry L1 TLB refills from the core's L2 TLB, and a miss there walks the kernel's page tables (l2d_tlb_refill counts the allocation, " +
			"whoever asked). With order-0 pages and 4 KiB PTEs a 1 GiB buffer is 262,144 translations per pass; the Cortex-A76 L2 TLB folds an aligned group of four " +
			"physically consecutive pages into one entry, so only the consecutive parts of the page list save refills (about 0.62 per page at the default fragmentation). " +
			"The default platform is that pairing, by assumption: an A76/N1-class L2 TLB (which coalesces) with a C1-Ultra-style one-entry TRBE L1 TLB " +
			"(N1 has no TRBE, an Armv9 feature; C1-Ultra documents no coalescing, so on it the before figure would be 1 refill per page). With PREFER_LARGE " +
			"chunks and large vmap a 2 MiB block needs one entry for 512 pages. The core meanwhile runs a sparse-branch loop whose data is one stack page. Each iteration is a perf session of its own."
		params = append(params,
			scenario.Param{Name: ParamWorkingSet, Label: "Loop working set", Kind: scenario.KindBytes, Unit: "B", Default: "4KiB", Min: 4 << 10, Max: 64 << 20,
				Help: "data pages the traced loop touches (assumed: a loop of branches keeps its data in one stack page); the loop visits each once per trace burst; a set past the L1 TLB misses on every pass, so its size times the bursts is bounded (about 1.7 s natively)"})
		sp.Headline = &scenario.Headline{Metric: MetricL2Refill, Vary: ParamFrag + "=0,0.1,0.2,0.5,0.9,1", AllPolicies: true}
		sp.References = []scenario.Reference{
			{Metric: MetricL2Refill, Policy: Order0, Value: FigureBefore, Tolerance: TolBefore, Source: figureSource},
			{Metric: MetricL2Refill, Policy: PreferLarge, Value: FigureAfter, Tolerance: TolAfter, Source: figureSource},
			{Metric: MetricL2Refill, Pair: scenario.PairChange, Value: FigureChange, Tolerance: 0.32, Absolute: true, Source: figureSource},
		}
	} else {
		sp.ID = "spe-aux"
		sp.Lesson, sp.LessonNote = lessonSPE, lessonNoteSPE
		sp.Title = "SPE AUX buffer while sampling a dd-like copy: order-0 pages vs PREFER_LARGE chunks and large vmap"
		sp.Explanation = "SPE writes its sample records into the perf AUX buffer through virtual addresses, refilling its one-entry L1 TLB from " +
			"the core's L2 TLB, while the sampled program, a dd-like copy, streams through its own source and destination pages and refills the same " +
			"L2 TLB for them. Physical contiguity alone (PREFER_LARGE chunks behind 4 KiB PTEs) leaves SPE's translations as they were; large vmap " +
			"turns SPE's part into one walk per 2 MiB block, but the copy's own refills remain. The default platform pairs an A76/N1-class L2 TLB " +
			"(which coalesces up to four consecutive pages per entry) with a C1-Ultra-style one-entry SPE L1 TLB (assumed: the C1-Ultra TRM documents it)."
		params[0].Default = "512MiB"
		params[3].Help = "share of free memory in small free blocks (spread evenly over orders 0..9) rather than whole 4 MiB blocks; 0.2 as fitted for trbe-aux"
		params[4] = scenario.Param{Name: ParamInterval, Label: "SPE sampling interval", Kind: scenario.KindInt, Unit: "ops", Default: "1024", Min: 256, Max: 1 << 20,
			Help: "operations between samples (PMSIRR); each sample writes a 64-byte record (assumed)"}
		params = append(params,
			scenario.Param{Name: ParamWorkingSet, Label: "dd copy size", Kind: scenario.KindBytes, Unit: "B", Default: "256MiB", Min: 64 << 10, Max: 1 << 30,
				Help: "bytes dd copies per iteration, source and destination each that size in order-0 pages with 4 KiB PTEs (no THP); bounded with the AUX buffer so a run stays within about 1.7 s natively"},
			scenario.Param{Name: ParamCopyRate, Label: "dd copy rate", Kind: scenario.KindFloat, Unit: "MB/s", Default: "10000", Min: 100, Max: 100000,
				Help: "the copy's throughput (assumed, DRAM bound); 16-byte loads and stores, so one operation per 8 bytes copied"})
		sp.Headline = &scenario.Headline{Metric: MetricL2Refill, Vary: ParamFrag + "=0,0.2,0.5,1", AllPolicies: true}
	}
	sp.Params = params
	return s.withProvenance(sp)
}
