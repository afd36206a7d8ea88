package mmu

import "testing"

// A 1 GiB buffer vmapped through 4 KiB PTEs or 2 MiB blocks, written
// sequentially by a trace unit's port (one-entry L1 TLB, the a53 L2 TLB,
// the walker): the writer translates when its address leaves the current
// entry, as the copy loop does. Compare with BenchmarkPlainLoop1GiB in
// the same run.
func BenchmarkTLBWrite1GiB(b *testing.B) {
	for _, c := range []struct {
		name  string
		large bool
	}{{"4K-PTEs", false}, {"2M-blocks", true}} {
		b.Run(c.name, func(b *testing.B) {
			k, pages := benchSpace(b)
			a, _, err := k.Vmap(pages, PageKernel, vmapOf(c.large))
			if err != nil {
				b.Fatal(err)
			}
			u, err := NewMMU(a53L2, caches, k.PT, &FixedPort{Mem: k.PT.mem}, 1)
			if err != nil {
				b.Fatal(err)
			}
			r, err := u.Requester("trbe", 9, TLBConfig{Entries: 1, Ways: 1, Sizes: a53L2.Sizes}, false)
			if err != nil {
				b.Fatal(err)
			}
			var n uint64
			for b.Loop() {
				u.InvalidateAll()
				r.InvalidateAll()
				n = 0
				for va, left := a.VA, uint64(0); va < a.VA+a.Bytes; va += PageSize {
					if left == 0 {
						t, err := r.Translate(va, true)
						if err != nil {
							b.Fatal(err)
						}
						left = t.Contig
						n++
					}
					left -= PageSize
				}
			}
			b.ReportMetric(float64(n), "translations/op")
			b.ReportMetric(float64(u.L2.Stats.Refills)/float64(b.N), "l2-refills/op")
		})
	}
}
