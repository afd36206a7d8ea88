// Package auxmap is the perf AUX buffer scenarios of MODEL.md section 3
// (seed: "coresight: perf: Prefer large AUX mappings" and "perf: arm_spe:
// Prefer large AUX mappings"): rb_alloc_aux allocates the AUX buffer from
// the buddy allocator (order-0 pages, or PREFER_LARGE chunks), the driver
// vmaps it (mainline vmap: 4 KiB PTEs; with the vmap batching series:
// large mappings for aligned contiguous steps), and a trace unit (TRBE or
// SPE) writes it through virtual addresses: every write translates
// through the unit's one-entry L1 TLB, the core's shared L2 TLB and, on a
// miss, the core's table walker. The traced program runs at the same
// time on the same clock, a loop over its code (the core's L1
// instruction TLB) and data (its L1 data TLB), so its misses and the
// trace unit's share the L2 TLB.
//
// trbe-aux: TRBE traces a sparse-branch test of assumed footprint;
// spe-aux: SPE samples dd if=/dev/zero of=/dev/null as perf's SPE test
// runs it, one reused buffer. Both share this package's code.
package auxmap

import (
	"fmt"
	"strconv"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/mmu"
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
	ParamShape      = "order_ratio" // how the small free blocks spread over the orders
	ParamRate       = "rate"
	ParamBurst      = "burst"
	ParamIterations = "iterations"
	ParamWorkingSet = "working_set" // trbe-aux: the branch test's data
	ParamCode       = "code"        // the traced program's code
	ParamBS         = "bs"          // spe-aux: dd's block size
	ParamCount      = "count"       // spe-aux: dd's blocks
	ParamInterval   = "interval"
	ParamPreset     = "preset"
)

// DefaultPreset is the platform both scenarios open with: Neoverse N1
// (Cortex-A76 class), the one preset whose core documents how its L2 TLB
// holds 4 KiB pages (four contiguous pages coalesce into one entry, A76
// TRM). N1 has no TRBE (an Armv9 feature): its trace units' one-entry L1
// TLB is assumed after the C1-Ultra TRM (model/platform tlb.go). The
// C1-Ultra class preset (dimensity-9500) documents no coalescing. The
// explanation and the narration say so.
const DefaultPreset = "neoverse-n1"

// DefaultFragmentation is the share of free memory outside whole
// max-order blocks when the session starts: trbe-aux's one parameter
// solved from the TRBE figure's before value (161,884.9 l2d_tlb_refill
// per iteration), by the one-dimensional solve in
// TestFragmentationSolvesTheBeforeFigure (0.255: 162,127.2). It decides
// how much of an order-0 buffer comes out of scattered small free blocks
// rather than split large ones; the after value and the change are
// predictions. Its provenance, and that of every other default below, is
// the scenario's table (provenance.go).
const DefaultFragmentation = 0.255

// defaultOrderRatio is the free-memory shape below 4 MiB: each order's
// share of the small free blocks' memory is this times the next lower
// order's (1: the same memory in each of orders 0..9; 0.5 puts half the
// small free memory at order 0, 2 half at order 9). The fragmentation is
// fitted with it and with the preset's memory size (mem.bytes): the
// before figure fixes how much free memory sits in small blocks, not the
// share alone.
const defaultOrderRatio = "1"

// The workloads' defaults.
const (
	// defaultBranchCode is the branch test's code footprint. A
	// sparse-branch test spreads its branch targets over many pages to
	// defeat the branch predictors. 512 KiB is the assumed range's
	// geometric middle (128 pages: past the 48-entry A76 L1 ITLB, inside
	// its 1280-entry L2 TLB).
	defaultBranchCode = "512KiB"
	// defaultBranchData is the data the branch test touches: the assumed
	// range's geometric middle.
	defaultBranchData = "64KiB"
	// defaultBurst is what the trace unit writes per translation. A unit
	// translates at least once per page it writes.
	defaultBurst = "4KiB"
	// defaultTraceRate is TRBE's write rate in MB/s.
	defaultTraceRate = "1000"
	// defaultDDBlock is dd's block size: GNU dd's DEFAULT_BLOCKSIZE (512)
	// when bs= is not given, as perf's own SPE test runs it.
	defaultDDBlock = "512B"
	// defaultDDCount is that test's count.
	defaultDDCount = "100000"
	// defaultDDCode is the text dd's loop and libc's read and write run
	// per block (the kernel's text is block mapped: an entry or two).
	defaultDDCode = "16KiB"
	// defaultInterval is SPE's sampling interval: perf sets the period to
	// the PMU's advertised min_interval (tools/perf/arch/arm64/util/
	// arm-spe.c; the driver reads it from PMSIDR_EL1.INTERVAL in
	// drivers/perf/arm_spe_pmu.c __arm_spe_pmu_dev_probe, 256..4096; 4096
	// when none is advertised).
	defaultInterval = "1024"
)

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

