package render

import (
	"strings"
	"testing"

	"github.com/dmaviz/dmaviz/model/demo"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
)

func demoResult(t testing.TB, policy, size string) *scenario.Result {
	t.Helper()
	s := demo.New()
	p, _ := s.Spec().Defaults()
	if err := s.Spec().Set(p, "buffer", size); err != nil {
		t.Fatal(err)
	}
	r, err := s.Run(p, policy)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// endFrame is the demo at the end of both runs.
func endFrame(t testing.TB, b string) *Frame {
	a, br := demoResult(t, demo.PolicyNoncacheable, "16KiB"), demoResult(t, b, "16KiB")
	var sa, sb scenario.State
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
		if it.X < f.Left && it.W >= 0 && it.Kind == KindRect {
			t.Fatalf("item %s drawn under the panel at x=%v", it.ID, it.X)
		}
	}
	cells := find(&s, "b/grid")
	if len(cells) != 256 {
		t.Fatalf("%d grid cells for a 256-line buffer with room to spare", len(cells))
	}
	c := cells[65]
	h, ok := s.HitTest(c.X+c.W/2, c.Y+c.H/2)
	if !ok {
		t.Fatal("no hit on a cell")
	}
	if want := "line 65 · buffer offset 0x1040 (address 0x80001040) · stale · last writer dev"; h.Info != want {
		t.Fatalf("hover info %q, want %q", h.Info, want)
	}
	a := find(&s, "a/grid")[3]
	if h, _ := s.HitTest(a.X+1, a.Y+1); !strings.Contains(h.Info, "line 3 · ") || !strings.Contains(h.Info, " · copied · ") {
		t.Fatalf("side A hover %q", h.Info)
	}
	for _, id := range []string{"a/ring", "b/cache", "timeline/phase", "counters/bar", "legend/swatch", "a/pointer"} {
		if len(find(&s, id)) == 0 {
			t.Errorf("no %s items", id)
		}
	}
	// The counters show the checks first.
	names := find(&s, "counters/name")
	if len(names) < 3 || names[0].Text != "stale_bytes" || names[1].Text != "lost_bytes" {
		t.Fatalf("counter rows %v", names)
	}
}

// One stale line among a million copied ones must stay visible when cells
// are aggregated.
func TestAggregationShowsWorstState(t *testing.T) {
	r := scenario.NewRecorder()
	g := r.AddGrid(scenario.GridSpec{ID: "big", Label: "big", Base: 0x1000, CellBytes: 64, Cells: 1 << 20})
	r.Cells(1, g, 0, 1<<20, scenario.CellCopied, 2)
	r.Cells(2, g, 777_777, 1, scenario.CellStale, 2)
	tl := r.Finish(10)
	res := &scenario.Result{Policy: "x", Timeline: tl, End: 10}
	var st scenario.State
	tl.StateAt(len(tl.Events), &st)
	var s Scene
	NewStage().Build(&s, &Frame{A: Side{Result: res, State: &st, Time: 10}, Length: 10, Cursor: 10, W: 1200, H: 800})
	cells := find(&s, "a/grid")
	if len(cells) == 0 || len(cells) > 20000 {
		t.Fatalf("%d items for a 1M-cell grid", len(cells))
	}
	var stale []Item
	for _, c := range cells {
		if c.Fill == CellColor(scenario.CellStale) {
			stale = append(stale, c)
		}
	}
	if len(stale) != 1 {
		t.Fatalf("%d stale squares, want 1", len(stale))
	}
	ref := stale[0].Ref
	if ref.Index > 777_777 || ref.Index+ref.Count <= 777_777 {
		t.Fatalf("stale square covers %d+%d, not cell 777777", ref.Index, ref.Count)
	}
	info := describeCells(tl, &st, g, int(ref.Index), int(ref.Count))
	if !strings.Contains(info, "1 stale") {
		t.Fatalf("aggregate info %q", info)
	}
}

