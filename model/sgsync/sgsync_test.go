package sgsync

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// params returns the defaults with kv (name, text pairs) applied.
func params(t testing.TB, kv ...string) scenario.Params {
	t.Helper()
	spec := New().Spec()
	p, err := spec.Defaults()
	require.NoError(t, err)
	for i := 0; i+1 < len(kv); i += 2 {
		require.NoError(t, spec.Set(p, kv[i], kv[i+1]))
	}
	return p
}

func runP(t testing.TB, policy string, kv ...string) *scenario.Result {
	t.Helper()
	res, err := New().Run(context.Background(), params(t, kv...), policy, nil)
	require.NoError(t, err, "%s %v", policy, kv)
	return res
}

func metric(t testing.TB, r *scenario.Result, name string) float64 {
	t.Helper()
	v, ok := r.Metric(name)
	require.True(t, ok, "%s: no metric %s", r.Policy, name)
	return v
}

// small is a quick setting: 16 entries of 4 KiB, 3 iterations.
var small = []string{"total", "64KiB", "iterations", "3"}

func with(base []string, kv ...string) []string { return append(append([]string(nil), base...), kv...) }

// The published figure, from a model run at the seed's setting.
func TestFigure(t *testing.T) {
	spec := New().Spec()
	a, b := runP(t, spec.DefaultA), runP(t, spec.DefaultB)
	for _, ref := range spec.References {
		got, ok := ref.Pair.Of(metric(t, a, ref.Metric), metric(t, b, ref.Metric))
		t.Logf("%s: A %.2f us, B %.2f us, change %.2f %% (published %.2f %%)", ref.Metric,
			metric(t, a, ref.Metric), metric(t, b, ref.Metric), got, ref.Value)
		assert.True(t, ok, "%s: change %.2f %%, want %.2f within %.0f points", ref.Metric, got, ref.Value, ref.Tolerance)
		assert.True(t, ref.Within(got), "%s: change %.2f %%, want %.2f within %.0f points", ref.Metric, got, ref.Value, ref.Tolerance)
	}
	for _, c := range []struct {
		r              *scenario.Result
		dc, dsb, lines float64
	}{{a, 163840, 2560, 163840}, {b, 163840, 1, 163840}} {
		{
			got := metric(t, c.r, "dc_ops")
			assert.Equal(t, c.dc, got, "%s: dc_ops %v, want %v", c.r.Policy, got, c.dc)
		}
		{
			got := metric(t, c.r, "dsb_count")
			assert.Equal(t, c.dsb, got, "%s: dsb_count %v, want %v", c.r.Policy, got, c.dsb)
		}
		for _, chk := range c.r.Checks {
			assert.EqualValues(t, 0, chk.Value, "%s: %s = %v", c.r.Policy, chk.Name, chk.Value)
		}
	}
}

func TestOpCountsPerCallAndDirection(t *testing.T) {
	for _, c := range []struct {
		dir                        string
		unmapOps, unmapDSBA, unmap float64
	}{
		{"from-device", 1024, 16, 1},
		{"bidirectional", 1024, 16, 1},
		{"to-device", 0, 0, 0},
	} {
		a := runP(t, PolicyPerEntry, with(small, "direction", c.dir)...)
		b := runP(t, PolicyBatched, with(small, "direction", c.dir)...)
		for _, r := range []*scenario.Result{a, b} {
			{
				got := metric(t, r, "map_dc_ops")
				assert.EqualValues(t, 1024, got, "%s %s: map_dc_ops %v, want 1024 (every line cleaned, any direction)", c.dir, r.Policy, got)
			}
			{
				got := metric(t, r, "unmap_dc_ops")
				assert.Equal(t, c.unmapOps, got, "%s %s: unmap_dc_ops %v, want %v", c.dir, r.Policy, got, c.unmapOps)
			}
			{
				got := metric(t, r, "dc_cvac")
				assert.EqualValues(t, 3*1024, got, "%s %s: dc_cvac %v over 3 maps, want %d", c.dir, r.Policy, got, 3*1024)
			}
		}
		{
			got := metric(t, a, "map_dsb_count")
			assert.EqualValues(t, 16, got, "%s: per-entry map DSBs %v, want 16", c.dir, got)
		}
		{
			got := metric(t, b, "map_dsb_count")
			assert.EqualValues(t, 1, got, "%s: batched map DSBs %v, want 1", c.dir, got)
		}
		{
			got := metric(t, a, "unmap_dsb_count")
			assert.Equal(t, c.unmapDSBA, got, "%s: per-entry unmap DSBs %v, want %v", c.dir, got, c.unmapDSBA)
		}
		{
			got := metric(t, b, "unmap_dsb_count")
			assert.Equal(t, c.unmap, got, "%s: batched unmap DSBs %v, want %v", c.dir, got, c.unmap)
		}
	}
}

