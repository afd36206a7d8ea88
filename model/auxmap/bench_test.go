package auxmap

import (
	"testing"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// The default runs, both policies (the speed target: under 1 s
// natively for each scenario, and within 3x of that as WASM). Besides
// ns/op it reports cpu-ns/op, the process's CPU time per run (user and
// system, all threads; under Node.js process.cpuUsage): on a shared
// machine, with the native and the WASM benchmark pinned to one CPU at
// once, the ratio of the two is the figure to quote.
func BenchmarkDefaults(b *testing.B) {
	for _, s := range []*Scenario{NewTRBE(), NewSPE()} {
		b.Run(s.Spec().ID, func(b *testing.B) {
			start := cpuTime()
			for b.Loop() {
				for _, pol := range []string{Order0, PreferLarge} {
					if _, err := s.Run(b.Context(), scenario.Params{}, pol, nil); err != nil {
						b.Fatal(err)
					}
				}
			}
			if end := cpuTime(); start >= 0 && end >= 0 {
				b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}
