package auxmap

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
)

func metric(t *testing.T, res *scenario.Result, name string) float64 {
	t.Helper()
	v, ok := res.Metric(name)
	require.True(t, ok, name)
	return v
}

func runP(t *testing.T, s *Scenario, policy string, kv ...string) *scenario.Result {
	t.Helper()
	p := scenario.Params{}
	for i := 0; i+1 < len(kv); i += 2 {
		p[kv[i]] = scenario.Value{Text: kv[i+1]}
	}
	res, err := s.Run(t.Context(), p, policy, nil)
	require.NoError(t, err)
	return res
}

// The published figure at the defaults: l2d_tlb_refill per iteration
// before within 15 %, after within 25 %, reduction at least 99 %.
func TestTRBEFigure(t *testing.T) {
	s := NewTRBE()
	before := metric(t, runP(t, s, Order0), MetricL2Refill)
	after := metric(t, runP(t, s, PreferLarge), MetricL2Refill)
	t.Logf("l2d_tlb_refill before %.1f (published %.1f), after %.1f (published %.1f)", before, FigureBefore, after, FigureAfter)
	assert.InEpsilon(t, FigureBefore, before, TolBefore)
	assert.InEpsilon(t, FigureAfter, after, TolAfter)
	assert.LessOrEqual(t, (after-before)/before*100, -99.0)
	for _, r := range s.Spec().References {
		switch r.Policy {
		case Order0:
			assert.True(t, r.Within(before))
		case PreferLarge:
			assert.True(t, r.Within(after))
		default:
			v, ok := r.Pair.Of(before, after)
			require.True(t, ok)
			assert.True(t, r.Within(v), "change %.2f %%", v)
		}
	}
}

// A hand-countable buffer: 64 KiB (16 pages) of order-0 pages from
// unfragmented memory (consecutive, so four coalesced groups) and one
// iteration: TRBE walks four times, each walk one l2d_tlb_refill and no
// dtlb_walk; the loop's one page is the core's only walk and L1 refill.
func TestAttributionOnAHandCountableBuffer(t *testing.T) {
	s := NewTRBE()
	c, err := s.parse(scenario.Params{ParamAUX: {Text: "64KiB"}, ParamFrag: {Text: "0"}, ParamIterations: {Text: "1"}})
	require.NoError(t, err)
	r, err := newRun(c, Order0, nil)
	require.NoError(t, err)
	// By hand: each aligned four-page VA group needs one entry for the
	// pages consecutive with the walked page's run, one for each other page.
	want := 0.0
	pages := r.buf.Pages
	for i := 0; i < len(pages); {
		va := r.area.VA + uint64(i)*4096
		end := min(len(pages), i+int(4-(va>>12)&3))
		for j := i; j < end; {
			k := j + 1
			for k < end && pages[k] == pages[j]+uint64(k-j)*4096 {
				k++
			}
			want++
			j = k
		}
		i = end
	}
	require.NoError(t, r.simulate(fullIterations))
	res := r.result()
	trace := metric(t, res, MetricTraceWalks)
	assert.Equal(t, want, trace, "one walk per run of consecutive pages inside each group of four")
	assert.Equal(t, want, metric(t, res, "l2_entries_per_pass"))
	assert.Less(t, trace, 16.0, "consecutive pages coalesce")
	assert.Equal(t, 1.0, metric(t, res, MetricDTLBWalk), "the loop's page; trace-unit walks are never dtlb_walk")
	assert.Equal(t, 1.0, metric(t, res, MetricL1Refill), "the core's L1 DTLB refilled once")
	assert.Equal(t, trace+1, metric(t, res, MetricL2Refill), "every L2 allocation is l2d_tlb_refill, whoever walked")
	assert.Equal(t, 16.0, metric(t, res, "trbe_l1_tlb_refill"), "the one-entry L1 TLB refills per page")

	large := runP(t, s, PreferLarge, ParamAUX, "4MiB", ParamFrag, "0", ParamIterations, "2")
	assert.Equal(t, 2.0, metric(t, large, MetricTraceWalks), "two 2 MiB blocks, two walks per session")
	assert.Equal(t, 1.0, metric(t, large, MetricDTLBWalk), "the session's end flushes the TLBs: the loop's page walks again")
	assert.Equal(t, 3.0, metric(t, large, MetricL2Refill))
}

