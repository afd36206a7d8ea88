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

// The published figure at the defaults. The before value is calibrated
// (the fragmentation is fitted to it: within its tolerance by
// construction); the after value is a prediction, checked here only for
// what it must be whatever the figure: a walk per 2 MiB block (the
// published 1 GiB buffer is 512 blocks) plus the core's own walks, and a
// reduction of at least 99 %.
func TestTRBEFigure(t *testing.T) {
	s := NewTRBE()
	before := metric(t, runP(t, s, Order0), MetricL2Refill)
	res := runP(t, s, PreferLarge)
	after := metric(t, res, MetricL2Refill)
	t.Logf("l2d_tlb_refill before %.1f (published %.1f, calibrated), after %.1f (published %.1f, predicted)", before, FigureBefore, after, FigureAfter)
	assert.InEpsilon(t, FigureBefore, before, TolBefore)
	assert.Equal(t, 512.0, metric(t, res, "map_2m_blocks"))
	assert.Equal(t, 512.0, metric(t, res, MetricTraceWalks), "one walk per block")
	assert.Equal(t, 512+metric(t, res, MetricDTLBWalk)+metric(t, res, MetricITLBWalk), after, "and the branch test's own walks")
	assert.LessOrEqual(t, (after-before)/before*100, -99.0)
	for _, r := range s.Spec().References {
		if r.Policy == Order0 {
			assert.True(t, r.Within(before))
		}
	}
}

// A hand-countable buffer: 64 KiB (16 pages) of order-0 pages from
// unfragmented memory (consecutive, so four coalesced groups) and one
// iteration: TRBE walks four times, each walk one l2d_tlb_refill and no
// dtlb_walk; a branch test of one code page and one data page is the
// core's only walks: one itlb_walk, one dtlb_walk, one L1 DTLB refill.
func TestAttributionOnAHandCountableBuffer(t *testing.T) {
	s := NewTRBE()
	tiny := []string{ParamCode, "4KiB", ParamWorkingSet, "4KiB"}
	c, err := s.parse(scenario.Params{ParamAUX: {Text: "64KiB"}, ParamFrag: {Text: "0"}, ParamIterations: {Text: "1"},
		ParamCode: {Text: "4KiB"}, ParamWorkingSet: {Text: "4KiB"}})
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
	assert.Equal(t, 1.0, metric(t, res, MetricDTLBWalk), "the data page; trace-unit walks are never dtlb_walk")
	assert.Equal(t, 1.0, metric(t, res, MetricL1Refill), "the core's L1 DTLB refilled once")
	assert.Equal(t, 1.0, metric(t, res, MetricITLBWalk), "the code page, walked once")
	assert.Equal(t, 1.0, metric(t, res, MetricL1IRefill))
	assert.Equal(t, trace+2, metric(t, res, MetricL2Refill), "every L2 allocation is l2d_tlb_refill, whoever walked, fetches too")
	assert.Equal(t, 16.0, metric(t, res, "trbe_l1_tlb_refill"), "the one-entry L1 TLB refills per page")

	large := runP(t, s, PreferLarge, append([]string{ParamAUX, "4MiB", ParamFrag, "0", ParamIterations, "2"}, tiny...)...)
	assert.Equal(t, 2.0, metric(t, large, MetricTraceWalks), "two 2 MiB blocks, two walks per session")
	assert.Equal(t, 1.0, metric(t, large, MetricDTLBWalk), "the session's end flushes the TLBs: the data page walks again")
	assert.Equal(t, 1.0, metric(t, large, MetricITLBWalk), "and the code page")
	assert.Equal(t, 4.0, metric(t, large, MetricL2Refill))
}