func TestZoom(t *testing.T) {
	n := 1000
	z := Zoom{}.Clamp(n)
	if z != (Zoom{0, n}) {
		t.Fatalf("whole grid %v", z)
	}
	z = z.In(500, n, 10)
	if z.Count != 100 || z.First > 500 || z.First+z.Count <= 500 {
		t.Fatalf("zoom in around 500: %v", z)
	}
	for i := 0; i < 20; i++ {
		z = z.In(540, n, 4)
	}
	if z != (Zoom{540, 1}) {
		t.Fatalf("zoom down to line 540: %v", z)
	}
	z = Zoom{}
	for i := 0; i < 20; i++ {
		z = z.In(999, n, 4)
	}
	if z != (Zoom{999, 1}) {
		t.Fatalf("zoom down to the last line: %v", z)
	}
	for i := 0; i < 20; i++ {
		z = z.Out(999, n, 4)
	}
	if z != (Zoom{0, n}) {
		t.Fatalf("zoom out: %v", z)
	}
	if (Zoom{First: -5, Count: 10}).Clamp(n).First != 0 || (Zoom{First: 995, Count: 10}).Clamp(n).First != 990 {
		t.Fatal("clamp")
	}
	// A zoomed stage draws only the window, and describes the right cell.
	f := endFrame(t, demo.PolicyCacheableSync)
	f.Zoom = Zoom{First: 100, Count: 4}
	var s Scene
	NewStage().Build(&s, f)
	cells := find(&s, "b/grid")
	if len(cells) != 4 {
		t.Fatalf("%d cells in a 4-cell window", len(cells))
	}
	if h, _ := s.HitTest(cells[1].X+cells[1].W/2, cells[1].Y+cells[1].H/2); !strings.HasPrefix(h.Info, "line 101 · buffer offset 0x1940 (address 0x80001940) ") {
		t.Fatalf("zoomed hover %q", h.Info)
	}
}

func TestStageSurvivesOddFrames(t *testing.T) {
	f := endFrame(t, demo.PolicyCacheableSync)
	frames := []Frame{
		{},
		{W: 50, H: 50},
		{A: f.A, W: 800, H: 600},
		{B: f.B, W: 800, H: 600, Length: f.Length, Cursor: f.Length * 2},
		{A: Side{Result: f.A.Result}, B: Side{Result: &scenario.Result{}}, W: 1000, H: 700, Length: f.Length, Progress: true},
		{A: f.A, B: f.B, W: 3000, H: 200, Length: f.Length, Zoom: Zoom{First: 1 << 30, Count: -3}},
	}
	for i := range frames {
		var s Scene
		st := NewStage()
		st.Build(&s, &frames[i])
		for _, it := range s.Items {
			st.Describe(it.Ref)
		}
	}
}

func TestRebuildDoesNotAllocate(t *testing.T) {
	f := endFrame(t, demo.PolicyCacheableSync)
	var s Scene
	st := NewStage()
	st.Build(&s, f)
	allocs := testing.AllocsPerRun(20, func() { st.Build(&s, f) })
	if allocs > 0 {
		t.Fatalf("rebuilding an unchanged frame allocates %v times", allocs)
	}
	// Moving the cursor allocates at most the new clock texts.
	f.Cursor /= 2
	f.A.Time, f.B.Time = f.A.Time/2, f.B.Time/2
	if allocs := testing.AllocsPerRun(1, func() { st.Build(&s, f) }); allocs > 12 {
		t.Fatalf("a cursor move allocates %v times", allocs)
	}
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
	if a, b := lastEnd(); !(b < a-50) {
		t.Fatalf("aligned on time, B (faster) should end well before A: %v vs %v", b, a)
	}
	f.Progress = true
	st.Build(&s, f)
	if a, b := lastEnd(); a-b > 1 || b-a > 1 {
		t.Fatalf("aligned on progress both should end together: %v vs %v", a, b)
	}
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
		if e.Kind == scenario.EvCache && e.A/4 == 7 {
			seen++
			if seen == 2 { // the first is the earlier read's fill
				at = e.T
				break
			}
		}
	}
	if seen != 2 {
		t.Fatal("no invalidation of set 7 recorded")
	}
	var sb scenario.State
	tl.StateAt(tl.EventsUntil(at), &sb)
	var s Scene
	NewStage().Build(&s, &Frame{B: Side{Result: b, State: &sb, Time: at}, Cursor: at, Length: b.End, W: 1280, H: 720})
	recent := find(&s, "b/cache-recent")
	if len(recent) == 0 {
		t.Fatal("no recently changed ways outlined during the sync")
	}
	ways := find(&s, "b/cache")
	way7 := ways[7*4]
	found := false
	for _, r := range recent {
		if r.Y <= way7.Y && r.Y+r.H >= way7.Y+way7.H-1 && r.X <= way7.X {
			found = true
		}
	}
	if !found {
		t.Fatalf("set 7 way 0 not outlined; outlines %+v", recent)
	}
}