// Contiguity without large vmap. For TRBE prefer-large-4k-vmap needs, as
// the model's structure predicts, no fewer walks than a quarter of the
// pages (an L2 TLB entry covers at most four 4 KiB pages: the coalescing
// maximum) and at most two more than that per chunk boundary (a group a
// boundary cuts needs up to three entries) plus the groups at the
// buffer's two ends; l2d_tlb_refill adds the core's own walks. That is
// fewer refills than order0's partly consecutive pages, and far more than
// prefer-large's one per 2 MiB block. For SPE, whose own walks are a
// small part of l2d_tlb_refill, contiguity removes at most SPE's walks:
// dd's refills are unchanged and the total moves by less than 1 %.
func TestContiguityAloneCoalescesAtMostFourPages(t *testing.T) {
	s := NewTRBE()
	o := metric(t, runP(t, s, Order0, ParamAUX, "256MiB", ParamIterations, "2"), MetricL2Refill)
	res := runP(t, s, PreferLarge4K, ParamAUX, "256MiB", ParamIterations, "2")
	c := metric(t, res, MetricL2Refill)
	l := metric(t, runP(t, s, PreferLarge, ParamAUX, "256MiB", ParamIterations, "2"), MetricL2Refill)
	pages := float64(256 << 20 >> 12)
	chunks, core := metric(t, res, "aux_chunks"), metric(t, res, MetricDTLBWalk)
	walks := metric(t, res, MetricTraceWalks)
	assert.GreaterOrEqual(t, walks, pages/4, "no entry covers more than four pages")
	assert.LessOrEqual(t, walks, pages/4+1+2*(chunks-1), "%v chunks: at most two more entries per chunk boundary", chunks)
	assert.Equal(t, walks+core, c, "l2d_tlb_refill is the trace unit's walks and the core's")
	assert.Less(t, c, o, "contiguity coalesces more pages than order0's partly consecutive ones")
	assert.Greater(t, c, 100*l)

	spe := NewSPE()
	sor := runP(t, spe, Order0, ParamIterations, "2")
	scr := runP(t, spe, PreferLarge4K, ParamIterations, "2")
	so, sc := metric(t, sor, MetricL2Refill), metric(t, scr, MetricL2Refill)
	assert.Equal(t, metric(t, sor, MetricDTLBWalk), metric(t, scr, MetricDTLBWalk), "SPE: dd's own walks do not change")
	assert.LessOrEqual(t, so-sc, metric(t, sor, MetricTraceWalks), "SPE: contiguity removes at most SPE's own walks")
	assert.GreaterOrEqual(t, so-sc, 0.0)
	assert.InEpsilon(t, so, sc, 0.01, "SPE: contiguity alone changed nothing (order0 %.0f, 4k-vmap %.0f)", so, sc)
}

// prefer-large falls back toward order0 as fragmentation grows: its
// refills never fall as fragmentation rises, and at full fragmentation
// they are far above the unfragmented one-per-block level.
func TestPreferLargeFallsBackWithFragmentation(t *testing.T) {
	s := NewTRBE()
	prev := 0.0
	var first float64
	for i, f := range []string{"0", "0.5", "0.9", "0.97", "1"} {
		v := metric(t, runP(t, s, PreferLarge, ParamAUX, "1GiB", ParamIterations, "1", ParamFrag, f), MetricL2Refill)
		assert.GreaterOrEqual(t, v, prev, "fragmentation %s", f)
		prev = v
		if i == 0 {
			first = v
		}
	}
	assert.Greater(t, prev, 4*first)
}

// Extrapolated iterations equal a full simulation of every iteration.
func TestExtrapolationMatchesFullSimulation(t *testing.T) {
	for _, s := range []*Scenario{NewTRBE(), NewSPE()} {
		c, err := s.parse(scenario.Params{ParamAUX: {Text: "16MiB"}, ParamWorkingSet: {Text: "64KiB"}, ParamIterations: {Text: "6"}})
		require.NoError(t, err)
		a, err := newRun(c, Order0, nil)
		require.NoError(t, err)
		require.NoError(t, a.simulate(fullIterations))
		b, err := newRun(c, Order0, nil)
		require.NoError(t, err)
		require.NoError(t, b.simulate(6))
		ta, tb := a.total(), b.total()
		assert.InEpsilon(t, float64(tb.l2Refill), float64(ta.l2Refill), 0.01, s.Spec().ID)
		assert.InEpsilon(t, float64(tb.traceWalks), float64(ta.traceWalks), 0.01, s.Spec().ID)
		assert.InDelta(t, float64(tb.dtlbWalk), float64(ta.dtlbWalk), 0.01*float64(tb.dtlbWalk)+1, s.Spec().ID)
	}
}