// Entries that start or end mid-line get DC CIVAC on the partial line, at
// each end; whole lines get DC IVAC; the clean covers every line touched.
func TestPartialLinesAtBothEnds(t *testing.T) {
	for _, c := range []struct {
		name                  string
		kv                    []string
		lines, civac, entries float64
	}{
		{"aligned", nil, 64, 0, 16},
		{"start mid-line", []string{"entry-offset", "32", "entry", "4064", "total", "65024"}, 64, 1, 16},
		{"end mid-line", []string{"entry", "4064", "total", "65024"}, 64, 1, 16},
		{"both ends", []string{"entry-offset", "32"}, 65, 2, 16},
	} {
		r := runP(t, PolicyBatched, with(with(small, "iterations", "1"), c.kv...)...)
		{
			got := metric(t, r, "entries")
			require.Equal(t, c.entries, got, "%s: %v entries, want %v", c.name, got, c.entries)
		}
		{
			got := metric(t, r, "map_dc_ops")
			assert.Equal(t, c.lines*c.entries, got, "%s: map cleans %v lines, want %v", c.name, got, c.lines*c.entries)
		}
		{
			got := metric(t, r, "dc_civac")
			assert.Equal(t, c.civac*c.entries, got, "%s: %v DC CIVAC, want %v", c.name, got, c.civac*c.entries)
		}
		{
			got := metric(t, r, "dc_ivac")
			assert.Equal(t, (c.lines-c.civac)*c.entries, got, "%s: %v DC IVAC, want %v", c.name, got, (c.lines-c.civac)*c.entries)
		}
		for _, chk := range r.Checks {
			assert.EqualValues(t, 0, chk.Value, "%s: %s = %v", c.name, chk.Name, chk.Value)
		}
	}
}

// A coherent device needs no maintenance and no barrier, but its calls
// still walk the list and run the kernel's per-entry checks: map and
// unmap take time, in proportion to the entries.
func TestCoherentDeviceDoesNoMaintenance(t *testing.T) {
	for _, pol := range []string{PolicyPerEntry, PolicyBatched} {
		r := runP(t, pol, with(small, "path", "coherent", "cpu", "writes")...)
		for _, name := range []string{"dc_ops", "dsb_count", "dc_cvac", "dc_ivac", "dc_civac"} {
			{
				got := metric(t, r, name)
				assert.EqualValues(t, 0, got, "%s: %s = %v, want 0", pol, name, got)
			}
		}
		for _, chk := range r.Checks {
			assert.EqualValues(t, 0, chk.Value, "%s: %s = %v", pol, chk.Name, chk.Value)
		}
		var per [2]float64 // per entry, at 16 and 64 entries
		for i, total := range []string{"64KiB", "256KiB"} {
			r := runP(t, pol, "path", "coherent", "total", total, "iterations", "3")
			entries := metric(t, r, "entries")
			for _, call := range []string{"map_sg_us", "unmap_sg_us"} {
				got := metric(t, r, call)
				assert.Positive(t, got, "%s %s entries %v: the kernel's per-entry work costs time", pol, call, entries)
			}
			per[i] = metric(t, r, "map_sg_us") / entries
		}
		assert.InEpsilon(t, per[0], per[1], 1e-9, "%s: map_sg_us per entry %v at 16 entries, %v at 64", pol, per[0], per[1])
	}
}

