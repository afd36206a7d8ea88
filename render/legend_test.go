package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// smallParams keeps each scenario's runs quick for the legend tests.
var smallParams = map[string]map[string]string{
	"etr":     {"buffer": "256KiB"},
	"sg-sync": {"total": "256KiB", "iterations": "2"},
}

func runPolicy(t *testing.T, s scenario.Scenario, policy string) *scenario.Result {
	t.Helper()
	p, err := s.Spec().Defaults()
	require.NoError(t, err)
	for k, v := range smallParams[s.Spec().ID] {
		require.NoError(t, s.Spec().Set(p, k, v))
	}
	r, err := s.Run(t.Context(), p, policy, nil)
	require.NoError(t, err)
	return r
}

// legendRuns are the scenario runs the legend tests cover: every scenario
// with smallParams, and sg-sync's IOMMU path (a page-mapping band under the
// grids, with its own legend).
func legendRuns() []struct {
	name  string
	sc    scenario.Scenario
	extra map[string]string
} {
	var out []struct {
		name  string
		sc    scenario.Scenario
		extra map[string]string
	}
	for _, sc := range catalog.Registry().All() {
		out = append(out, struct {
			name  string
			sc    scenario.Scenario
			extra map[string]string
		}{sc.Spec().ID, sc, nil})
		if sc.Spec().ID == "sg-sync" {
			out = append(out, struct {
				name  string
				sc    scenario.Scenario
				extra map[string]string
			}{"sg-sync path=iommu", sc, map[string]string{"path": "iommu"}})
		}
	}
	return out
}

func runPolicyWith(t *testing.T, s scenario.Scenario, policy string, extra map[string]string) *scenario.Result {
	t.Helper()
	p, err := s.Spec().Defaults()
	require.NoError(t, err)
	for k, v := range smallParams[s.Spec().ID] {
		require.NoError(t, s.Spec().Set(p, k, v))
	}
	for k, v := range extra {
		require.NoError(t, s.Spec().Set(p, k, v))
	}
	r, err := s.Run(t.Context(), p, policy, nil)
	require.NoError(t, err)
	return r
}

// legendColour is what tells a legend entry apart: its fill, or its
// outline for an outline-only swatch.
func legendColour(it Item) Color {
	if it.Fill != None {
		return it.Fill
	}
	return it.Stroke
}

// translationEntriesOf lists, independently of the stage, the translation
// legend entries the runs show (leaf sizes of mappings and filled TLB
// entries, chunks, fills, owners, evictions), by legend index.
func translationEntriesOf(rs ...*scenario.Result) map[int32]bool {
	out := map[int32]bool{}
	slot := func(b uint64) int32 {
		switch {
		case b >= timeline.Leaf1G:
			return 3
		case b >= timeline.Leaf2M:
			return 2
		case b >= timeline.Leaf64K:
			return 1
		}
		return 0
	}
	for _, r := range rs {
		tr := r.Timeline.Translation
		if tr == nil {
			continue
		}
		for _, m := range tr.Mappings {
			out[slot(m.Leaf)] = true
		}
		if len(tr.Chunks) > 0 && len(tr.Mappings) > 0 {
			out[4] = true
		}
		if piecesOfFirstBuffer(tr) > 16 {
			out[9] = true // drawn in VA bins
		}
		for _, ev := range tr.TLBEvents {
			if ev.Kind != timeline.TLBFill {
				continue
			}
			out[slot(ev.Entry.Bytes)] = true
			out[5] = true
			if ev.Entry.Owner <= 1 {
				out[6] = true
			} else {
				out[7] = true
			}
			if ev.Evicted {
				out[8] = true
			}
		}
	}
	return out
}

// piecesOfFirstBuffer counts the physical pieces of the first buffer's
// mappings: its allocator chunks when all are recorded, else its mappings.
func piecesOfFirstBuffer(tr *timeline.Translation) int {
	if len(tr.Mappings) == 0 {
		return 0
	}
	chunks, maps := map[int]bool{}, 0
	for _, m := range tr.Mappings {
		if m.Buffer == tr.Mappings[0].Buffer {
			maps++
			chunks[m.Chunk] = true
		}
	}
	if len(tr.Chunks) > 0 && tr.DroppedChunks == 0 {
		return len(chunks)
	}
	return maps
}

