package render

import (
	"testing"

	"github.com/dmaviz/dmaviz/model/demo"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
)

// BenchmarkStage4MiB builds the stage for the demo's largest buffer (65536
// lines per side) with the cursor moving, as the painter does at 60 fps.
func BenchmarkStage4MiB(b *testing.B) {
	a, r := demoResult(b, demo.PolicyNoncacheable, "4MiB"), demoResult(b, demo.PolicyCacheableSync, "4MiB")
	var sa, sb scenario.State
	f := &Frame{A: Side{Result: a, State: &sa}, B: Side{Result: r, State: &sb}, Length: max(a.End, r.End), W: 1920, H: 1080, Left: 360}
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
}
