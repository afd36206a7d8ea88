package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
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
	r, err := s.Run(p, policy)
	require.NoError(t, err)
	return r
}

// Each view's legend gives every meaning its own colour, and the cell
// legend lists only the states the pair of runs shows.
func TestNoTwoLegendEntriesOfAViewShareAColour(t *testing.T) {
	for _, sc := range catalog.Registry().All() {
		spec := sc.Spec()
		a := runPolicy(t, sc, spec.DefaultA)
		for _, pol := range spec.Policies {
			b := runPolicy(t, sc, pol.ID)
			f := &Frame{A: Side{Result: a, Time: a.End}, B: Side{Result: b, Time: b.End}, Cursor: max(a.End, b.End),
				Length: max(a.End, b.End), Left: 0, W: 2400, H: 1000}
			var s Scene
			NewStage().Build(&s, f)
			if smmuOf(f) != nil {
				// The TLB windows show the state at the end (at the
				// start they are empty).
				f.A.State, f.B.State = stateAt(a, a.End), stateAt(b, b.End)
				NewStage().Build(&s, f)
				checkSMMULegend(t, &s, spec.ID+" "+pol.ID)
				continue
			}
			for _, view := range []string{"legend/swatch", "timeline/legend"} {
				seen := map[Color]int32{}
				for _, it := range find(&s, view) {
					if prev, dup := seen[it.Fill]; dup {
						t.Errorf("%s %s/%s: %s entries %d and %d share colour %d", spec.ID, spec.DefaultA, pol.ID, view, prev, it.Index, it.Fill)
					}
					seen[it.Fill] = it.Index
				}
				assert.NotEmpty(t, seen, "%s %s: no %s entries", spec.ID, pol.ID, view)
			}
			var states [scenario.NumCellStates]bool
			for _, r := range []*scenario.Result{a, b} {
				markStates(r.Timeline, &states)
			}
			for _, it := range find(&s, "legend/swatch") {
				assert.True(t, states[it.Index], "%s %s: legend shows %s, which neither run has", spec.ID, pol.ID, scenario.CellState(it.Index))
			}
		}
	}
}

// A colour means one thing: no phase meaning takes a cell state's colour
// unless it is the same thing (a device writing, a CPU reading into the
// cache, a copy, an invalidate, a clean, an uncached read, a CPU write).
func TestPhaseAndCellColoursMeanOneThing(t *testing.T) {
	same := map[Color]bool{Orange: true, Yellow: true, Green: true, Sky: true, Violet: true, Blue: true, Grey: true}
	cells := map[Color]scenario.CellState{}
	for c := scenario.CellState(1); c < scenario.NumCellStates; c++ {
		col := CellColor(c)
		if prev, dup := cells[col]; dup {
			t.Errorf("cell states %s and %s share a colour", prev, c)
		}
		cells[col] = c
	}
	for _, m := range []PhaseMeaning{meaningDevice, meaningRead, meaningWrite, meaningNCRead, meaningCopy, meaningInvalidate, meaningClean, meaningDSB, meaningCall} {
		if c, ok := cells[m.Color]; ok && !same[m.Color] {
			t.Errorf("phase %q has the colour of cell state %s", m.Label, c)
		}
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
		if prev, dup := seen[it.Fill]; dup {
			t.Errorf("%s: legend entries %d and %d share colour %d", name, prev, it.Index, it.Fill)
		}
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
