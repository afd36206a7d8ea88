// Package etr is the CoreSight TMC-ETR bounce-buffer scenario (MODEL.md
// section 1): the ETR writes trace by DMA into a circular buffer in DRAM;
// at the end of a perf session tmc_update_etr_buffer stops it, reads RRP,
// RWP and STS.FULL, makes the data visible to the CPU according to the
// policy, and copies it page by page into the perf AUX ring.
//
// Everything runs on the soc machine with a platform preset: the ETR is a
// non-coherent DMA master, the copy is the machine's memcpy (Normal-NC
// loads for the coherent policy, line fills and prefetch for the cacheable
// ones), dma_sync_single_for_cpu is the machine's DC ops and DSB. Stale and
// lost trace are detected from the machine's line versions, never assumed
// from the policy's name.
package etr

import (
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// Published figures (MODEL.md section 1; the series' postings on the
// linux-arm-kernel list). Juno-r2, 4 MiB, ftrace of tmc_update_etr_buffer
// while "copying 4MiB data": the traced workload, the trace rate and the
// cluster that ran the copy are not published.
const (
	figureSource = "coresight: tmc-etr: Speed up for bounce buffer in flat mode — Juno-r2, 4 MiB, ftrace of tmc_update_etr_buffer"
	// v3 (20210829135409.186732-1-leo.yan@linaro.org): alloc_pages +
	// dma_map_page, before -> after.
	FigureCoherentUS = 8148.32 // coherent (dma_alloc_coherent) buffer
	FigureCachedUS   = 2463.98 // the patch's cacheable buffer + dma_sync_single_for_cpu
	FigureRatio      = 3.31
	// v4, as merged (20210905032144.966766-1-leo.yan@linaro.org, commit
	// 0abd076217a3): dma_alloc_noncoherent, re-measured after the change.
	figureMergedSource = "coresight: tmc-etr: Use cacheable memory for flat buffer (v4, as merged) — Juno-r2, 4 MiB, ftrace of tmc_update_etr_buffer"
	FigureMergedUS     = 2525.42
	FigureTolerance    = 0.10
)

// Scenario is the ETR scenario. The zero value is ready to use.
type Scenario struct{}

// New returns the scenario.
func New() *Scenario { return &Scenario{} }

// Parameter names (URL keys).
const (
	ParamBuffer  = "buffer"
	ParamLaps    = "laps"
	ParamAUX     = "aux"
	ParamWidth   = "width"
	ParamRate    = "rate"
	ParamPrior   = "prior"
	ParamBarrier = "barrier"
	ParamPreset  = "preset"
)

// Prior CPU-side states of the buffer before the session.
const (
	PriorSteady = "steady"
	PriorCold   = "cold"
	PriorCached = "cached"
)

// Spec describes the scenario.
func (*Scenario) Spec() *scenario.Spec {
	pols := make([]scenario.Policy, len(policies))
	for i, p := range policies {
		pols[i] = scenario.Policy{ID: string(p.ID), Title: p.Title, Help: p.Help, Bug: p.Bug}
	}
	sp := &scenario.Spec{
		ID:         "etr",
		Lesson:     lesson,
		LessonNote: lessonNote,
		Title:      "CoreSight ETR bounce buffer: Normal-NC coherent buffer vs cacheable buffer + sync",
		Explanation: "The ETR trace sink writes by DMA into a circular buffer; at the end of a perf session " +
			"tmc_update_etr_buffer stops it, reads RRP, RWP and STS.FULL and copies the trace into the perf AUX ring. " +
			"With dma_alloc_coherent the CPU reads the buffer through a Normal-NC mapping: every load is its own DRAM read, " +
			"correct but slow (8148 us for 4 MiB on Juno r2). With a cacheable buffer the copy uses line fills and prefetch, " +
			"but lines the CPU cached earlier must first be invalidated (dma_sync_single_for_cpu: DC IVAC per line, then DSB); " +
			"when the data wraps, the head part must be synced too. Skip that and the copy reads stale lines if they are still " +
			"cached when the copy reaches them: at the lesson size (16 KiB written one and a half times) both bug policies read " +
			"stale trace. At the paper size (4 MiB, one lap) neither bites, and the hazards list says why: on Juno's 1 MiB L2 the " +
			"copy's own fills evict the stale lines before it reaches them, and one whole lap does not wrap, so the wrap-blind " +
			"sync covers it all. " +
			"A finding about the merged driver itself: it never calls dma_sync_single_for_device, so the zero lines " +
			"dma_alloc_noncoherent leaves dirty (first session, prior=cold) and the barrier packet's line (next session, when it is " +
			"still cached: a 1 MiB buffer on Juno, or the lesson size) are written back over new trace by DC IVAC, which cleans a dirty line on the " +
			"Cortex-A53 and A76/N1 (and on every core under KVM); cached-sync-for-cpu-and-device is the fix.",
		Params: []scenario.Param{
			{Name: ParamBuffer, Label: "ETR buffer size", Kind: scenario.KindBytes, Unit: "B", Default: "4MiB", Min: 16 << 10, Max: 32 << 20, Step: mem.PageSize,
				Help: "size of the ETR's flat DMA buffer, in whole 4 KiB pages (the figure's: 4 MiB, \"copying 4MiB data\"; sysfs default and perf minimum: 1 MiB; below that only for watching, as the lesson size does); at most 32 MiB here, as a 64 MiB buffer took 1.6-2.1 s to simulate natively and 7.3 s in the page (every setting must end within 2 s natively, 6 s in the page)"},
			{Name: ParamLaps, Label: "Trace written (laps)", Kind: scenario.KindFloat, Default: "1", Min: 0, Max: 4,
				Help: "trace the ETR writes this session, in buffer sizes: below 1 the buffer is partly filled; 1 exactly fills it (STS.FULL); above 1 the ring wraps and overwrites its oldest trace (the figure's: at least 1, as 4 MiB were copied; assumed [1, 4], whether it wrapped is not published)"},
			{Name: ParamAUX, Label: "perf AUX buffer", Kind: scenario.KindBytes, Unit: "B", Default: "4MiB", Min: 4 << 10, Max: 256 << 20, Step: mem.PageSize, Pow2: true,
				Help: "size of the perf AUX ring (a power-of-two number of pages; perf's cs_etm default is 4 MiB, assumed for the figure: a 4 MiB flat buffer follows from it, as alloc_etr_buf sizes the buffer from the AUX pages); smaller than the data truncates the record"},
			{Name: ParamWidth, Label: "Copy load width", Kind: scenario.KindChoice, Unit: "B", Default: "16",
				Help: "bytes per load and store of the copy (arm64 memcpy uses 16-byte LDP/STP of X registers; assumed [16, 32] for the figure, some builds copy with LDP Q); a Normal-NC load wider than the core's nc.read_bytes is split into several bus reads",
				Choices: []scenario.Choice{{Value: "4", Label: "4 B (LDR W)"}, {Value: "8", Label: "8 B (LDR X)"},
					{Value: "16", Label: "16 B (LDP X, memcpy)"}, {Value: "32", Label: "32 B (LDP Q)"}, {Value: "64", Label: "64 B (LD1 x4)"}}},
			{Name: ParamRate, Label: "Trace rate", Kind: scenario.KindFloat, Unit: "MB/s", Default: "1000", Min: 10, Max: 10000,
				Help: "rate at which the ETR writes trace into its buffer (assumed [100, 2000] MB/s for the figure, not published; sets how long the session lasts, not the copy)"},
			{Name: ParamPrior, Label: "CPU caches before the session", Kind: scenario.KindChoice, Default: PriorSteady,
				Help: "what the CPU caches hold of the buffer when the ETR starts writing",
				Choices: []scenario.Choice{
					{Value: PriorSteady, Label: "steady state: the previous session was copied out through the same mapping (assumed for the figure: ftrace times repeated sessions)"},
					{Value: PriorCold, Label: "cold: the buffer was just allocated; the caches hold what its allocation left (the first session)"},
					{Value: PriorCached, Label: "cached: the CPU read the whole buffer through the cacheable map"}}},
			{Name: ParamBarrier, Label: "Barrier packets", Kind: scenario.KindBool, Default: "true",
				Help: "when the data wrapped or was truncated the driver writes a 16-byte barrier packet at the new start of the data, through the CPU's mapping, so the decoder resynchronises"},
			{Name: ParamPreset, Label: "Platform", Kind: scenario.KindChoice, Default: "juno-r2",
				Help: "hardware preset; juno-r2's dram.latency is fitted to this scenario's coherent figure (its one fitted parameter); which Juno cluster ran the figure is not published, juno-r2-a72 is the other", Choices: scenario.Choices(platform.NameTitles()...)},
		},
		Policies:      pols,
		DefaultA:      string(Coherent),
		DefaultB:      string(WholeWhenFull),
		DefaultPreset: "juno-r2",
		Headline:      &scenario.Headline{Metric: MetricUpdate, Vary: ParamBuffer + "=64KiB..4MiB:x2"},
		References: []scenario.Reference{
			{Metric: MetricUpdate, Policy: string(Coherent), Value: FigureCoherentUS, Tolerance: FigureTolerance, Source: figureSource},
			{Metric: MetricUpdate, Policy: string(WholeWhenFull), Value: FigureMergedUS, Tolerance: FigureTolerance, Source: figureMergedSource},
			{Metric: MetricUpdate, Policy: string(TwoChunks), Value: FigureCachedUS, Tolerance: FigureTolerance, Source: figureSource},
			{Metric: MetricUpdate, Pair: scenario.PairRatio, Value: FigureRatio, Tolerance: FigureTolerance, Source: figureSource},
		},
	}
	return withProvenance(sp)
}
