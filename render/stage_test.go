package render

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/demo"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

func demoResult(t testing.TB, policy, size string) *scenario.Result {
	t.Helper()
	s := demo.New()
	p, _ := s.Spec().Defaults()
	require.NoError(t, s.Spec().Set(p, "buffer", size))
	r, err := s.Run(context.Background(), p, policy, nil)
	require.NoError(t, err)
	return r
}

// endFrame is the demo at the end of both runs.
func endFrame(t testing.TB, b string) *Frame {
	a, br := demoResult(t, demo.PolicyNoncacheable, "16KiB"), demoResult(t, b, "16KiB")
	var sa, sb timeline.State
	a.Timeline.StateAt(len(a.Timeline.Events), &sa)
	br.Timeline.StateAt(len(br.Timeline.Events), &sb)
	return &Frame{A: Side{Result: a, State: &sa, Time: a.End}, B: Side{Result: br, State: &sb, Time: br.End},
		Cursor: max(a.End, br.End), Length: max(a.End, br.End), Left: 300, W: 1600, H: 900}
}

func find(s *Scene, id string) []Item {
	var out []Item
	for _, it := range s.Items {
		if it.ID == id {
			out = append(out, it)
		}
	}
	return out
}

func TestStageHoverDescribesCells(t *testing.T) {
	f := endFrame(t, demo.PolicyCacheableNoSync)
	var s Scene
	st := NewStage()
	st.Build(&s, f)
	for _, it := range s.Items {
		require.False(t, it.X < f.Left && it.W >= 0 && it.Kind == KindRect, "item %s drawn under the panel at x=%v", it.ID, it.X)
	}
	cells := find(&s, "b/grid")
	require.Len(t, cells, 256, "grid cells for a 256-line buffer with room to spare")
	c := cells[65]
	h, ok := s.HitTest(c.X+c.W/2, c.Y+c.H/2)
	require.True(t, ok, "no hit on a cell")
	require.Equal(t, "line 65 · buffer offset 0x1040 (address 0x80001040) · stale · last writer dev", h.Info, "hover info")
	a := find(&s, "a/grid")[3]
	h, _ = s.HitTest(a.X+1, a.Y+1)
	require.Contains(t, h.Info, "line 3 · ", "side A hover")
	require.Contains(t, h.Info, " · copied · ", "side A hover")
	for _, id := range []string{"a/ring", "b/cache", "timeline/phase", "counters/bar", "legend/swatch", "a/pointer"} {
		assert.NotEmpty(t, find(&s, id), "no %s items", id)
	}
	// The counters show the checks first.
	names := find(&s, "counters/name")
	require.GreaterOrEqual(t, len(names), 3, "counter rows %v", names)
	require.Equal(t, []string{"stale_bytes", "lost_bytes"}, []string{names[0].Text, names[1].Text}, "the first counter rows")
}

// One stale line among a million copied ones must stay visible when cells
// are aggregated.
func TestAggregationShowsWorstState(t *testing.T) {
	r := timeline.NewRecorder()
	g := r.AddGrid(timeline.GridSpec{ID: "big", Label: "big", Base: 0x1000, CellBytes: 64, Cells: 1 << 20})
	r.Cells(1, g, 0, 1<<20, timeline.CellCopied, 2)
	r.Cells(2, g, 777_777, 1, timeline.CellStale, 2)
	tl := r.Finish(10)
	res := &scenario.Result{Policy: "x", Timeline: tl, End: 10}
	var st timeline.State
	tl.StateAt(len(tl.Events), &st)
	var s Scene
	NewStage().Build(&s, &Frame{A: Side{Result: res, State: &st, Time: 10}, Length: 10, Cursor: 10, W: 1200, H: 800})
	cells := find(&s, "a/grid")
	require.NotEmpty(t, cells, "items for a 1M-cell grid")
	require.LessOrEqual(t, len(cells), 20000, "items for a 1M-cell grid")
	var stale []Item
	for _, c := range cells {
		if c.Fill == CellColor(timeline.CellStale) {
			stale = append(stale, c)
		}
	}
	require.Len(t, stale, 1, "stale squares")
	ref := stale[0].Ref
	require.False(t, ref.Index > 777_777 || ref.Index+ref.Count <= 777_777, "stale square covers %d+%d, not cell 777777", ref.Index, ref.Count)
	info := describeCells(tl, &st, g, int(ref.Index), int(ref.Count))
	require.Contains(t, info, "1 stale", "aggregate info")
}