func TestSWIOTLBKeepsPerEntryWaits(t *testing.T) {
	a := runP(t, PolicyPerEntry, with(small, "path", "swiotlb")...)
	b := runP(t, PolicyBatched, with(small, "path", "swiotlb")...)
	for _, r := range []*scenario.Result{a, b} {
		{
			got := metric(t, r, "dsb_count")
			assert.EqualValues(t, 16, got, "%s: %v DSB per call on SWIOTLB, want 16 (one per entry)", r.Policy, got)
		}
		for _, chk := range r.Checks {
			assert.EqualValues(t, 0, chk.Value, "%s: %s = %v", r.Policy, chk.Name, chk.Value)
		}
	}
	for _, m := range []string{"map_sg_us", "unmap_sg_us"} {
		assert.Equal(t, metric(t, b, m), metric(t, a, m), "%s: per-entry %v us vs batched %v us; SWIOTLB waits per entry under both", m, metric(t, a, m), metric(t, b, m))
	}
	// The IOMMU path batches like dma-direct (its own costs are the same on both sides).
	ia := runP(t, PolicyPerEntry, with(small, "path", "iommu")...)
	ib := runP(t, PolicyBatched, with(small, "path", "iommu")...)
	assert.EqualValues(t, 1, metric(t, ib, "dsb_count"), "iommu: batched %v DSB, map %v us vs per-entry %v us", metric(t, ib, "dsb_count"), metric(t, ib, "map_sg_us"), metric(t, ia, "map_sg_us"))
	assert.Less(t, metric(t, ib, "map_sg_us"), metric(t, ia, "map_sg_us"), "iommu: batched %v DSB, map %v us vs per-entry %v us", metric(t, ib, "dsb_count"), metric(t, ib, "map_sg_us"), metric(t, ia, "map_sg_us"))
	d := runP(t, PolicyBatched, small...)
	assert.Greater(t, metric(t, ib, "map_sg_us"), metric(t, d, "map_sg_us"), "iommu map %v us not above direct %v us (IOVA and PTE costs)", metric(t, ib, "map_sg_us"), metric(t, d, "map_sg_us"))
}

func hazardWith(t *testing.T, r *scenario.Result, check, cause string) {
	t.Helper()
	v, _ := r.Metric(check)
	assert.False(t, v <= 0, "%s: %s = %v, want > 0", r.Policy, check, v)
	found := false
	for _, h := range r.Hazards {
		if strings.Contains(h.Cause, cause) {
			found = true
			assert.EqualValues(t, 0, h.Grid, "hazard at %#x not located in the physical grid", h.Addr)
		}
	}
	assert.True(t, found, "%s: no hazard mentioning %q in %v", r.Policy, cause, r.Hazards)
}

func TestBugTogglesShowHazards(t *testing.T) {
	// No invalidate: lines the CPU read last time are read again, stale.
	hazardWith(t, runP(t, PolicySkipUnmap, small...), "stale_bytes", "CPU")
	hazardWith(t, runP(t, PolicySkipUnmap, with(small, "mapping", "persistent")...), "stale_bytes", "CPU")
	// No clean: the device reads DRAM older than the CPU's dirty lines...
	hazardWith(t, runP(t, PolicySkipDevice, with(small, "cpu", "writes", "direction", "to-device")...), "device_stale_bytes", "device read DRAM")
	// ...or, when the device writes, dirty lines go back over its data.
	hazardWith(t, runP(t, PolicySkipDevice, with(small, "cpu", "writes")...), "lost_bytes", "written back over")
}

// Correct policies report zero stale and lost bytes on every setting.
func TestCorrectPoliciesAreCleanEverywhere(t *testing.T) {
	for _, path := range []string{"direct", "iommu", "swiotlb", "coherent"} {
		for _, dir := range []string{"from-device", "to-device", "bidirectional"} {
			for _, cpu := range []string{"reads", "writes", "none"} {
				for _, extra := range [][]string{nil, {"entry-offset", "40", "entry-mix", "mixed"}, {"scatter", "false", "entry-offset", "24", "entry", "1000"}, {"mapping", "persistent"}} {
					kv := with(with(small, "path", path, "direction", dir, "cpu", cpu, "iterations", "2", "total", "32KiB"), extra...)
					c, err := parse(New().Spec(), params(t, kv...))
					require.NoError(t, err)
					for _, pol := range []string{PolicyPerEntry, PolicyBatched} {
						r, err := runConfig(c, pol) // the chart is tested elsewhere
						require.NoError(t, err, "%s %v", pol, kv)
						for _, chk := range r.Checks {
							assert.EqualValues(t, 0, chk.Value, "%s %v: %s = %v", pol, kv, chk.Name, chk.Value)
						}
					}
				}
			}
		}
	}
}

