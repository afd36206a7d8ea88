package sgsync

import (
	"testing"
	"time"
)

var sink uint64

// BenchmarkSGDefault runs the seed setting (10 MB of 4 KB entries, 200
// iterations, chart included) per policy, and reports how many times
// slower it is than a plain Go loop doing one operation per line op of the
// whole workload (x_plain; 65 M lines for map + unmap over 200 iterations).
func BenchmarkSGDefault(b *testing.B) {
	for _, pol := range []string{PolicyPerEntry, PolicyBatched} {
		b.Run(pol, func(b *testing.B) {
			p := params(b)
			for i := 0; i < b.N; i++ {
				if _, err := New().Run(b.Context(), p, pol, nil); err != nil {
					b.Fatal(err)
				}
			}
			simNs := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.StopTimer()
			lines := make([]uint64, 163840)
			t0 := time.Now()
			for it := 0; it < 200; it++ {
				for call := 0; call < 2; call++ {
					for i := range lines {
						lines[i] += uint64(it + call)
					}
				}
			}
			sink += lines[len(lines)-1]
			b.ReportMetric(simNs/float64(time.Since(t0).Nanoseconds()), "x_plain")
		})
	}
}

// BenchmarkSGHeaviest runs the heaviest setting cmd/corners found (45 MiB
// of 1 MiB entries the CPU reads once, persistent mapping, dimensity-9500)
// for both default policies, the run the page takes longest over.
func BenchmarkSGHeaviest(b *testing.B) {
	p := params(b, "entry-offset", "0B", "entry", "1MiB", "iterations", "1", "mapping", "persistent",
		"preset", "dimensity-9500", "total", "45MiB")
	for i := 0; i < b.N; i++ {
		for _, pol := range []string{PolicyPerEntry, PolicyBatched} {
			if _, err := New().Run(b.Context(), p, pol, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
}