// Each view's legend gives every meaning its own colour, and lists only
// what the pair of runs shows: the cell legend the states, the translation
// legend the leaf sizes, chunks, fills, owners and evictions, a
// page-mapping band's legend its mappings' sizes.
func TestNoTwoLegendEntriesOfAViewShareAColour(t *testing.T) {
	for _, run := range legendRuns() {
		sc := run.sc
		spec := sc.Spec()
		a := runPolicyWith(t, sc, spec.DefaultA, run.extra)
		for _, pol := range spec.Policies {
			b := runPolicyWith(t, sc, pol.ID, run.extra)
			f := &Frame{A: Side{Result: a, Time: a.End}, B: Side{Result: b, Time: b.End}, Cursor: max(a.End, b.End),
				Length: max(a.End, b.End), Left: 0, W: 2400, H: 1000}
			var s Scene
			NewStage().Build(&s, f)
			if smmuOf(f) != nil {
				// The TLB windows show the state at the end (at the
				// start they are empty).
				f.A.State, f.B.State = stateAt(a, a.End), stateAt(b, b.End)
				NewStage().Build(&s, f)
				checkSMMULegend(t, &s, run.name+" "+pol.ID)
				continue
			}
			stage := len(find(&s, "legend/swatch")) + len(find(&s, "legend/tl-swatch"))
			assert.NotZero(t, stage, "%s %s: no stage legend", run.name, pol.ID)
			if hasCounterChart(f) { // the counter chart stands in for the timeline
				assert.NotEmpty(t, find(&s, "countchart/key"), "%s %s: no counter chart key", run.name, pol.ID)
			} else {
				assert.NotEmpty(t, find(&s, "timeline/legend"), "%s %s: no timeline legend", run.name, pol.ID)
			}
			for _, view := range []string{"legend/swatch", "legend/tl-swatch", "timeline/legend", "a/pm-legend", "b/pm-legend"} {
				seen := map[Color]int32{}
				for _, it := range find(&s, view) {
					c := legendColour(it)
					prev, dup := seen[c]
					assert.False(t, dup, "%s %s/%s: %s entries %d and %d share colour %d", run.name, spec.DefaultA, pol.ID, view, prev, it.Index, c)
					seen[c] = it.Index
				}
			}
			var states [timeline.NumCellStates]bool
			for _, r := range []*scenario.Result{a, b} {
				markStates(r.Timeline, &states)
			}
			for _, it := range find(&s, "legend/swatch") {
				if assert.Less(t, int(it.Index), len(states)) {
					assert.True(t, states[it.Index], "%s %s: legend shows %s, which neither run has", run.name, pol.ID, timeline.CellState(it.Index))
				}
			}
			want := translationEntriesOf(a, b)
			got := map[int32]bool{}
			for _, it := range find(&s, "legend/tl-swatch") {
				got[it.Index] = true
			}
			if len(got) > 0 {
				assert.Equal(t, want, got, "%s %s: the translation legend lists what the runs show", run.name, pol.ID)
			}
			for side, r := range []*scenario.Result{a, b} {
				id := [2]string{"a/pm-legend", "b/pm-legend"}[side]
				band := map[int32]bool{}
				for _, it := range find(&s, id) {
					band[it.Index] = true
				}
				if len(band) == 0 {
					continue
				}
				sizes := map[int32]bool{}
				for k := range translationEntriesOf(&scenario.Result{Timeline: &timeline.Timeline{Translation: &timeline.Translation{Mappings: r.Timeline.Translation.Mappings}}}) {
					if k < 4 {
						sizes[k] = true
					}
				}
				if piecesOfFirstBuffer(r.Timeline.Translation) > 16 {
					sizes[4] = true // the VA bins' swatch, after the sizes
				}
				assert.Equal(t, sizes, band, "%s %s side %d: the band's legend lists its mappings' sizes", run.name, pol.ID, side)
			}
		}
	}
}

// A colour means one thing: no phase meaning takes a cell state's colour
// unless it is the same thing (a device writing, a CPU reading into the
// cache, a copy, an invalidate, a clean, an uncached read, a CPU write).
func TestPhaseAndCellColoursMeanOneThing(t *testing.T) {
	same := map[Color]bool{Orange: true, Yellow: true, Green: true, Sky: true, Violet: true, Blue: true, Grey: true}
	cells := map[Color]timeline.CellState{}
	for c := timeline.CellState(1); c < timeline.NumCellStates; c++ {
		col := CellColor(c)
		prev, dup := cells[col]
		assert.False(t, dup, "cell states %s and %s share a colour", prev, c)
		cells[col] = c
	}
	for _, m := range []PhaseMeaning{meaningDevice, meaningRead, meaningWrite, meaningNCRead, meaningCopy, meaningInvalidate, meaningClean, meaningDSB, meaningCall} {
		c, ok := cells[m.Color]
		assert.False(t, ok && !same[m.Color], "phase %q has the colour of cell state %s", m.Label, c)
	}
	assert.NotEqual(t, sideBar, Orange, "side B must not be a state colour")
	for _, c := range []Color{Red, Purple, Orange, Yellow, Sky, Violet, Green, Blue, Grey, White, Steel} {
		assert.NotEqual(t, c, pointerColour(0))
		assert.NotEqual(t, c, pointerColour(1))
	}
}

// checkSMMULegend applies the same rule to the SMMU view, whose legend keys
// the TBU TLB windows' entries: one colour per entry kind, and only kinds
// one of the two windows draws. Its charts tell A from B by marks, not by
// meaning colours.
func checkSMMULegend(t *testing.T, s *Scene, name string) {
	t.Helper()
	drawn := map[Color]bool{}
	for _, id := range []string{"a/smmu-tlb", "b/smmu-tlb"} {
		for _, it := range find(s, id) {
			drawn[it.Fill] = true
		}
	}
	seen := map[Color]int32{}
	for _, it := range find(s, "legend/swatch") {
		prev, dup := seen[it.Fill]
		assert.False(t, dup, "%s: legend entries %d and %d share colour %d", name, prev, it.Index, it.Fill)
		seen[it.Fill] = it.Index
		assert.True(t, drawn[it.Fill], "%s: legend entry %d (colour %d) is in neither TLB window", name, it.Index, it.Fill)
	}
	assert.NotEmpty(t, seen, "%s: no legend entries", name)
	for _, id := range []string{"smmu-hist/bar", "smmu-hist/key", "smmu-tput/key", "smmu-tput/line", "smmu-hist/avg"} {
		for _, it := range find(s, id) {
			for _, c := range []Color{it.Fill, it.Stroke} {
				meaning := c >= Orange && c <= Steel && c != Accent
				assert.False(t, meaning, "%s: %s uses colour %d; A and B are marks, not meaning colours", name, id, c)
			}
		}
	}
}
