package render

import (
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// randomResult records a timeline with odd specs: empty grids, pointers out
// of range, negative spans, caches with no ways, values for missing grids.
func randomResult(rng *rand.Rand) *scenario.Result {
	r := timeline.NewRecorder()
	grids := rng.Intn(3)
	for g := 0; g < grids; g++ {
		r.AddGrid(timeline.GridSpec{ID: "g", Label: "grid", Base: uint64(rng.Intn(1 << 20)), CellBytes: []int64{64, 4096, 1}[rng.Intn(3)], Cells: rng.Intn(3000) - 10})
	}
	if rng.Intn(2) == 0 {
		r.AddCache(timeline.CacheSpec{ID: "c", Label: "cache", Sets: rng.Intn(40) - 2, Ways: rng.Intn(9) - 1, TotalSets: 64, LineBytes: 64})
	}
	for v := rng.Intn(5); v > 0; v-- {
		r.AddValue(timeline.ValueSpec{ID: "v", Label: "value", Kind: timeline.ValueKind(rng.Intn(4)), Grid: rng.Intn(4) - 1, Max: int64(rng.Intn(10) - 2)}, int64(rng.Intn(100)-50))
	}
	for s := rng.Intn(3); s > 0; s-- {
		r.AddSpan(timeline.SpanSpec{ID: "s", Label: "span", Grid: rng.Intn(4) - 1})
	}
	tl := r.Live()
	t := sim.Time(0)
	for i := rng.Intn(500); i > 0; i-- {
		t += sim.Time(rng.Intn(1000))
		switch rng.Intn(5) {
		case 0:
			if len(tl.Cells) > 0 {
				r.Cells(t, rng.Intn(len(tl.Cells)), rng.Intn(3000)-100, rng.Intn(200), timeline.CellState(rng.Intn(12)), uint8(rng.Intn(5)))
			}
		case 1:
			if len(tl.Caches) > 0 {
				r.CacheLine(t, 0, rng.Intn(400), rng.Uint64(), rng.Intn(2) == 0, rng.Intn(2) == 0)
			}
		case 2:
			if len(tl.Values) > 0 {
				r.Value(t, rng.Intn(len(tl.Values)), int64(rng.Intn(4000)-1000))
			}
		case 3:
			if len(tl.Spans) > 0 {
				r.Span(t, rng.Intn(len(tl.Spans)), rng.Intn(4000)-1000, rng.Intn(4000)-1000)
			}
		case 4:
			r.Mark(t, rng.Intn(3))
			r.Phase(timeline.Phase{Lane: []string{"cpu", "dev"}[rng.Intn(2)], Kind: []string{"copy", "odd", "walk"}[rng.Intn(3)], Start: t - 500, End: t + sim.Time(rng.Intn(900))})
		}
	}
	res := &scenario.Result{Policy: "p", Timeline: r.Finish(t)}
	res.End = res.Timeline.End
	res.Metrics = []scenario.Metric{{Name: "m", Value: rng.NormFloat64()}}
	res.Narration = []scenario.Step{{T: 0, Title: "start"}, {T: t / 2, Title: "middle"}}
	return res
}

// The stage and hit testing never panic on a well-formed but odd timeline,
// at any cursor, size or zoom.
func TestStageRandomTimelines(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	st := NewStage()
	var s Scene
	drawn, hits := 0, 0
	for i := 0; i < 300; i++ {
		a, b := randomResult(rng), randomResult(rng)
		var sa, sb timeline.State
		length := max(a.End, b.End)
		cur := sim.Time(rng.Int63n(int64(length) + 1))
		a.Timeline.StateAt(a.Timeline.EventsUntil(cur), &sa)
		b.Timeline.StateAt(b.Timeline.EventsUntil(cur), &sb)
		f := Frame{A: Side{Result: a, State: &sa, Time: cur}, B: Side{Result: b, State: &sb, Time: cur},
			Cursor: cur, Length: length, Progress: rng.Intn(2) == 0,
			Left: float32(rng.Intn(400)), W: float32(rng.Intn(2000)), H: float32(rng.Intn(1200)),
			Zoom: Zoom{First: rng.Intn(3000) - 100, Count: rng.Intn(3000) - 100}}
		st.Build(&s, &f)
		for k := 0; k < 20; k++ {
			if h, ok := s.HitTest(rng.Float32()*f.W, rng.Float32()*f.H); ok {
				s.Highlight(&h.Item)
				hits++
			}
		}
		for _, it := range s.Items {
			require.False(t, it.W < 0 || it.H < 0, "case %d: negative size %+v", i, it)
		}
		if len(s.Items) > 50 {
			drawn++
		}
	}
	require.GreaterOrEqual(t, drawn, 100, "frames of 300 that drew much: the test exercises too little")
	require.GreaterOrEqual(t, hits, 500, "hits: the test exercises too little")
}
