package uncertainty

import (
	"context"
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/etr"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sweep"
)

// scenarios are the shipped scenarios whose figures can carry bands.
func scenarios() []scenario.Scenario {
	var out []scenario.Scenario
	for _, s := range catalog.Registry().All() {
		if sp := s.Spec(); sp.OnBoard && (len(sp.References) > 0 || sp.Headline != nil) {
			out = append(out, s)
		}
	}
	return out
}

// What a scenario declares it reads is what moves its published figures:
// every other assumed parameter, all at their low ends or all at their
// high ends, moves no figure of the default pair by more than 1 %. (An end
// the scenario refuses is logged and skipped.)
func TestTheRestMovesNoFigure(t *testing.T) {
	for _, s := range scenarios() {
		sp := s.Spec()
		if len(sp.References) == 0 {
			continue
		}
		t.Run(sp.ID, func(t *testing.T) {
			def, err := sp.Defaults()
			require.NoError(t, err)
			p, err := NewPlan(sp, def, sp.DefaultA, sp.DefaultB)
			require.NoError(t, err)
			req := sweep.Request{Scenario: s, Base: def, A: sp.DefaultA, B: sp.DefaultB}
			sets := []scenario.Params{{}, at(math.Inf(-1), p.Together...), at(math.Inf(1), p.Together...)}
			pts, errs, err := sweep.RunSets(context.Background(), req, sets, runtime.GOMAXPROCS(0), nil)
			require.NoError(t, err)
			require.NoError(t, errs[0])
			nominal := values(p.Targets, sp, &pts[0])
			for i, end := range []string{"low", "high"} {
				if errs[1+i] != nil {
					t.Logf("the rest at its %s end did not run: %v", end, errs[1+i])
					continue
				}
				got := values(p.Targets, sp, &pts[1+i])
				for j, tg := range p.Targets {
					assert.InEpsilon(t, nominal[j], got[j], 0.01, "%s %s: the %d other assumed parameters at their %s ends moved it from %g to %g: declare what moves it in Spec.Reads",
						tg.Metric, tg.Side, len(p.Together), end, nominal[j], got[j])
				}
			}
		})
	}
}

// BenchmarkUncertaintyETR is the uncertainty run of etr's default pair
// on every core (make bench reports it).
func BenchmarkUncertaintyETR(b *testing.B) {
	s := etr.New()
	sp := s.Spec()
	def, err := sp.Defaults()
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		res, err := Run(context.Background(), s, def, sp.DefaultA, sp.DefaultB, Options{Workers: runtime.GOMAXPROCS(0)})
		if err != nil || res.Runs > MaxRuns {
			b.Fatal(err, res.Runs)
		}
		b.ReportMetric(float64(res.Runs), "pair-runs")
	}
}

// A scenario constant the run takes as an override is varied like a
// preset's parameter (sg-sync's per-entry DMA-API cost), with its
// override key; one it cannot set is reported as fixed.
func TestPlanVariesOverridableConstants(t *testing.T) {
	s, err := catalog.Registry().Get("sg-sync")
	require.NoError(t, err)
	sp := s.Spec()
	def, err := sp.Defaults()
	require.NoError(t, err)
	p, err := NewPlan(sp, def, sp.DefaultA, sp.DefaultB)
	require.NoError(t, err)
	var k *Knob
	for i := range p.Alone {
		if p.Alone[i].Path == "sg-sync.kernel.map" {
			k = &p.Alone[i]
		}
	}
	require.NotNil(t, k, "the per-entry map cost is varied alone (sg-sync reads it): alone %v, fixed %v", p.Alone, p.Fixed)
	assert.Equal(t, scenario.HardwarePrefix+"sg-sync.kernel.map", k.key)
	assert.Equal(t, [3]float64{52, 26, 156}, [3]float64{k.Value, k.Low, k.High})
	assert.NotContains(t, p.Fixed, "sg-sync.kernel.map")
	assert.Contains(t, p.Fixed, "sg-sync.device.burst", "a constant no run can set")
}
