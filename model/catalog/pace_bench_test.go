package catalog

import (
	"testing"
	"time"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// BenchmarkPacingGaps runs each scenario's default setting (A then B) paced
// and reports the longest wall time between two calls of the pacer's hook
// (max_gap_ms) and how many calls there were: in the page a gap is a
// main-thread task, so as WebAssembly (GOOS=js under Node) it says where
// a run would block the page for longer than its slice.
func BenchmarkPacingGaps(b *testing.B) {
	for _, s := range Registry().All() {
		spec := s.Spec()
		b.Run(spec.ID, func(b *testing.B) {
			p, err := spec.Defaults()
			if err != nil {
				b.Fatal(err)
			}
			var worst time.Duration
			calls := 0
			for b.Loop() {
				for _, pol := range []string{spec.DefaultA, spec.DefaultB} {
					last := time.Now()
					pace := scenario.NewPacer(func(float64) error {
						now := time.Now()
						worst = max(worst, now.Sub(last))
						last = now
						calls++
						return nil
					})
					if _, err := s.Run(b.Context(), p, pol, pace); err != nil {
						b.Fatal(err)
					}
					worst = max(worst, time.Since(last))
				}
			}
			b.ReportMetric(float64(worst)/float64(time.Millisecond), "max_gap_ms")
			b.ReportMetric(float64(calls)/float64(b.N), "calls")
		})
	}
}
