// Package demo is the visualizer shell's own small scenario: a device writes
// a buffer by DMA, then the CPU copies it out. It exists so the player, the
// views, the URL codec and the CLI can be tested before (and independently
// of) the real scenarios.
//
// Its cost model is deliberately tiny and NOT calibrated: a fixed cost per
// line for each kind of access, taken from the rough figures in MODEL.md
// (Normal-NC loads at DRAM latency, cached copies with streaming fills, about
// 1 ns to issue a DC op and a DRAM round trip for the DSB). The ETR scenario
// carries the calibrated model; do not quote the demo's numbers.
//
// Correctness is modelled, not flagged: memory and every cache line carry a
// version per 64-byte line, the device bumps memory versions as it writes,
// and a CPU read is stale exactly when the version it got (from its cache)
// is older than the one in memory.
package demo

import (
	"context"
	"fmt"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
)

// Policy ids.
const (
	PolicyNoncacheable    = "noncacheable"
	PolicyCacheableSync   = "cacheable-sync"
	PolicyCacheableNoSync = "cacheable-no-sync"
)

// LineBytes is the cache line size the demo uses.
const LineBytes = 64

// BufferBase is the physical address of the demo buffer.
const BufferBase = 0x8000_0000

// Scenario is the demo scenario. The zero value is ready to use.
type Scenario struct{}

// New returns the demo scenario.
func New() *Scenario { return &Scenario{} }

// Spec describes the demo.
func (*Scenario) Spec() *scenario.Spec {
	return &scenario.Spec{
		ID:         "demo",
		Lesson:     lesson,
		LessonNote: lessonNote,
		Title:      "Demo: device writes a buffer, the CPU copies it out",
		Explanation: "A non-coherent device writes a DMA buffer, then the CPU copies it out. " +
			"Through a Normal-NC mapping every load goes to DRAM: correct but slow. Through a cacheable " +
			"mapping the copy is fast, but lines the CPU cached before the device wrote must be invalidated " +
			"first (dma_sync_single_for_cpu); skip that and the copy reads stale data. " +
			"This is the shell's demo with an uncalibrated cost model.",
		Params: []scenario.Param{
			{Name: "buffer", Label: "Buffer size", Kind: scenario.KindBytes, Unit: "B",
				Help: "size of the DMA buffer", Default: "16KiB", Min: 4 << 10, Max: 4 << 20},
			{Name: "preset", Label: "Platform", Kind: scenario.KindChoice, Default: "juno-r2",
				Help: "platform whose rough costs the demo uses: it has hand-set, uncalibrated costs for these two only (the demo is no board model; etr runs the same copy on every board)",
				Choices: []scenario.Choice{
					{Value: "juno-r2", Label: "Juno r2 (Cortex-A53-like, slow Normal-NC reads)"},
					{Value: "neoverse-n1", Label: "Neoverse N1 (server core)"},
				}},
		},
		Policies: []scenario.Policy{
			{ID: PolicyNoncacheable, Title: "Normal-NC buffer", Help: "dma_alloc_coherent: every CPU load is its own DRAM read"},
			{ID: PolicyCacheableSync, Title: "cacheable + sync", Help: "cacheable buffer, dma_sync_single_for_cpu (DC IVAC per line + DSB) before the copy"},
			{ID: PolicyCacheableNoSync, Title: "cacheable, no sync (bug)", Help: "cacheable buffer without dma_sync_single_for_cpu: lines cached earlier are read stale", Bug: true},
		},
		DefaultA:      PolicyNoncacheable,
		DefaultB:      PolicyCacheableSync,
		DefaultPreset: "juno-r2",
		Headline:      &scenario.Headline{Metric: "readout_us", Vary: "buffer=4KiB..1MiB:x4"},
	}
}

// costs is one preset's rough per-line cost model.
type costs struct {
	devLine  sim.Time // the device writes one line (DMA burst)
	ncLine   sim.Time // the CPU copies one line read through Normal-NC
	hitLine  sim.Time // the CPU copies one line that hits in its cache
	missLine sim.Time // the CPU copies one line that misses (streaming fill)
	dcIssue  sim.Time // issue one DC IVAC
	dsb      sim.Time // DSB SY drain after the DC ops
	sets     int      // CPU data cache geometry
	ways     int
}

func presetCosts(id string) (costs, error) {
	switch id {
	case "juno-r2":
		// 515 MB/s Normal-NC and about 1.7 GB/s cached, MODEL.md §1; A53 L1D 32 KiB 4-way.
		return costs{devLine: 10 * sim.Nanosecond, ncLine: 124 * sim.Nanosecond, hitLine: 4 * sim.Nanosecond,
			missLine: 30 * sim.Nanosecond, dcIssue: 1 * sim.Nanosecond, dsb: 120 * sim.Nanosecond, sets: 128, ways: 4}, nil
	case "neoverse-n1":
		// DRAM about 82 ns (Graviton2), L1D 64 KiB 4-way.
		return costs{devLine: 5 * sim.Nanosecond, ncLine: 82 * sim.Nanosecond, hitLine: 1 * sim.Nanosecond,
			missLine: 8 * sim.Nanosecond, dcIssue: 400 * sim.Picosecond, dsb: 85 * sim.Nanosecond, sets: 256, ways: 4}, nil
	}
	return costs{}, fmt.Errorf("preset: %q is not one of juno-r2, neoverse-n1", id)
}

// Run simulates one policy. The run is small and done in one piece: its
// pacer hears before it and at its end.
func (s *Scenario) Run(ctx context.Context, p scenario.Params, policy string, pace *scenario.Pacer) (*scenario.Result, error) {
	pace = pace.Bind(ctx)
	pace.Plan(1)
	if err := pace.Point(); err != nil {
		return nil, err
	}
	spec := s.Spec()
	if _, err := spec.Policy(policy); err != nil {
		return nil, err
	}
	full, err := spec.Resolve(p)
	if err != nil {
		return nil, err
	}
	c, err := presetCosts(full.Text("preset"))
	if err != nil {
		return nil, err
	}
	r := newRun(c, full.Int("buffer"), policy)
	r.simulate()
	res := r.result()
	res.Scenario = spec.ID
	res.Policy = policy
	res.Preset = full.Text("preset")
	_ = pace.Work(1) // the whole run: one unit, so the end shows done
	return res, pace.Point()
}
