package mmu_test

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
)

// A vmap of 16 pages with 4 KiB PTEs, walked twice: the first walk reads
// one descriptor per level, the second starts from the level-2 walk cache.
// The port charges a stand-in 20 ns per descriptor read.
func ExampleWalker_Trace() {
	b, _ := mem.NewBuddy(128<<20, mem.DefaultMaxOrder)
	m := mmu.NewMemory()
	k, _, _ := mmu.NewKernelSpace(m, b, nil, mmu.Size4K|mmu.Size2M|mmu.Size1G)
	pages := make([]uint64, 16)
	for i := range pages {
		pages[i] = 16<<20 + uint64(i)*mmu.PageSize
	}
	a, _, _ := k.Vmap(pages, mmu.PageKernel, mmu.VmapMainline)
	cfg := mmu.Config{WalkCache: [3]mmu.WalkCacheConfig{{Entries: 4, Ways: 4}, {Entries: 4, Ways: 4}, {Entries: 16, Ways: 4}}}
	w, _ := mmu.NewWalker(cfg, k.PT, &mmu.FixedPort{Mem: m, Read: 20 * sim.Nanosecond})
	for _, va := range []uint64{a.VA, a.VA + mmu.PageSize} {
		r, steps := w.Trace(va, nil)
		fmt.Printf("va %#x -> pa %#x in %v\n", va, r.Leaf.PA+(va-r.Leaf.VA), r.Cost)
		for _, s := range steps {
			fmt.Printf("  L%d desc at %#x %-5v walk-cache=%v\n", s.Level, s.DescAddr, s.Kind, s.WalkCache)
		}
	}
	// Output:
	// va 0xffff800080000000 -> pa 0x1000000 in 80ns
	//   L0 desc at 0x800 table walk-cache=false
	//   L1 desc at 0x3010 table walk-cache=false
	//   L2 desc at 0x4000 table walk-cache=false
	//   L3 desc at 0x5000 page  walk-cache=false
	// va 0xffff800080001000 -> pa 0x1001000 in 20ns
	//   L2 desc at 0x4000 table walk-cache=true
	//   L3 desc at 0x5008 page  walk-cache=false
}
