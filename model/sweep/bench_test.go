package sweep

import (
	"context"
	"runtime"
	"testing"

	"github.com/dmaviz/dmaviz/model/etr"
)

// BenchmarkETRBufferSweep is the speed target: etr's default A/B
// pair over the 10 buffer sizes 64KiB..32MiB (x2). "parallel" uses every
// core (GOMAXPROCS workers), "sequential" the same points one after
// another; compare the two in the same run.
func BenchmarkETRBufferSweep(b *testing.B) {
	s := etr.New()
	spec := s.Spec()
	base, err := spec.Defaults()
	if err != nil {
		b.Fatal(err)
	}
	ax, err := ParseVary(spec, "buffer=64KiB..32MiB:x2")
	if err != nil || len(ax.Values) != 11 {
		b.Fatalf("%v: %d values", err, len(ax.Values))
	}
	req := Request{Scenario: s, Base: base, A: spec.DefaultA, B: spec.DefaultB, Axes: []Axis{ax}}
	for _, c := range []struct {
		name    string
		workers int
	}{{"parallel", runtime.GOMAXPROCS(0)}, {"sequential", 1}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				tab, err := Run(context.Background(), req, c.workers, nil)
				if err != nil || len(tab.Points) != 11 {
					b.Fatal(err)
				}
			}
		})
	}
}