// Contiguity without large vmap. For TRBE prefer-large-4k-vmap needs, as
// the model's structure predicts, no fewer walks than a quarter of the
// pages (an L2 TLB entry covers at most four 4 KiB pages: the coalescing
// maximum) and at most two more than that per chunk boundary (a group a
// boundary cuts needs up to three entries) plus the groups at the
// buffer's two ends; l2d_tlb_refill adds the core's own walks. That is
// fewer refills than order0's partly consecutive pages, and far more
// walks than prefer-large's one per 2 MiB block. For SPE, contiguity
// removes at most SPE's own walks (dd's are unchanged): on this
// coalescing L2 TLB SPE's walks, nearly all of l2d_tlb_refill now that
// dd reuses one buffer, fall to between a quarter and all of them.
func TestContiguityAloneCoalescesAtMostFourPages(t *testing.T) {
	s := NewTRBE()
	o := metric(t, runP(t, s, Order0, ParamAUX, "256MiB", ParamIterations, "2"), MetricL2Refill)
	res := runP(t, s, PreferLarge4K, ParamAUX, "256MiB", ParamIterations, "2")
	c := metric(t, res, MetricL2Refill)
	large := runP(t, s, PreferLarge, ParamAUX, "256MiB", ParamIterations, "2")
	pages := float64(256 << 20 >> 12)
	chunks, core := metric(t, res, "aux_chunks"), metric(t, res, MetricDTLBWalk)+metric(t, res, MetricITLBWalk)
	walks := metric(t, res, MetricTraceWalks)
	assert.GreaterOrEqual(t, walks, pages/4, "no entry covers more than four pages")
	assert.LessOrEqual(t, walks, pages/4+1+2*(chunks-1), "%v chunks: at most two more entries per chunk boundary", chunks)
	assert.Equal(t, walks+core, c, "l2d_tlb_refill is the trace unit's walks and the core's")
	assert.Less(t, c, o, "contiguity coalesces more pages than order0's partly consecutive ones")
	assert.Greater(t, walks, 100*metric(t, large, MetricTraceWalks))

	spe := NewSPE()
	sor := runP(t, spe, Order0, ParamIterations, "2")
	scr := runP(t, spe, PreferLarge4K, ParamIterations, "2")
	so, sc := metric(t, sor, MetricL2Refill), metric(t, scr, MetricL2Refill)
	ddWalks := metric(t, sor, MetricDTLBWalk) + metric(t, sor, MetricITLBWalk)
	assert.Equal(t, ddWalks, metric(t, scr, MetricDTLBWalk)+metric(t, scr, MetricITLBWalk), "SPE: dd's own walks do not change")
	assert.LessOrEqual(t, so-sc, metric(t, sor, MetricTraceWalks), "SPE: contiguity removes at most SPE's own walks")
	written := metric(t, scr, "spe_translations") // a 4 KiB burst per translation: one per page written
	assert.GreaterOrEqual(t, metric(t, scr, MetricTraceWalks), written/4, "SPE: at most four pages per entry")
	assert.Less(t, sc, so, "SPE: on a coalescing L2 TLB contiguity cuts SPE's walks")
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
	for _, tc := range []struct {
		s *Scenario
		p scenario.Params
	}{
		{NewTRBE(), scenario.Params{ParamAUX: {Text: "16MiB"}, ParamWorkingSet: {Text: "64KiB"}, ParamIterations: {Text: "6"}}},
		{NewSPE(), scenario.Params{ParamAUX: {Text: "16MiB"}, ParamCount: {Text: "20000"}, ParamIterations: {Text: "6"}}},
	} {
		s := tc.s
		c, err := s.parse(tc.p)
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
				ParamShape:      {Text: fmt.Sprint([]float64{0.125, 0.5, 1, 2, 8}[rng.Intn(5)])},
				ParamIterations: {Text: fmt.Sprint(1 + rng.Intn(4))},
				ParamOverwrite:  {Text: fmt.Sprint(rng.Intn(2) == 1)},
				ParamBurst:      {Text: fmt.Sprintf("%d", 64<<rng.Intn(7))},
				ParamCode:       {Text: fmt.Sprintf("%dKiB", 4<<rng.Intn(6))},
				ParamPreset:     {Text: []string{"neoverse-n1", "juno-r2", "dimensity-9500", "ls2088a"}[rng.Intn(4)]},
			}
			if s.unit == TRBE {
				p[ParamWorkingSet] = scenario.Value{Text: fmt.Sprintf("%dKiB", 4<<rng.Intn(6))}
			} else {
				p[ParamBS] = scenario.Value{Text: fmt.Sprintf("%d", 512<<rng.Intn(8))}
				p[ParamCount] = scenario.Value{Text: fmt.Sprint(1 + rng.Intn(50000))}
			}
			pol := spec.Policies[rng.Intn(len(spec.Policies))].ID
			_, err := s.Run(t.Context(), p, pol, nil)
			require.NoError(t, err, "%v %s", p, pol)
		}
		for key, bad := range map[string]string{ParamAUX: "3KiB", ParamFrag: "2", ParamShape: "0", ParamIterations: "0", ParamBurst: "100", ParamPreset: "pdp11"} {
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
		{NewTRBE(), scenario.Params{ParamCode: {Text: "64MiB"}},
			ParamCode, "at most 2MiB", scenario.Params{ParamCode: {Text: "2MiB"}}},
		{NewTRBE(), scenario.Params{ParamAUX: {Text: "2GiB"}},
			ParamAUX, "at most 1GiB", scenario.Params{ParamAUX: {Text: "2GiB"}, ParamIterations: {Text: "1"}}},
		{NewSPE(), scenario.Params{ParamBS: {Text: "64MiB"}},
			ParamBS, "at most 1MiB", scenario.Params{ParamBS: {Text: "1MiB"}}},
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

// The free memory's shape is an assumption beside the fitted
// fragmentation: freeShares puts frag of free memory below the largest
// order, each order ratio times the one below it, and the before figure
// depends on that ratio and on the preset's memory size (mem.bytes, an
// assumed value), not on the fragmentation alone.
func TestBeforeFigureRestsOnTheAssumedFreeMemory(t *testing.T) {
	sh := freeShares(10, 0.3, 2)
	assert.InDelta(t, 0.7, sh[10], 1e-12)
	sum := 0.0
	for k := range 10 {
		sum += sh[k]
		if k > 0 {
			assert.InDelta(t, 2*sh[k-1], sh[k], 1e-12, "order %d", k)
		}
	}
	assert.InDelta(t, 0.3, sum, 1e-12)
	for _, v := range freeShares(10, 0.3, 1)[:10] {
		assert.InDelta(t, 0.03, v, 1e-12, "ratio 1: even")
	}

	s := NewTRBE()
	before := func(ratio string, memBytes uint64) float64 {
		c, err := s.parse(scenario.Params{ParamShape: {Text: ratio}, ParamIterations: {Text: "1"}})
		require.NoError(t, err)
		if memBytes != 0 {
			c.hw.MemBytes = memBytes
		}
		r, err := newRun(c, Order0, nil)
		require.NoError(t, err)
		require.NoError(t, r.simulate(1))
		return metric(t, r.result(), MetricL2Refill)
	}
	low, mid, high := before("0.5", 0), before("1", 0), before("2", 0)
	assert.Greater(t, low, 1.2*mid, "more small free memory at order 0: more scattered pages")
	assert.Less(t, high, mid/1.2, "more at high orders: more consecutive pages")
	assert.Less(t, before("1", 8<<30), mid/1.2, "half the memory, half the small free blocks at the same fragmentation")
}

// The AUX buffer is refused past rb_alloc_aux's page-array limit (2 GiB of
// 4 KiB pages), with the kernel's reason, in both scenarios; 2 GiB itself
// is allowed where memory and the work bound allow it.
func TestAUXLimitIsTheKernels(t *testing.T) {
	for _, s := range []*Scenario{NewTRBE(), NewSPE()} {
		_, err := s.parse(scenario.Params{ParamAUX: {Text: "4GiB"}, ParamIterations: {Text: "1"}})
		require.Error(t, err)
		for _, want := range []string{"aux: 4GiB", "allowed 64KiB..2GiB", "-ENOMEM", "failed to mmap with 12 (Cannot allocate memory)"} {
			assert.Contains(t, err.Error(), want)
		}
		_, err = s.parse(scenario.Params{ParamAUX: {Text: "2GiB"}, ParamIterations: {Text: "1"}})
		assert.NoError(t, err)
	}
}
