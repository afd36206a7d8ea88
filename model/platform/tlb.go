package platform

import (
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
)

// Translation hardware of the presets' cores. Entry counts and ways are
// MODEL.md's TLB table; entry sizes and walk caches are the cores'
// manuals where they give them and marked assumed otherwise. Every preset
// maps RAM with the block-mapped linear map and vmaps without large
// mappings (the kernel before the large-vmap support).

const (
	k4, k16, k64 = 4 << 10, 16 << 10, 64 << 10
	m1, m2, m32  = 1 << 20, 2 << 20, 32 << 20
	m512, g1     = 512 << 20, 1 << 30
)

// linearMap is arm64 Linux's linear map of RAM: 1 GiB and 2 MiB blocks
// where alignment allows, pages elsewhere (map_mem without rodata=full or
// debug_pagealloc).
const linearMap = mmu.Size4K | mmu.Size2M | mmu.Size1G

// traceTLB is the one-entry L1 TLB of TRBE and SPE (C1-Ultra TRM: each
// refills from the core's L2 TLB); presets of cores without them keep
// the same shape for the model's trace ports (assumed: Cortex-A53, A76 and
// Neoverse N1 have no TRBE, an Armv9 feature, and their manuals document
// no one-entry trace-unit TLB). The trbe-aux and spe-aux scenarios say so where a user reads
// it (their explanation and narration).
func traceTLB(sizes mmu.EntrySizes) mmu.TLBConfig {
	return mmu.TLBConfig{Entries: 1, Ways: 1, Sizes: sizes}
}

// cortexA53TLB: Cortex-A53 (juno-r2).
func cortexA53TLB(clk sim.Clocks) soc.TLBConfig {
	l2 := mmu.Sizes(k4, k64, m1, m2, m512)
	return soc.TLBConfig{Enabled: true,
		L1: mmu.TLBConfig{Entries: 10, Ways: 10,
			Sizes: mmu.Sizes(k4, k64, m1),
			Hit:   0},
		L2: mmu.TLBConfig{Entries: 512, Ways: 4,
			Sizes: l2,
			Hit:   clk.CPUCycles(3)},
		Trace: traceTLB(l2),
		Walk: mmu.Config{WalkCache: [3]mmu.WalkCacheConfig{
			2: {Entries: 64, Ways: 4}}},
		Linear: linearMap,
	}
}

// cortexA76TLB: Cortex-A76 / Neoverse N1 (neoverse-n1).
func cortexA76TLB(clk sim.Clocks) soc.TLBConfig {
	l2 := mmu.Sizes(k4, k16, k64, m2, m32, m512, g1)
	return soc.TLBConfig{Enabled: true,
		L1: mmu.TLBConfig{Entries: 48, Ways: 48,
			Sizes: mmu.Sizes(k4, k16, k64, m2, m512),
			Hit:   0},
		L2: mmu.TLBConfig{Entries: 1280, Ways: 5,
			Sizes:    l2,
			Hit:      clk.CPUCycles(3),
			Coalesce: 4},
		Trace: traceTLB(l2),
		Walk: mmu.Config{WalkCache: [3]mmu.WalkCacheConfig{
			1: {Entries: 16, Ways: 4},
			2: {Entries: 64, Ways: 4},
		}},
		Linear: linearMap,
	}
}

// cortexX925TLB: C1-Ultra class (dimensity-9500; Cortex-X4 / X925
// lineage). The C1-Ultra manual was not available: what MODEL.md's table
// does not give is the A76's, assumed.
func cortexX925TLB(clk sim.Clocks) soc.TLBConfig {
	l2 := mmu.Sizes(k4, k16, k64, m2, m32, m512, g1)
	return soc.TLBConfig{Enabled: true,
		L1: mmu.TLBConfig{
			Entries: 96,
			Ways:    96,
			Sizes:   mmu.Sizes(k4, k16, k64, m2, m512),
			Hit:     0},
		L2: mmu.TLBConfig{
			Entries:  2048,
			Ways:     8,
			Sizes:    l2,
			Hit:      clk.CPUCycles(3),
			Coalesce: 0},
		Trace: traceTLB(l2),
		Walk: mmu.Config{WalkCache: [3]mmu.WalkCacheConfig{
			1: {Entries: 16, Ways: 4},
			2: {Entries: 64, Ways: 4},
		}},
		Linear: linearMap,
	}
}
