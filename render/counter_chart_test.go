package render

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/auxmap"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/vmapdemo"
)

// halfwayTRBE is a 64 MiB trbe-aux pair (order0, prefer-large; two
// sessions) at half its last session, on a w x h stage.
func halfwayTRBE(t *testing.T, w, h float32) (f *Frame, a, b *scenario.Result, length, half sim.Time) {
	s := auxmap.NewTRBE()
	extra := map[string]string{auxmap.ParamAUX: "64MiB", auxmap.ParamIterations: "2"}
	a = runPolicyWith(t, s, auxmap.Order0, extra)
	b = runPolicyWith(t, s, auxmap.PreferLarge, extra)
	length = max(a.Timeline.End, b.Timeline.End)
	half = length / 2
	f = &Frame{A: Side{Result: a, Time: half}, B: Side{Result: b, Time: half}, Cursor: half, Length: length, W: w, H: h}
	return f, a, b, length, half
}

// trbe-aux's stage charts the three PMU counters over the run: one strip
// each with A's and B's lines, the counts at the cursor beside the names
// (A's order-0 l2d_tlb_refill far above B's), and the cursor where the
// player is.
func TestCounterChartDrawsThreeCountersForAAndB(t *testing.T) {
	f, a, b, length, half := halfwayTRBE(t, 1024, 768)
	require.True(t, hasCounterChart(f))
	var sc Scene
	NewStage().Build(&sc, f)
	assert.Empty(t, find(&sc, "timeline/title"), "the chart stands in for the timeline")
	names := find(&sc, "countchart/name")
	require.Len(t, names, 3)
	for i, n := range counterChartNames {
		assert.Equal(t, n, names[i].Text)
		assert.GreaterOrEqual(t, names[i].Size, float32(14), "legible text")
	}
	lines := find(&sc, "countchart/line")
	var perSeries [6]int
	for _, l := range lines {
		perSeries[l.Index/100000]++
	}
	for i, n := range perSeries {
		assert.Positive(t, n, "series %d (counter %d, side %d) drawn", i, i/2, i%2)
		assert.Less(t, n, 400, "series %d thinned to the pixels", i)
	}
	vals := find(&sc, "countchart/values")
	require.Len(t, vals, 3)
	l2a := countAt(counterTrack(&f.A, counterChartNames[0]), half)
	l2b := countAt(counterTrack(&f.B, counterChartNames[0]), half)
	assert.Greater(t, l2a, 10*l2b, "order-0 refills far above prefer-large's at the cursor")
	assert.Equal(t, "A "+ShortNumber(l2a)+"   B "+ShortNumber(l2b), vals[0].Text)
	cur := find(&sc, "countchart/cursor")
	require.Len(t, cur, 3, "the cursor across each strip")
	plots := find(&sc, "countchart/plot")
	require.Len(t, plots, 3)
	for i, c := range cur {
		assert.InDelta(t, plots[i].X+plots[i].W/2, c.X, 2, "the cursor at half the run")
		assert.LessOrEqual(t, c.Y, plots[i].Y, "the cursor spans strip %d's plot", i)
		assert.GreaterOrEqual(t, c.Y2, plots[i].Y+plots[i].H, "the cursor spans strip %d's plot", i)
	}
	// At the run's start the cursor is at the names' left edge: it crosses
	// no name's row (it struck out "l1d_tlb_refill"'s first letter).
	f.A.Time, f.B.Time, f.Cursor = 0, 0, 0
	var start Scene
	NewStage().Build(&start, f)
	for _, n := range find(&start, "countchart/name") {
		for _, c := range append(find(&start, "countchart/cursor"), find(&start, "countchart/cursor-edge")...) {
			assert.False(t, c.Y < n.Y && c.Y2 > n.Y-n.Size, "cursor %v..%v crosses the name %q at %v", c.Y, c.Y2, n.Text, n.Y)
		}
	}
	for _, it := range sc.Items {
		if strings.HasPrefix(it.ID, "countchart/") {
			assert.LessOrEqual(t, it.X, float32(1024), it.ID)
		}
	}
	// At the end, the values are the tracks' last: the session's counts.
	f.A.Time, f.B.Time, f.Cursor = a.Timeline.End, b.Timeline.End, length
	NewStage().Build(&sc, f)
	last := counterTrack(&f.A, counterChartNames[0])
	assert.Equal(t, last.V[len(last.V)-1], countAt(last, a.Timeline.End))
	assert.Equal(t, float64(0), countAt(last, -sim.Nanosecond))
}

func TestShortNumber(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 513: "513", 9999: "9999", 161470: "161k", 1.615e5: "162k", 2.5e6: "2.5M", 999999: "1M", 12.5: "12.5", 522.8: "523", 0.0712: "0.0712", -161470: "-161k"} {
		assert.Equal(t, want, ShortNumber(v), "%v", v)
	}
}