// Random settings never panic and valid ones never fail; bad text names
// the key and the range.
func TestRandomParameters(t *testing.T) {
	rng := sim.NewRNG(7)
	for _, s := range []*Scenario{NewTRBE(), NewSPE()} {
		spec := s.Spec()
		for i := 0; i < 6; i++ {
			p := scenario.Params{
				ParamAUX:        {Text: fmt.Sprintf("%dKiB", 64<<rng.Intn(6))},
				ParamFrag:       {Text: fmt.Sprintf("%.2f", float64(rng.Intn(101))/100)},
				ParamIterations: {Text: fmt.Sprint(1 + rng.Intn(4))},
				ParamOverwrite:  {Text: fmt.Sprint(rng.Intn(2) == 1)},
				ParamBurst:      {Text: fmt.Sprintf("%d", 64<<rng.Intn(7))},
				ParamWorkingSet: {Text: fmt.Sprintf("%dKiB", 64<<rng.Intn(4))},
				ParamPreset:     {Text: []string{"neoverse-n1", "juno-r2", "dimensity-9500"}[rng.Intn(3)]},
			}
			pol := spec.Policies[rng.Intn(len(spec.Policies))].ID
			_, err := s.Run(t.Context(), p, pol, nil)
			require.NoError(t, err, "%v %s", p, pol)
		}
		for key, bad := range map[string]string{ParamAUX: "3KiB", ParamFrag: "2", ParamIterations: "0", ParamBurst: "100", ParamPreset: "pdp11"} {
			_, err := s.Run(t.Context(), scenario.Params{key: {Text: bad}}, Order0, nil)
			require.Error(t, err)
			assert.Contains(t, err.Error(), key)
			assert.Contains(t, err.Error(), "allowed")
		}
		_, err := s.Run(t.Context(), scenario.Params{ParamAUX: {Text: "96KiB"}}, Order0, nil)
		assert.ErrorContains(t, err, "aux: 96KiB is not a power-of-two number")
	}
}

// TestWorkIsBounded: a setting whose estimated time is past the bound is
// refused with the parameter that weighs most and the largest value that
// fits; the defaults, and the same settings with that value, run.
func TestWorkIsBounded(t *testing.T) {
	for _, tc := range []struct {
		s       *Scenario
		heavy   scenario.Params
		key     string
		allowed string
		fits    scenario.Params
	}{
		{NewTRBE(), scenario.Params{ParamAUX: {Text: "64KiB"}, ParamBurst: {Text: "64"}, ParamWorkingSet: {Text: "64MiB"}},
			ParamWorkingSet, "at most 2MiB", scenario.Params{ParamAUX: {Text: "64KiB"}, ParamBurst: {Text: "64"}, ParamWorkingSet: {Text: "2MiB"}}},
		{NewTRBE(), scenario.Params{ParamAUX: {Text: "4GiB"}},
			ParamAUX, "at most 2GiB", scenario.Params{ParamAUX: {Text: "4GiB"}, ParamIterations: {Text: "1"}}},
		{NewSPE(), scenario.Params{ParamWorkingSet: {Text: "1GiB"}},
			ParamWorkingSet, "at most 512MiB", scenario.Params{ParamWorkingSet: {Text: "512MiB"}}},
	} {
		_, err := tc.s.parse(tc.heavy)
		require.Error(t, err, "%s %v", tc.s.Spec().ID, tc.heavy)
		assert.Contains(t, err.Error(), tc.key+": ")
		assert.Contains(t, err.Error(), tc.allowed)
		assert.Contains(t, err.Error(), "allowed at most 1.7 s")
		c, err := tc.s.parse(tc.fits)
		require.NoError(t, err, "%s %v", tc.s.Spec().ID, tc.fits)
		assert.LessOrEqual(t, c.seconds(), maxRunSeconds)
		d, err := tc.s.parse(scenario.Params{})
		require.NoError(t, err)
		assert.Less(t, d.seconds(), 0.6*maxRunSeconds, "the default is well inside the bound")
	}
}
