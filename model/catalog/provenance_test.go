package catalog

import (
	"context"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/provenance"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// figures maps each published figure's id to its scenario's spec.
func figures(t *testing.T) map[string]*scenario.Spec {
	out := map[string]*scenario.Spec{}
	for _, s := range Registry().All() {
		sp := s.Spec()
		for i := range sp.References {
			id := scenario.FigureID(sp.ID, &sp.References[i])
			require.NotContains(t, out, id, "two figures with the id %s", id)
			out[id] = sp
		}
	}
	return out
}

// fittedEntry is one fitted parameter: a preset's or a scenario's.
type fittedEntry struct {
	owner string // preset name or scenario id
	entry provenance.Entry
}

func allFitted() []fittedEntry {
	var out []fittedEntry
	for _, n := range platform.Names() {
		for _, e := range platform.Provenance(n) {
			if e.Kind == provenance.Fitted {
				out = append(out, fittedEntry{n, e})
			}
		}
	}
	for _, s := range Registry().All() {
		sp := s.Spec()
		for _, c := range sp.Constants {
			if c.Kind == provenance.Fitted {
				out = append(out, fittedEntry{sp.ID, c.Entry})
			}
		}
	}
	return out
}

// A figure's kind follows the tables: every scenario classifies its
// references, each lists exactly the parameters of its default preset
// and its own constants fitted to it.
func TestReferenceKindsFollowTheTables(t *testing.T) {
	for _, s := range Registry().All() {
		sp := s.Spec()
		for i := range sp.References {
			r := &sp.References[i]
			id := scenario.FigureID(sp.ID, r)
			want := platform.FittedTo(sp.DefaultPreset, id)
			for _, c := range sp.Constants {
				if c.Kind == provenance.Fitted && c.Figure == id {
					want = append(want, c.Path)
				}
			}
			assert.Equal(t, want, r.Fitted, "%s: fitted parameters", id)
			if len(want) > 0 {
				assert.Equal(t, scenario.Calibrated, r.Kind(), id)
			} else {
				assert.Equal(t, scenario.Prediction, r.Kind(), id)
			}
		}
	}
}

// A fitted parameter names a figure that is one of its own: a preset's
// parameter one of the figures of a scenario that defaults to the preset
// (never another scenario's: MODEL.md), a scenario's constant one of the
// scenario's figures.
func TestFittedParametersNameTheirOwnFigures(t *testing.T) {
	figs := figures(t)
	fits := allFitted()
	require.NotEmpty(t, fits)
	for _, f := range fits {
		sp, ok := figs[f.entry.Figure]
		if !assert.True(t, ok, "%s %s: fitted to %q, which is no scenario's published figure", f.owner, f.entry.Path, f.entry.Figure) {
			continue
		}
		if platform.IsPath(f.entry.Path) {
			assert.Equal(t, f.owner, sp.DefaultPreset, "%s %s is fitted to %s, a figure of %s (whose preset is %s)", f.owner, f.entry.Path, f.entry.Figure, sp.ID, sp.DefaultPreset)
		} else {
			assert.Equal(t, f.owner, sp.ID, "%s is fitted to another scenario's figure %s", f.entry.Path, f.entry.Figure)
		}
	}
}

// At most one parameter is fitted to a published figure (MODEL.md), over
// every preset's table and every scenario's constants.
func TestAtMostOneFittedParameterPerFigure(t *testing.T) {
	byFig := map[string][]string{}
	for _, f := range allFitted() {
		byFig[f.entry.Figure] = append(byFig[f.entry.Figure], f.owner+" "+f.entry.Path)
	}
	var ids []string
	for id := range byFig {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		assert.Len(t, byFig[id], 1, "more than one parameter fitted to %s: %s", id, strings.Join(byFig[id], ", "))
	}
}

// Every scenario constant has provenance that holds its value, is named
// under its scenario, and names a real parameter when it is one.
func TestScenarioConstantsHaveProvenance(t *testing.T) {
	n := 0
	for _, s := range Registry().All() {
		sp := s.Spec()
		seen := map[string]bool{}
		for _, c := range sp.Constants {
			n++
			assert.True(t, strings.HasPrefix(c.Path, sp.ID+"."), "%s: constant %s is not under the scenario's id", sp.ID, c.Path)
			assert.False(t, seen[c.Path], "%s listed twice", c.Path)
			seen[c.Path] = true
			assert.NotEmpty(t, c.Text, "%s: no value (a constant named after a parameter names no parameter of %s?)", c.Path, sp.ID)
			assert.NoError(t, c.Check(c.Value))
			if d := sp.Param(strings.TrimPrefix(c.Path, sp.ID+".")); d != nil {
				assert.Equal(t, d.Default, strings.TrimSuffix(c.Text, " "+d.Unit), "%s: the constant is the parameter's default", c.Path)
			}
		}
	}
	assert.Greater(t, n, 15)
	assert.True(t, slices.ContainsFunc(allFitted(), func(f fittedEntry) bool { return f.entry.Path == "trbe-aux.fragmentation" }),
		"trbe-aux's fragmentation is fitted to its before figure")
}

// Every scenario on a board builds its machine from the preset with the
// run's hardware overrides: a slower DRAM changes what policy A reports,
// and an unknown path is refused by name.
func TestHardwareOverridesReachEveryRun(t *testing.T) {
	for _, s := range Registry().All() {
		sp := s.Spec()
		if !sp.OnBoard {
			_, err := sp.Resolve(scenario.Params{"hw.dram.latency": {Num: 1}})
			assert.ErrorContains(t, err, "hw.dram.latency: unknown parameter", "%s is on no board: it refuses overrides", sp.ID)
			continue
		}
		t.Run(sp.ID, func(t *testing.T) {
			ctx := context.Background()
			base, err := s.Run(ctx, scenario.Params{}, sp.DefaultA, nil)
			require.NoError(t, err)
			def, _ := sp.Defaults()
			b, err := platform.LookupBoard(def.Text("preset"))
			require.NoError(t, err)
			lat, _ := b.Value("dram.latency")
			slow, err := s.Run(ctx, scenario.Params{scenario.HardwarePrefix + "dram.latency": {Num: 3 * lat}}, sp.DefaultA, nil)
			require.NoError(t, err)
			assert.NotEqual(t, base.Metrics, slow.Metrics, "a DRAM three times slower changed nothing")
			_, err = s.Run(ctx, scenario.Params{"hw.dram.latnecy": {Num: 1}}, sp.DefaultA, nil)
			assert.ErrorContains(t, err, "hw.dram.latnecy: unknown hardware parameter")
		})
	}
}