// At 1024x768 beside the panel, spe-aux's counters keep B/A on every row
// and the counter names whole: the values shorten first (116k, not
// 1.162e+05).
func TestCountersShortenValuesBeforeNamesAndKeepTheRatio(t *testing.T) {
	// A small run's timeline (the translation views and counter tracks)
	// with the default run's figures.
	run := runPolicyWith(t, auxmap.NewSPE(), auxmap.Order0, map[string]string{auxmap.ParamAUX: "64MiB", auxmap.ParamCount: "20000", auxmap.ParamIterations: "1"})
	mk := func(vals ...float64) *scenario.Result {
		r := &scenario.Result{Timeline: run.Timeline, End: run.End}
		for i, n := range []string{"l2d_tlb_refill", "l1d_tlb_refill", "dtlb_walk", "walks_by_trace_unit", "spe_translations", "trace_stall_us"} {
			r.Metrics = append(r.Metrics, scenario.Metric{Name: n, Value: vals[i]})
		}
		return r
	}
	a := mk(116244.3, 131072, 115808, 362.3, 522.8, 14.18)
	b := mk(115810, 131072, 115808, 2, 522.8, 0.07)
	for _, w := range []float32{1024, 1440} {
		f := &Frame{A: Side{Result: a}, B: Side{Result: b}, Length: sim.Millisecond, Left: 340, W: w, H: 768}
		var sc Scene
		NewStage().Build(&sc, f)
		names, ratios, vals := find(&sc, "counters/name"), find(&sc, "counters/ratio"), find(&sc, "counters/values")
		require.Len(t, names, 6, "width %v", w)
		assert.Len(t, ratios, 6, "width %v: B/A on every row", w)
		assert.Len(t, find(&sc, "counters/head"), 1, "width %v: the B/A heading", w)
		for i, n := range names {
			assert.NotContains(t, n.Text, "…", "width %v: %s whole", w, n.Text)
			assert.NotContains(t, vals[i].Text, "e+", "width %v: %s", w, vals[i].Text)
			// Columns do not overlap: name, then values, then the ratio.
			assert.Less(t, n.X+textWidth(n.Text, n.Size), vals[i].X-textWidth(vals[i].Text, vals[i].Size), "width %v row %d", w, i)
			assert.Less(t, vals[i].X, ratios[i].X-textWidth(ratios[i].Text, ratios[i].Size), "width %v row %d", w, i)
		}
		if w == 1024 {
			assert.Equal(t, "116k / 116k", vals[0].Text)
		}
	}
}

// vmap has a timeline, not a counter chart, but the same long counter
// names: at 1024 px they stay whole too.
func TestVmapCounterNamesStayWholeOnANarrowStage(t *testing.T) {
	s := vmapdemo.New()
	a, b := runPolicy(t, s, vmapdemo.PolicyPTE), runPolicy(t, s, vmapdemo.PolicyLarge)
	f := &Frame{A: Side{Result: a}, B: Side{Result: b}, Length: max(a.End, b.End), Left: 340, W: 1024, H: 768}
	var sc Scene
	NewStage().Build(&sc, f)
	names := find(&sc, "counters/name")
	require.NotEmpty(t, names)
	assert.Len(t, find(&sc, "counters/ratio"), len(names), "B/A on every row")
	for _, n := range names {
		assert.NotContains(t, n.Text, "…", "%s whole", n.Text)
	}
}

// A row too short for the three strips (a 960x600 lesson embed's bottom
// row, about 110 px) keeps the strips that fit, l2d_tlb_refill first,
// instead of a title over an empty row; a tall row keeps all three.
func TestCounterChartKeepsTheStripsThatFit(t *testing.T) {
	f, _, _, _, _ := halfwayTRBE(t, 960, 600)
	for _, c := range []struct {
		h    float32
		want int
	}{{110, 2}, {80, 1}, {200, 3}} {
		st := NewStage()
		st.countChart.bind(&st.txt, f)
		var sc Scene
		r := Rect{X: 10, Y: 20, W: 420, H: c.h}
		st.countChart.Build(&sc, r)
		names := find(&sc, "countchart/name")
		require.Len(t, names, c.want, "strips in a %v px row", c.h)
		assert.Equal(t, counterChartNames[0], names[0].Text)
		require.Len(t, find(&sc, "countchart/cursor"), c.want)
		for _, it := range sc.Items {
			assert.LessOrEqual(t, it.Y, r.Y+r.H+1, "%s below the row", it.ID)
		}
		for _, p := range find(&sc, "countchart/plot") {
			assert.GreaterOrEqual(t, p.H, float32(countChartPlotH))
		}
	}
}