func TestZoom(t *testing.T) {
	n := 1000
	z := Zoom{}.Clamp(n)
	require.Equal(t, Zoom{0, n}, z, "whole grid")
	z = z.In(500, n, 10)
	require.Equal(t, 100, z.Count, "zoom in around 500: %v", z)
	require.False(t, z.First > 500 || z.First+z.Count <= 500, "zoom in around 500 leaves 500 out: %v", z)
	for i := 0; i < 20; i++ {
		z = z.In(540, n, 4)
	}
	require.Equal(t, Zoom{540, 1}, z, "zoom down to line 540")
	z = Zoom{}
	for i := 0; i < 20; i++ {
		z = z.In(999, n, 4)
	}
	require.Equal(t, Zoom{999, 1}, z, "zoom down to the last line")
	for i := 0; i < 20; i++ {
		z = z.Out(999, n, 4)
	}
	require.Equal(t, Zoom{0, n}, z, "zoom out")
	require.Equal(t, 0, (Zoom{First: -5, Count: 10}).Clamp(n).First, "clamp a negative first line")
	require.Equal(t, 990, (Zoom{First: 995, Count: 10}).Clamp(n).First, "clamp a window past the end")
	// A zoomed stage draws only the window, and describes the right cell.
	f := endFrame(t, demo.PolicyCacheableSync)
	f.Zoom = Zoom{First: 100, Count: 4}
	var s Scene
	NewStage().Build(&s, f)
	cells := find(&s, "b/grid")
	require.Len(t, cells, 4, "cells in a 4-cell window")
	h, _ := s.HitTest(cells[1].X+cells[1].W/2, cells[1].Y+cells[1].H/2)
	require.True(t, strings.HasPrefix(h.Info, "line 101 · buffer offset 0x1940 (address 0x80001940) "), "zoomed hover %q", h.Info)
}

// Frames the page can produce on its way to a normal one (no window yet, a
// tiny one, one side still running, an empty result, the cursor past the
// end, a zoom out of range) build a scene without panicking: every
// coordinate is a finite number and every size non-negative (the painter
// and the SVG writer take them as they are), a stage too small to lay out
// says so, and one with results draws them with a description for every
// item the pointer can land on.
func TestStageSurvivesOddFrames(t *testing.T) {
	f := endFrame(t, demo.PolicyCacheableSync)
	frames := []struct {
		name  string
		f     Frame
		small bool // too small to lay out
	}{
		{"empty", Frame{}, true},
		{"tiny", Frame{W: 50, H: 50}, true},
		{"A only, no length", Frame{A: f.A, W: 800, H: 600}, false},
		{"B only, cursor past the end", Frame{B: f.B, W: 800, H: 600, Length: f.Length, Cursor: f.Length * 2}, false},
		{"no states, B empty, progress", Frame{A: Side{Result: f.A.Result}, B: Side{Result: &scenario.Result{}}, W: 1000, H: 700, Length: f.Length, Progress: true}, false},
		{"wide and short, zoom out of range", Frame{A: f.A, B: f.B, W: 3000, H: 200, Length: f.Length, Zoom: Zoom{First: 1 << 30, Count: -3}}, false},
	}
	finite := func(v float32) bool { return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) }
	for _, c := range frames {
		var s Scene
		st := NewStage()
		st.Build(&s, &c.f)
		require.NotEmpty(t, s.Items, "%s: an empty scene", c.name)
		refs := 0
		for _, it := range s.Items {
			for _, v := range []float32{it.X, it.Y, it.W, it.H, it.X2, it.Y2, it.Size, it.StrokeWidth} {
				require.True(t, finite(v), "%s: %s has a coordinate or size %v", c.name, it.ID, v)
			}
			require.False(t, it.W < 0 || it.H < 0, "%s: %s is %vx%v", c.name, it.ID, it.W, it.H)
			if it.Ref.Kind != RefNone {
				refs++
				assert.NotEmpty(t, st.Describe(it.Ref), "%s: %s (%+v) has no description", c.name, it.ID, it.Ref)
			}
		}
		if c.small {
			require.Len(t, s.Items, 1, "%s: a stage too small to lay out shows only its message", c.name)
			assert.Equal(t, "window too small", s.Items[0].Text, c.name)
			continue
		}
		assert.NotZero(t, refs, "%s: nothing on the stage answers the pointer", c.name)
	}
}

