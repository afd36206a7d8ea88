package render

import (
	"testing"

	"github.com/dmaviz/dmaviz/model/auxmap"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/timeline"
	"github.com/dmaviz/dmaviz/model/vmapdemo"
)

// BenchmarkStageVmap1GiB builds the stage of the vmap scenario over a
// 1 GiB buffer (262144 pages on A, 512 blocks on B) with the cursor
// moving: the page-mapping view's bins, the TLB snapshots replayed to the
// cursor and the walk panel, per frame. Compare with BenchmarkStage4MiB.
func BenchmarkStageVmap1GiB(b *testing.B) {
	s := vmapdemo.New()
	p, err := s.Spec().Defaults()
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Spec().Set(p, vmapdemo.ParamBuffer, "1GiB"); err != nil {
		b.Fatal(err)
	}
	a, err := s.Run(b.Context(), p, vmapdemo.PolicyPTE, nil)
	if err != nil {
		b.Fatal(err)
	}
	r, err := s.Run(b.Context(), p, vmapdemo.PolicyLarge, nil)
	if err != nil {
		b.Fatal(err)
	}
	benchStage(b, a, r, max(a.End, r.End), 1920, 1080, 360)
}

// BenchmarkStageTRBEAux builds trbe-aux's default stage (1 GiB AUX
// buffers, the PMU counter chart's six tracks) with the cursor moving.
func BenchmarkStageTRBEAux(b *testing.B) {
	a, r := trbeDefaults(b)
	sc := benchStage(b, a, r, max(a.Timeline.End, r.Timeline.End), 1440, 900, 330)
	b.ReportMetric(float64(len(find(sc, "countchart/line"))), "chart-lines")
}

// BenchmarkStageTRBEAuxFirstFrame is the first frame of new trbe-aux
// results: a fresh stage (nothing cached between frames) builds one
// frame, as after a re-run. In the page it is a task of its own, which
// counts against the 100 ms task budget.
func BenchmarkStageTRBEAuxFirstFrame(b *testing.B) { benchTRBEFirstFrame(b, false) }

// BenchmarkStageTRBEAuxFirstFramePrepared is that first frame after
// Prepare ran for both results (as the page does in the run's goroutine);
// Prepare itself is outside the timing.
func BenchmarkStageTRBEAuxFirstFramePrepared(b *testing.B) { benchTRBEFirstFrame(b, true) }

func benchTRBEFirstFrame(b *testing.B, prepare bool) {
	a, r := trbeDefaults(b)
	var sa, sb timeline.State
	f := &Frame{A: Side{Result: a, State: &sa}, B: Side{Result: r, State: &sb}, Length: max(a.Timeline.End, r.Timeline.End), W: 1440, H: 900, Left: 330}
	var sc Scene
	b.ReportAllocs()
	for b.Loop() {
		if prepare {
			b.StopTimer()
			Prepare(a)
			Prepare(r)
			b.StartTimer()
		}
		st := NewStage()
		st.Build(&sc, f)
	}
	b.ReportMetric(float64(len(sc.Items)), "items")
}

// trbeDefaults runs trbe-aux's default setting with order0 (A) and
// prefer-large (B).
func trbeDefaults(b *testing.B) (a, r *scenario.Result) {
	s := auxmap.NewTRBE()
	a, err := s.Run(b.Context(), scenario.Params{}, auxmap.Order0, nil)
	if err != nil {
		b.Fatal(err)
	}
	r, err = s.Run(b.Context(), scenario.Params{}, auxmap.PreferLarge, nil)
	if err != nil {
		b.Fatal(err)
	}
	return a, r
}
