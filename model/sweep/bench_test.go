package sweep

import (
	"context"
	"runtime"
	"testing"

	"github.com/dmaviz/dmaviz/model/etr"
)

// BenchmarkETRBufferSweep times etr's default A/B pair over every buffer
// size from 64 KiB to the parameter's maximum, doubling. "parallel" uses
// every core (GOMAXPROCS workers), "sequential" the same points one after
// another; compare the two in the same run.
func BenchmarkETRBufferSweep(b *testing.B) {
	s := etr.New()
	spec := s.Spec()
	base, err := spec.Defaults()
	if err != nil {
		b.Fatal(err)
	}
	d := spec.Param("buffer")
	if d == nil {
		b.Fatal("etr has no buffer parameter")
	}
	const lo = 64 << 10
	ax, err := ParseVary(spec, "buffer=64KiB.."+d.Format(d.Max)+":x2")
	if err != nil {
		b.Fatal(err)
	}
	// The range doubles from lo up to the maximum: one value per doubling.
	want := 0
	for v := float64(lo); v <= d.Max; v *= 2 {
		want++
	}
	if want < 2 || len(ax.Values) != want || ax.Values[0].Num != lo || ax.Values[want-1].Num > d.Max {
		b.Fatalf("buffer=64KiB..%s:x2 gave %d values, want %d from 64 KiB doubling to at most %s", d.Format(d.Max), len(ax.Values), want, d.Format(d.Max))
	}
	req := Request{Scenario: s, Base: base, A: spec.DefaultA, B: spec.DefaultB, Axes: []Axis{ax}}
	for _, c := range []struct {
		name    string
		workers int
	}{{"parallel", runtime.GOMAXPROCS(0)}, {"sequential", 1}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				tab, err := Run(context.Background(), req, c.workers, nil)
				if err != nil {
					b.Fatal(err)
				}
				if len(tab.Points) != want {
					b.Fatalf("%d points, want one per buffer size (%d)", len(tab.Points), want)
				}
				for _, p := range tab.Points {
					if len(p.A.Metrics) == 0 || len(p.B.Metrics) == 0 {
						b.Fatalf("buffer=%s: a side has no metrics", p.Values[0].Text)
					}
				}
			}
		})
	}
}
