package etr

import (
	"testing"
	"time"

	"github.com/dmaviz/dmaviz/model/scenario"
)

var sinkBytes []byte

// BenchmarkETRDefault runs the scenario at the seed's size (4 MiB, steady
// state, recording the timeline) for each policy, and reports how many
// times slower one run is than a plain Go copy() of the same 4 MiB twice
// (the prior session and the measured one) in the same process (x_plain).
func BenchmarkETRDefault(b *testing.B) {
	s := New()
	p, err := s.Spec().Defaults()
	if err != nil {
		b.Fatal(err)
	}
	src, dst := make([]byte, 4<<20), make([]byte, 4<<20)
	plain := func() {
		copy(dst, src)
		copy(src, dst)
		sinkBytes = dst
	}
	for _, pol := range Policies() {
		b.Run(string(pol.ID), func(b *testing.B) {
			var res *scenario.Result
			for i := 0; i < b.N; i++ {
				if res, err = s.Run(b.Context(), p, string(pol.ID), nil); err != nil {
					b.Fatal(err)
				}
			}
			simNs := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.StopTimer()
			plain()
			n := max(b.N, 10)
			t0 := time.Now()
			for i := 0; i < n; i++ {
				plain()
			}
			plainNs := float64(time.Since(t0).Nanoseconds()) / float64(n)
			b.ReportMetric(simNs/plainNs, "x_plain")
			b.ReportMetric(float64(len(res.Timeline.Events)), "events")
		})
	}
}
