package uncertainty

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/provenance"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// fake is a scenario on juno-r2 whose figure is a formula of two assumed
// parameters, so every band can be checked by hand: policy "a" reports
// t = l2.latency + 10 x maint.issue (cycles), "b" reports t = 100 +
// nc.latency (ns), and a maint.issue past 7 cycles is refused. Runs
// counts the runs.
type fake struct{ published float64 }

func (f *fake) Spec() *scenario.Spec {
	sp := &scenario.Spec{ID: "fake", OnBoard: true, DefaultA: "a", DefaultB: "b", DefaultPreset: "juno-r2",
		Params:   []scenario.Param{{Name: "preset", Kind: scenario.KindChoice, Default: "juno-r2", Choices: scenario.Choices("juno-r2", "")}},
		Policies: []scenario.Policy{{ID: "a"}, {ID: "b"}},
		Reads:    []string{"l2.latency", "maint.issue", "nc.latency"},
		References: []scenario.Reference{
			{Metric: "t", Policy: "a", Value: f.published, Tolerance: 0.1},
			{Metric: "t", Policy: "b", Value: 100, Tolerance: 0.1, Fitted: []string{"x"}},
		}}
	return sp
}

func (f *fake) Run(_ context.Context, p scenario.Params, policy string, _ *scenario.Pacer) (*scenario.Result, error) {
	full, err := f.Spec().Resolve(p)
	if err != nil {
		return nil, err
	}
	b, err := platform.BoardWith("juno-r2", full.Hardware())
	if err != nil {
		return nil, err
	}
	l2, _ := b.Value("l2.latency")
	issue, _ := b.Value("maint.issue")
	nc, _ := b.Value("nc.latency")
	if issue > 7 {
		return nil, fmt.Errorf("maint.issue: %g cycles is too slow for this fake", issue)
	}
	v := l2 + 10*issue
	if policy == "b" {
		v = 100 + nc
	}
	return &scenario.Result{Policy: policy, Metrics: []scenario.Metric{{Name: "t", Value: v}}}, nil
}

func TestBandsOfAFormula(t *testing.T) {
	f := &fake{published: 200}
	def, err := f.Spec().Defaults()
	require.NoError(t, err)
	res, err := Run(context.Background(), f, def, "a", "b", Options{Workers: 2})
	require.NoError(t, err)

	var alone []string
	for _, k := range res.Plan.Alone {
		alone = append(alone, k.Path)
	}
	assert.Equal(t, []string{"l2.latency", "maint.issue", "nc.latency"}, alone, "the declared reads, each alone")
	assert.NotEmpty(t, res.Plan.Together)
	for _, k := range res.Plan.Together {
		assert.NotContains(t, alone, k.Path)
	}
	assert.LessOrEqual(t, res.Runs, MaxRuns)

	// juno-r2: l2.latency 15 [12, 21], maint.issue 4 [1, 8] (8 refused),
	// nc.latency 0 [0, 20].
	require.Len(t, res.Bands, 2)
	a, b := res.Bands[0], res.Bands[1]
	assert.Equal(t, 55.0, a.Value)
	assert.Equal(t, 12.0+10*1, a.Low, "l2.latency and maint.issue both low, combined")
	assert.Equal(t, 21.0+10*4, a.High, "l2.latency high; maint.issue's high end was refused")
	assert.Equal(t, "maint.issue", a.Dominant, "maint.issue spreads t by 30, l2.latency by 9")
	assert.True(t, a.Outside, "the published 200 lies outside [22, 61]: a prediction's finding")
	assert.Equal(t, [2]float64{100, 120}, [2]float64{b.Low, b.High})
	assert.Equal(t, "nc.latency", b.Dominant)
	assert.False(t, b.Outside, "a calibrated figure is not judged by its band")

	byPath := map[string]Effect{}
	for _, e := range res.Effects {
		byPath[e.Path] = e
	}
	assert.Contains(t, byPath["maint.issue"].HighErr, "too slow for this fake", "the refused end is reported")
	assert.Nil(t, byPath["maint.issue"].High)
	assert.True(t, byPath[Rest].None, "nothing else moves the formula")
	assert.False(t, byPath["l2.latency"].None)
}

// A published figure inside its band is no finding; off the published
// setting figures are not judged at all.
func TestBandFindingNeedsThePublishedSetting(t *testing.T) {
	f := &fake{published: 50}
	def, _ := f.Spec().Defaults()
	res, err := Run(context.Background(), f, def, "a", "b", Options{Workers: 1})
	require.NoError(t, err)
	assert.False(t, res.Bands[0].Outside)
	f.published = 200
	res, err = Run(context.Background(), f, scenario.Params{"preset": def["preset"], "hw.l2.latency": {Num: 15}}, "a", "b", Options{Workers: 1})
	require.NoError(t, err)
	assert.False(t, res.Bands[0].Outside, "with hardware overridden the published figure does not apply")
}

// Every shipped scenario's default pair fits the budget, and its plan
// varies alone only what it declares.
func TestPlansFitTheBudget(t *testing.T) {
	for _, s := range scenarios() {
		sp := s.Spec()
		def, err := sp.Defaults()
		require.NoError(t, err)
		p, err := NewPlan(sp, def, sp.DefaultA, sp.DefaultB)
		require.NoError(t, err, sp.ID)
		assert.LessOrEqual(t, p.Runs(), MaxRuns, sp.ID)
		assert.NotEmpty(t, p.Alone, sp.ID)
		assert.NotEmpty(t, p.Targets, sp.ID)
		for _, k := range p.Alone {
			assert.True(t, k.Low < k.High && k.Value >= k.Low && k.Value <= k.High, "%s %s: %g in [%g, %g]", sp.ID, k.Path, k.Value, k.Low, k.High)
		}
	}
	_, err := NewPlan(&scenario.Spec{ID: "x"}, scenario.Params{}, "a", "b")
	assert.ErrorContains(t, err, "runs on no hardware preset")
}

// The varied parameters are the assumed ones of the preset's table.
func TestPlanVariesTheAssumedParameters(t *testing.T) {
	f := &fake{}
	def, _ := f.Spec().Defaults()
	p, err := NewPlan(f.Spec(), def, "a", "b")
	require.NoError(t, err)
	n := 0
	for _, e := range platform.Provenance("juno-r2") {
		if e.Kind == provenance.Assumed && e.Low < e.High {
			n++
		}
	}
	assert.Equal(t, n, len(p.Alone)+len(p.Together))
	assert.Equal(t, 1+2*3+2+2*2, p.Runs())
	assert.False(t, math.IsNaN(p.Alone[0].Value))
}