// The policies say which kernel each models.
var policies = []scenario.Policy{
	{ID: Order0, Title: "order-0 pages, mainline vmap (before)",
		Help: "mainline: rb_alloc_aux takes order-0 pages (the default since \"perf: Allocate non-contiguous AUX pages by default\", 2025) and vmap() maps each with its own 4 KiB PTE (mm/vmalloc.c)"},
	{ID: PreferLarge, Title: "PREFER_LARGE chunks, vmap batching series (after)",
		Help: "PERF_PMU_CAP_AUX_PREFER_LARGE for TRBE or SPE: chunks of order get_order(watermark), lowered on failure; vmap with the series \"mm/vmalloc: map contiguous pages in batches for vmap() if possible\" (v4, not in a released kernel): 2 MiB blocks and 64 KiB contiguous PTEs for aligned physically contiguous steps, 4 KiB PTEs from the first order-0 step on"},
	{ID: PreferLarge4K, Title: "PREFER_LARGE chunks, mainline vmap",
		Help: "physically contiguous chunks, but mainline vmap() still builds one 4 KiB PTE per page (as did the batching series before v3: it batched compound pages only, and rb_alloc_aux splits its chunks)"},
}

// maxAUX is the largest AUX buffer rb_alloc_aux allocates with 4 KiB
// pages (kernel/events/ring_buffer.c: the page array, 8 bytes a page,
// must fit one kcalloc_node of PAGE_SIZE << MAX_PAGE_ORDER, 4 MiB):
// 524,288 pages, 2 GiB (mmu.MaxAuxPages).
const maxAUX = float64(mem.PageSize) * float64(mmu.MaxAuxPagesDefault)

// auxLimit says why: the kernel refuses a larger buffer.
var auxLimit = fmt.Sprintf("rb_alloc_aux's page array (8 bytes a page) must fit one kcalloc_node of PAGE_SIZE << MAX_PAGE_ORDER "+
	"(4MiB with MAX_PAGE_ORDER %d), so a larger AUX buffer fails with -ENOMEM: perf reports \"failed to mmap with 12 (Cannot allocate memory)\"",
	mem.DefaultMaxOrder)

// unitParam is the index of the unit's rate parameter in Spec's list.
const unitParam = 5