func TestRebuildDoesNotAllocate(t *testing.T) {
	f := endFrame(t, demo.PolicyCacheableSync)
	var s Scene
	st := NewStage()
	st.Build(&s, f)
	allocs := testing.AllocsPerRun(20, func() { st.Build(&s, f) })
	require.Zero(t, allocs, "allocations rebuilding an unchanged frame")
	// Moving the cursor allocates at most the new clock texts.
	f.Cursor /= 2
	f.A.Time, f.B.Time = f.A.Time/2, f.B.Time/2
	allocs = testing.AllocsPerRun(1, func() { st.Build(&s, f) })
	require.LessOrEqual(t, allocs, 12.0, "allocations on a cursor move")
}

func TestProgressAlignmentStretchesPhases(t *testing.T) {
	f := endFrame(t, demo.PolicyCacheableSync)
	var s Scene
	st := NewStage()
	lastEnd := func() (a, b float32) {
		for _, it := range find(&s, "timeline/phase") {
			e := it.X + it.W
			if it.Ref.Side == 0 {
				a = max(a, e)
			} else {
				b = max(b, e)
			}
		}
		return
	}
	st.Build(&s, f)
	a, b := lastEnd()
	require.Less(t, b, a-50, "aligned on time, B (faster) should end well before A (B's end vs A's end - 50)")
	f.Progress = true
	st.Build(&s, f)
	a, b = lastEnd()
	require.InDelta(t, a, b, 1, "aligned on progress both should end together")
}

// Fills and invalidations show as they happen: while the sync runs, the
// way it just invalidated is outlined.
func TestCacheShowsRecentChanges(t *testing.T) {
	b := demoResult(t, demo.PolicyCacheableSync, "4KiB")
	tl := b.Timeline
	// The 8th DC IVAC (line 7, set 7) is recorded as a cache event.
	var at sim.Time
	seen := 0
	for _, e := range tl.Events {
		if e.Kind == timeline.EvCache && e.A/4 == 7 {
			seen++
			if seen == 2 { // the first is the earlier read's fill
				at = e.T
				break
			}
		}
	}
	require.Equal(t, 2, seen, "no invalidation of set 7 recorded (cache events on set 7)")
	var sb timeline.State
	tl.StateAt(tl.EventsUntil(at), &sb)
	var s Scene
	NewStage().Build(&s, &Frame{B: Side{Result: b, State: &sb, Time: at}, Cursor: at, Length: b.End, W: 1280, H: 720})
	recent := find(&s, "b/cache-recent")
	require.NotEmpty(t, recent, "no recently changed ways outlined during the sync")
	ways := find(&s, "b/cache")
	way7 := ways[7*4]
	found := false
	for _, r := range recent {
		if r.Y <= way7.Y && r.Y+r.H >= way7.Y+way7.H-1 && r.X <= way7.X {
			found = true
		}
	}
	require.True(t, found, "set 7 way 0 not outlined; outlines %+v", recent)
}