func TestDeterministic(t *testing.T) {
	kv := with(small, "entry-mix", "mixed", "entry-offset", "100")
	for _, pol := range []string{PolicyPerEntry, PolicySkipUnmap} {
		a, b := runP(t, pol, kv...), runP(t, pol, kv...)
		assert.Equal(t, b, a, "%s: two runs differ", pol)
	}
	a, b := runP(t, PolicyBatched, with(kv, "seed", "7")...), runP(t, PolicyBatched, kv...)
	if reflect.DeepEqual(a.Timeline.Grids, b.Timeline.Grids) && reflect.DeepEqual(a.Metrics, b.Metrics) {
		t.Log("seeds 1 and 7 gave the same layout (allowed, but unexpected)")
	}
}

func TestBadParamsNameTheField(t *testing.T) {
	s := New()
	bad := func(field string, p scenario.Params, policy string) {
		t.Helper()
		_, err := s.Run(t.Context(), p, policy, nil)
		require.Error(t, err, "want an error naming %q, got %v", field, err)
		assert.Contains(t, err.Error(), field, "want an error naming %q, got %v", field, err)
	}
	p := params(t)
	p["entry"] = scenario.Value{Num: 100}
	bad("entry", p, PolicyBatched)
	p = params(t)
	p["path"] = scenario.Value{Text: "pcie"}
	bad("path", p, PolicyBatched)
	p = params(t)
	p["bogus"] = scenario.Value{Num: 1}
	bad("bogus", p, PolicyBatched)
	bad("entry", params(t, "path", "swiotlb", "entry", "1MiB"), PolicyBatched)
	bad("entry", params(t, "total", "64MiB", "entry", "512"), PolicyBatched)
	bad("policy", params(t), "fastest")
	for _, d := range s.Spec().Params {
		switch d.Name {
		case "scenario", "a", "b", "t", "speed", "align", "panel", "embed", "zoom":
			assert.Fail(t, fmt.Sprintf("parameter %s uses a reserved URL key", d.Name))
		}
	}
}

// The extrapolated figures equal a full simulation.
func TestExtrapolationMatchesFullSimulation(t *testing.T) {
	spec := New().Spec()
	for _, kv := range [][]string{
		{"total", "256KiB", "iterations", "12"},
		{"total", "128KiB", "iterations", "9", "cpu", "writes", "entry-offset", "8"},
		{"total", "128KiB", "iterations", "8", "path", "swiotlb", "direction", "bidirectional"},
		{"total", "128KiB", "iterations", "8", "mapping", "persistent", "path", "iommu"},
	} {
		for _, pol := range []string{PolicyPerEntry, PolicyBatched} {
			c, err := parse(spec, params(t, kv...))
			require.NoError(t, err)
			outs := [2]*scenario.Result{}
			sims := [2]int{}
			for i, full := range []bool{false, true} {
				c.fullSim = full
				r, err := setup(c, policyOf(pol), true)
				require.NoError(t, err)
				out, err := r.simulate()
				require.NoError(t, err)
				outs[i], sims[i] = r.result(out), out.simulated
			}
			assert.Less(t, sims[0], c.iterations, "%v %s: simulated %d (extrapolated) and %d (full) of %d", kv, pol, sims[0], sims[1], c.iterations)
			assert.Equal(t, c.iterations, sims[1], "%v %s: simulated %d (extrapolated) and %d (full) of %d", kv, pol, sims[0], sims[1], c.iterations)
			for _, m := range outs[1].Metrics {
				got, _ := outs[0].Metric(m.Name)
				exact := m.Group == "time" || m.Group == "check" || strings.HasPrefix(m.Name, "dc_") ||
					strings.HasSuffix(m.Name, "_dc_ops") || strings.Contains(m.Name, "dsb") || strings.HasPrefix(m.Name, "dma_")
				switch {
				case m.Name == "simulated_iterations" || m.Name == "iteration_us":
				case exact && math.Abs(got-m.Value) > 1e-9*math.Abs(m.Value):
					assert.Fail(t, fmt.Sprintf("%v %s: %s extrapolated %v, full %v", kv, pol, m.Name, got, m.Value))
				case math.Abs(got-m.Value) > 0.01*math.Abs(m.Value)+1:
					assert.Fail(t, fmt.Sprintf("%v %s: %s extrapolated %v, full %v (more than 1%% apart)", kv, pol, m.Name, got, m.Value))
				}
			}
			for _, m := range outs[1].Checks {
				{
					got, _ := outs[0].Metric(m.Name)
					assert.EqualValues(t, m.Value, got, "%v %s: check %s extrapolated %v, full %v", kv, pol, m.Name, got, m.Value)
				}
			}
		}
	}
}

