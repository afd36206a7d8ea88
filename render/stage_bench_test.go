package render

import (
	"testing"

	"github.com/dmaviz/dmaviz/model/demo"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// BenchmarkStage4MiB builds the stage for the demo's largest buffer (65536
// lines per side) with the cursor moving, as the painter does at 60 fps.
func BenchmarkStage4MiB(b *testing.B) {
	a, r := demoResult(b, demo.PolicyNoncacheable, "4MiB"), demoResult(b, demo.PolicyCacheableSync, "4MiB")
	benchStage(b, a, r, max(a.End, r.End), 1920, 1080, 360)
}

// benchStage builds the stage of results a and r at w x h (panel left px
// wide) with the cursor moving over 100 positions of [0, length), as the painter does
// while playing, and reports the items of the last frame.
func benchStage(b *testing.B, a, r *scenario.Result, length sim.Time, w, h, left float32) *Scene {
	var sa, sb timeline.State
	f := &Frame{A: Side{Result: a, State: &sa}, B: Side{Result: r, State: &sb}, Length: length, W: w, H: h, Left: left}
	var s Scene
	st := NewStage()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		f.Cursor = f.Length * sim.Time(i%100) / 100
		f.A.Time, f.B.Time = f.Cursor, f.Cursor
		a.Timeline.StateAt(a.Timeline.EventsUntil(f.Cursor), &sa)
		r.Timeline.StateAt(r.Timeline.EventsUntil(f.Cursor), &sb)
		st.Build(&s, f)
	}
	b.ReportMetric(float64(len(s.Items)), "items")
	return &s
}
