package mmu

import "testing"

// A 1 GiB buffer (physically contiguous, 2 MiB aligned) vmapped through
// 4 KiB PTEs or with large mappings (2 MiB blocks), then written
// sequentially: one walk per translation, as a TLB refill would cause.
// PlainLoop is a Go loop over the same 262,144 pages for scale.

func benchSpace(b *testing.B) (*KernelSpace, []uint64) {
	k, _, _ := kernel(b, 2*GiB)
	return k, run(GiB, GiB/PageSize)
}

func BenchmarkVmap1GiB(b *testing.B) {
	for _, c := range []struct {
		name  string
		large bool
	}{{"4K-PTEs", false}, {"2M-blocks", true}} {
		b.Run(c.name, func(b *testing.B) {
			var st MapStats
			for b.Loop() {
				b.StopTimer()
				k, pages := benchSpace(b)
				b.StartTimer()
				var err error
				_, st, err = k.Vmap(pages, PageKernel, vmapOf(c.large))
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(st.Writes), "pte-writes/op")
		})
	}
}

func BenchmarkWalk1GiB(b *testing.B) {
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
			w, err := NewWalker(caches, k.PT, &FixedPort{Mem: k.PT.mem})
			if err != nil {
				b.Fatal(err)
			}
			var walks uint64
			for b.Loop() {
				w.Invalidate()
				walks = 0
				for va := a.VA; va < a.VA+a.Bytes; walks++ {
					r := w.Walk(va)
					if !r.OK {
						f := r.Fault
						b.Fatal(&f)
					}
					va = r.Leaf.VA + r.Leaf.Bytes
				}
			}
			b.ReportMetric(float64(walks), "walks/op")
		})
	}
}

func BenchmarkPlainLoop1GiB(b *testing.B) {
	pages := run(GiB, GiB/PageSize)
	var sum uint64
	for b.Loop() {
		for i, pa := range pages {
			sum += pa + uint64(i)<<PageShift
		}
	}
	if sum == 1 {
		b.Log(sum)
	}
}
