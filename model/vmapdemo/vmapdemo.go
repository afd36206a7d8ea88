// Package vmapdemo is the translation scenario `vmap`: perf's AUX buffer
// allocated with rb_alloc_aux, vmapped into the kernel's vmalloc area,
// and written sequentially by a trace unit (TRBE) through its one-entry L1
// TLB, the core's shared L2 TLB and the table walker. Side A vmaps every
// page with a 4 KiB PTE; side B uses large mappings (64 KiB contiguous
// runs and 2 MiB blocks wherever the chunks rb_alloc_aux got are
// physically contiguous and aligned). It exists to show the page-mapping
// and TLB views; its figures are the model's translation costs on the
// preset, with the trace data's own write time set by the rate parameter.
package vmapdemo

import (
	"context"

	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// Policy ids.
const (
	PolicyPTE   = "pte-4k"
	PolicyLarge = "large"
)

// Parameter names.
const (
	ParamBuffer      = "buffer"
	ParamFragment    = "fragment"
	ParamPreferLarge = "prefer_large"
	ParamWatermark   = "watermark"
	ParamRate        = "rate"
	ParamPreset      = "preset"
)

// Seed is the run's RNG seed (the buddy allocator's fragmentation).
const Seed = 1

// Scenario is the vmap scenario. The zero value is ready to use.
type Scenario struct{}

// New returns the scenario.
func New() *Scenario { return &Scenario{} }

// Spec describes the scenario.
func (*Scenario) Spec() *scenario.Spec {
	var presets []scenario.Choice
	for _, p := range platform.Presets() {
		presets = append(presets, scenario.Choice{Value: p.Name, Label: p.Title})
	}
	return &scenario.Spec{
		ID:         "vmap",
		Lesson:     lesson,
		LessonNote: lessonNote,
		Title:      "AUX buffer mappings: 4 KiB PTEs against large vmap mappings, written by a trace unit",
		Explanation: "perf allocates a trace unit's AUX buffer with rb_alloc_aux: with PREFER_LARGE it asks the buddy " +
			"allocator for chunks of up to half the buffer and takes smaller ones where physical memory is fragmented. " +
			"The buffer is then vmapped. With 4 KiB PTEs every page is its own TLB entry, so a trace unit writing the " +
			"buffer sequentially misses its one-entry TLB and the shared L2 TLB at every page and walks the tables each time. " +
			"With large mappings, physically contiguous aligned runs get 64 KiB contiguous or 2 MiB block entries: " +
			"one walk covers up to 512 pages. The page-mapping view shows each mapping's size over the physical frames, " +
			"the TLB view the entries filling and a walk level by level.",
		Params: []scenario.Param{
			{Name: ParamBuffer, Label: "AUX buffer", Kind: scenario.KindBytes, Unit: "B",
				Help: "nr_pages x 4 KiB of the AUX area", Default: "8MiB", Min: 64 << 10, Max: 1 << 30},
			{Name: ParamFragment, Label: "Fragmentation", Kind: scenario.KindFloat,
				Help:    "share of 4 MiB blocks of free memory with one pinned page (a long-running system)",
				Default: "0.3", Min: 0, Max: 1},
			{Name: ParamPreferLarge, Label: "PREFER_LARGE", Kind: scenario.KindBool,
				Help: "PERF_PMU_CAP_AUX_PREFER_LARGE: rb_alloc_aux tries high-order chunks", Default: "true"},
			{Name: ParamWatermark, Label: "aux_watermark", Kind: scenario.KindBytes, Unit: "B",
				Help:    "attr.aux_watermark; rb_alloc_aux's largest chunk is get_order(watermark); 0 takes half the buffer",
				Default: "0", Min: 0, Max: 1 << 30},
			{Name: ParamRate, Label: "Trace rate", Kind: scenario.KindFloat, Unit: "GB/s",
				Help:    "rate the trace unit produces data at (a workload parameter; translation time comes on top)",
				Default: "4", Min: 0.1, Max: 100},
			{Name: ParamPreset, Label: "Platform", Kind: scenario.KindChoice, Default: "dimensity-9500",
				Help: "hardware preset: TLB sizes, entry sizes, walk caches, cache and DRAM latencies", Choices: presets},
		},
		Policies: []scenario.Policy{
			{ID: PolicyPTE, Title: "vmap, 4 KiB PTEs", Help: "every page its own PTE and TLB entry"},
			{ID: PolicyLarge, Title: "vmap, large mappings", Help: "64 KiB contiguous and 2 MiB block entries for contiguous aligned runs"},
		},
		DefaultA:      PolicyPTE,
		DefaultB:      PolicyLarge,
		DefaultPreset: "dimensity-9500",
		OnBoard:       true,
	}
}

// Run simulates one policy. It counts one unit of work per page it
// allocates and maps and one per translation of the trace unit's writes,
// and gives way every scenario.PaceQuantum units.
func (s *Scenario) Run(ctx context.Context, p scenario.Params, policy string, pace *scenario.Pacer) (*scenario.Result, error) {
	pace = pace.Bind(ctx)
	spec := s.Spec()
	if _, err := spec.Policy(policy); err != nil {
		return nil, err
	}
	full, err := spec.Resolve(p)
	if err != nil {
		return nil, err
	}
	c := config{
		bytes:       uint64(full.Int(ParamBuffer)) &^ (4<<10 - 1),
		fragment:    full.Float(ParamFragment),
		preferLarge: full.Bool(ParamPreferLarge),
		watermark:   uint64(full.Int(ParamWatermark)),
		rate:        full.Float(ParamRate),
		preset:      full.Text(ParamPreset),
		hw:          full.Hardware(),
		large:       policy == PolicyLarge,
	}
	res, err := run(c, pace)
	if err != nil {
		return nil, err
	}
	res.Scenario, res.Policy, res.Preset, res.Seed = spec.ID, policy, c.preset, Seed
	return res, nil
}