// Spec describes the scenario.
func (s *Scenario) Spec() *scenario.Spec {
	var presets []scenario.Choice
	for _, p := range platform.Presets() {
		presets = append(presets, scenario.Choice{Value: p.Name, Label: p.Title})
	}
	auxDefault, fragHelp := "1GiB", "share of free memory in small free blocks (below 4 MiB, spread over orders 0..9 as the order ratio says) rather than whole 4 MiB blocks; "+
		"fitted to the before figure (161,884.9) with the preset's assumed memory size and the default order ratio"
	if s.unit == SPE {
		auxDefault, fragHelp = "512MiB", "share of free memory in small free blocks (below 4 MiB, spread over orders 0..9 as the order ratio says) rather than whole 4 MiB blocks; "+
			"assumed 0..1, the default is trbe-aux's fitted value (no SPE figure)"
	}
	params := []scenario.Param{
		{Name: ParamAUX, Label: "AUX buffer", Kind: scenario.KindBytes, Unit: "B", Default: auxDefault, Min: 64 << 10, Max: maxAUX, Limit: auxLimit,
			Help: "perf AUX buffer (perf record -m ,SIZE): a power-of-two number of 4 KiB pages, at most 2 GiB (rb_alloc_aux's page array); with the workload, burst and iterations it is bounded so a run stays within about 1.7 s natively (a larger setting is refused with the largest that fits)"},
		{Name: ParamWatermark, Label: "AUX watermark", Kind: scenario.KindBytes, Unit: "B", Default: "0", Min: 0, Max: maxAUX,
			Help: "attr.aux_watermark; 0 takes the default, half the buffer. PREFER_LARGE tries chunks of get_order(watermark) pages"},
		{Name: ParamOverwrite, Label: "Overwrite (snapshot) mode", Kind: scenario.KindBool, Default: "false",
			Help: "snapshot mode: the AUX area is mapped read-only, no watermark, PREFER_LARGE tries ilog2(nr_pages)"},
		{Name: ParamFrag, Label: "Fragmentation", Kind: scenario.KindFloat, Default: strconv.FormatFloat(DefaultFragmentation, 'g', -1, 64), Min: 0, Max: 1, Help: fragHelp},
		{Name: ParamShape, Label: "Small blocks' order ratio", Kind: scenario.KindFloat, Default: defaultOrderRatio, Min: 0.125, Max: 8,
			Help: "shape of the small free blocks: each order's share of their memory is this times the next lower order's (1: even over orders 0..9; assumed 0.5..2, the published machine's free memory is not known)"},
		{}, // the unit's rate: trace rate (TRBE) or sampling interval (SPE)
		{Name: ParamBurst, Label: "Trace burst", Kind: scenario.KindBytes, Unit: "B", Default: defaultBurst, Min: 64, Max: 4 << 10,
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
		s.trbeSpec(sp, params)
	} else {
		s.speSpec(sp, params)
	}
	return s.withProvenance(sp)
}

// trbeSpec fills in trbe-aux: the published figure and the branch test.
func (s *Scenario) trbeSpec(sp *scenario.Spec, params []scenario.Param) {
	sp.ID = "trbe-aux"
	sp.Lesson, sp.LessonNote = lessonTRBE, lessonNoteTRBE
	sp.Title = "TRBE AUX buffer: order-0 pages and mainline vmap vs PREFER_LARGE chunks and the vmap batching series"
	sp.Explanation = "TRBE writes the perf AUX buffer through its virtual address, so every page it writes needs a translation: " +
		"its one-entry L1 TLB refills from the core's L2 TLB, and a miss there walks the kernel's page tables (l2d_tlb_refill counts every " +
		"L2 TLB allocation, whoever asked, instruction fetches included). With order-0 pages and mainline vmap's 4 KiB PTEs a 1 GiB buffer is " +
		"262,144 translations per pass; the Cortex-A76 L2 TLB folds an aligned group of four physically consecutive pages into one entry, so how " +
		"many pages come out consecutive decides the refills, and that is set by the free memory's fragmentation: the one parameter fitted, to the " +
		"before figure, given two assumptions it trades off against: the preset's memory size (16 GiB on the default, assumed 8..64 GiB) and " +
		"how the small free blocks spread over the orders (the order ratio, assumed 0.5..2). The default platform pairs that A76/N1-class L2 " +
		"TLB with a C1-Ultra-style one-entry TRBE L1 TLB (assumed: N1 has no TRBE, " +
		"an Armv9 feature; C1-Ultra documents no coalescing). With PREFER_LARGE chunks and the vmap batching series (v4, not in a released kernel) " +
		"an aligned 2 MiB step is one block, one entry for 512 pages. The core meanwhile runs the branch test, a loop over sparse branches through " +
		"its code, touching its data, one pass per trace burst (its footprint is assumed: the published test's is not known); its misses refill " +
		"the same L2 TLB. Each iteration is a perf session of its own."
	params[unitParam] = scenario.Param{Name: ParamRate, Label: "Trace rate", Kind: scenario.KindFloat, Unit: "MB/s", Default: defaultTraceRate, Min: 1, Max: 100000,
		Help: "rate at which TRBE writes the AUX buffer (assumed, 100..4000 MB/s plausible)"}
	params = append(params,
		scenario.Param{Name: ParamCode, Label: "Branch test code", Kind: scenario.KindBytes, Unit: "B", Default: defaultBranchCode, Min: 4 << 10, Max: 64 << 20,
			Help: "code the sparse-branch loop runs through, in 4 KiB pages (assumed 64KiB..4MiB: the published test is not described); each pass fetches from every page once, through the core's L1 instruction TLB"},
		scenario.Param{Name: ParamWorkingSet, Label: "Branch test data", Kind: scenario.KindBytes, Unit: "B", Default: defaultBranchData, Min: 4 << 10, Max: 64 << 20,
			Help: "data pages the branch test touches, once each per pass (assumed 4KiB..1MiB); a footprint past the TLBs misses on every pass, so its size times the passes is bounded (about 1.7 s natively)"})
	sp.Params = params
	sp.Headline = &scenario.Headline{Metric: MetricL2Refill, Vary: ParamFrag + "=0,0.1,0.255,0.5,0.9,1", AllPolicies: true}
	sp.References = []scenario.Reference{
		{Metric: MetricL2Refill, Policy: Order0, Value: FigureBefore, Tolerance: TolBefore, Source: figureSource},
		{Metric: MetricL2Refill, Policy: PreferLarge, Value: FigureAfter, Tolerance: TolAfter, Source: figureSource},
		{Metric: MetricL2Refill, Pair: scenario.PairChange, Value: FigureChange, Tolerance: 0.32, Absolute: true, Source: figureSource},
	}
}

// speSpec fills in spe-aux: SPE sampling dd as perf's own SPE test runs it.
func (s *Scenario) speSpec(sp *scenario.Spec, params []scenario.Param) {
	sp.ID = "spe-aux"
	sp.Lesson, sp.LessonNote = lessonSPE, lessonNoteSPE
	sp.Title = "SPE AUX buffer while sampling dd: order-0 pages and mainline vmap vs PREFER_LARGE chunks and the vmap batching series"
	sp.Explanation = "SPE writes its sample records into the perf AUX buffer through virtual addresses, refilling its one-entry L1 TLB from " +
		"the core's L2 TLB, while it samples dd if=/dev/zero of=/dev/null as perf's own SPE test runs it (tools/perf/tests/shell/test_arm_spe.sh: " +
		"count=100000 and dd's default 512-byte blocks). dd reuses one buffer: /dev/zero's read clears it in the kernel (clear_user) and " +
		"/dev/null's write reads nothing, so the core's own translations are that buffer's pages and its code's. SPE samples one operation in " +
		"every interval (perf asks for the PMU's minimum, PMSIDR_EL1.INTERVAL) and writes a record of up to 64 bytes per sample. Physical " +
		"contiguity alone (PREFER_LARGE chunks behind mainline vmap's 4 KiB PTEs) leaves SPE's translations as they were; the vmap batching " +
		"series turns SPE's part into one walk per 2 MiB block. The default platform pairs an A76/N1-class L2 TLB (which coalesces up to four " +
		"consecutive pages per entry) with a C1-Ultra-style one-entry SPE L1 TLB (assumed: the C1-Ultra TRM documents it)."
	params[unitParam] = scenario.Param{Name: ParamInterval, Label: "SPE sampling interval", Kind: scenario.KindInt, Unit: "ops", Default: defaultInterval, Min: 256, Max: 1 << 20,
		Help: "operations between samples (PMSIRR_EL1); perf's default is the PMU's minimum (PMSIDR_EL1.INTERVAL, 256..4096; 1024 assumed); each sample writes a record of up to 64 bytes (assumed 64)"}
	params = append(params,
		scenario.Param{Name: ParamBS, Label: "dd block size (bs)", Kind: scenario.KindBytes, Unit: "B", Default: defaultDDBlock, Min: 512, Max: 64 << 20,
			Help: "dd's bs: the one buffer /dev/zero's read clears each block (GNU dd's default 512 B, as perf's SPE test runs it)"},
		scenario.Param{Name: ParamCount, Label: "dd count", Kind: scenario.KindInt, Unit: "blocks", Default: defaultDDCount, Min: 1, Max: 10000000,
			Help: "blocks dd copies per iteration (perf's SPE test: count=100000); bounded with the AUX buffer so a run stays within about 1.7 s natively"},
		scenario.Param{Name: ParamCode, Label: "dd code", Kind: scenario.KindBytes, Unit: "B", Default: defaultDDCode, Min: 4 << 10, Max: 4 << 20,
			Help: "user text dd and libc run per block, in 4 KiB pages (assumed 8KiB..64KiB); the kernel's text is block mapped"})
	sp.Params = params
	sp.Headline = &scenario.Headline{Metric: MetricL2Refill, Vary: ParamFrag + "=0,0.255,0.5,1", AllPolicies: true}
}

// vmapMode is the vmap() the policy's kernel has.
func vmapMode(policy string) mmu.VmapMode {
	if policy == PreferLarge {
		return mmu.VmapBatch
	}
	return mmu.VmapMainline
}