// The recorded first iteration already shows the bug toggles' hazards in
// the physical-memory grid (the CPU had the buffer cached beforehand).
func TestTimelineShowsHazards(t *testing.T) {
	// count is how many cell updates of grid 0 set state st.
	count := func(r *scenario.Result, st timeline.CellState) int {
		n := 0
		for _, e := range r.Timeline.Events {
			if e.Kind == timeline.EvCells && e.Obj == 0 && timeline.CellState(e.C&0xff) == st {
				n += int(e.B)
			}
		}
		return n
	}
	{
		n := count(runP(t, PolicySkipUnmap, small...), timeline.CellStale)
		assert.NotEqualValues(t, 0, n, "skip-unmap: no stale cells in the first iteration's timeline")
	}
	{
		n := count(runP(t, PolicySkipDevice, with(small, "cpu", "writes")...), timeline.CellLost)
		assert.NotEqualValues(t, 0, n, "skip-sync-for-device: no lost cells in the first iteration's timeline")
	}
	ok := runP(t, PolicyBatched, with(small, "cpu", "writes")...)
	assert.EqualValues(t, 0, count(ok, timeline.CellStale)+count(ok, timeline.CellLost), "batched-dsb: stale or lost cells")
	assert.NotEqualValues(t, 0, count(ok, timeline.CellCleaned), "batched-dsb: no cleaned or invalidated cells recorded")
	assert.NotEqualValues(t, 0, count(ok, timeline.CellInvalidated), "batched-dsb: no cleaned or invalidated cells recorded")
}

// The timeline stays bounded at the seed's size: one iteration in detail.
func TestTimelineBounded(t *testing.T) {
	for _, pol := range []string{PolicyPerEntry, PolicyBatched} {
		tl := runP(t, pol).Timeline
		assert.False(t, len(tl.Events) > 200000, "%s: %d events, %d phases, %d keyframes, %d cells", pol, len(tl.Events), len(tl.Phases), len(tl.Keyframes), tl.Grids[0].Cells)
		assert.False(t, len(tl.Phases) > 20000, "%s: %d events, %d phases, %d keyframes, %d cells", pol, len(tl.Events), len(tl.Phases), len(tl.Keyframes), tl.Grids[0].Cells)
		assert.False(t, len(tl.Keyframes) > timeline.MaxKeyframes, "%s: %d events, %d phases, %d keyframes, %d cells", pol, len(tl.Events), len(tl.Phases), len(tl.Keyframes), tl.Grids[0].Cells)
		assert.False(t, tl.Grids[0].Cells > maxCells, "%s: %d events, %d phases, %d keyframes, %d cells", pol, len(tl.Events), len(tl.Phases), len(tl.Keyframes), tl.Grids[0].Cells)
	}
}

// Random valid settings (small lists) never panic and the correct policy
// reports zero stale and lost bytes; random text values give errors.
func TestRandomParams(t *testing.T) {
	spec := New().Spec()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 30; i++ {
		p := params(t, "iterations", strconv.Itoa(1+rng.IntN(3)))
		for _, d := range spec.Params {
			switch {
			case d.Kind == scenario.KindChoice:
				_ = spec.Set(p, d.Name, d.Choices[rng.IntN(len(d.Choices))].Value)
			case d.Kind == scenario.KindBool:
				_ = spec.Set(p, d.Name, strconv.FormatBool(rng.IntN(2) == 0))
			case d.Name == "total":
				_ = spec.Set(p, d.Name, strconv.Itoa(4096+rng.IntN(256<<10)))
			case d.Name == "entry":
				_ = spec.Set(p, d.Name, strconv.Itoa(512+rng.IntN(1<<20-512)))
			case d.Name == "entry-offset":
				_ = spec.Set(p, d.Name, strconv.Itoa(rng.IntN(4096)))
			}
		}
		res, err := New().Run(t.Context(), p, PolicyBatched, nil)
		if err != nil {
			assert.Contains(t, err.Error(), "entry", "%v: %v", p, err)
			continue
		}
		for _, chk := range res.Checks {
			assert.EqualValues(t, 0, chk.Value, "%v: %s = %v", p, chk.Name, chk.Value)
		}
		q := params(t)
		q[spec.Params[rng.IntN(len(spec.Params))].Name] = scenario.Value{Text: "%zz", Num: math.NaN()}
		{
			_, err := New().Run(t.Context(), q, PolicyBatched, nil)
			require.Error(t, err, "%v accepted", q)
		}
	}
}
