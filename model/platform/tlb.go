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
	l2 := mmu.Sizes(k4, k64, m1, m2, m512) // measured: A53 TRM DDI 0500E 5.2.2, main TLB "supports all VMSAv8 block sizes, except 1GB ... split into 512MB blocks"
	return soc.TLBConfig{Enabled: true,
		L1: mmu.TLBConfig{Entries: 10, Ways: 10, // measured: A53 TRM DDI 0500D 5.2.1, "micro TLB of ten entries" on the data side (fully associative)
			Sizes: mmu.Sizes(k4, k64, m1), // measured: A53 TRM, micro TLB entries of 4 KiB, 64 KiB and 1 MiB
			Hit:   0},                     // measured: A53 TRM, looked up in the load pipeline
		L2: mmu.TLBConfig{Entries: 512, Ways: 4, // measured: A53 TRM DDI 0500E 5.2.2, "a 512-entry, 4-way, set-associative structure"
			Sizes: l2,
			Hit:   clk.CPUCycles(3)}, // assumed [2, 8] cycles: A53 TRM 5.2.2 "take a variable number of cycles"
		Trace: traceTLB(l2),
		Walk: mmu.Config{WalkCache: [3]mmu.WalkCacheConfig{
			2: {Entries: 64, Ways: 4}}}, // measured: A53 TRM DDI 0500D 5.2.4, walk cache of level-2 table entries (its size not re-retrieved)
		Linear: linearMap, // derived: Linux map_mem block mapping
	}
}

// cortexA76TLB: Cortex-A76 / Neoverse N1 (neoverse-n1).
func cortexA76TLB(clk sim.Clocks) soc.TLBConfig {
	l2 := mmu.Sizes(k4, k16, k64, m2, m32, m512, g1) // measured: A76 TRM Table A5-3, "4KB, 16KB, 64KB, 2MB, 32MB, 512MB, and 1GB block sizes"
	return soc.TLBConfig{Enabled: true,
		L1: mmu.TLBConfig{Entries: 48, Ways: 48, // measured: A76 TRM A5.2.2, "48-entry fully associative"
			Sizes: mmu.Sizes(k4, k16, k64, m2, m512), // measured: A76 TRM A5.2.2, "4KB, 16KB, 64KB, 2MB, and 512MB granularity"
			Hit:   0},                                // measured: A76 TRM A5.2.2, "single CLK cycle", inside the L1D load latency
		L2: mmu.TLBConfig{Entries: 1280, Ways: 5, // measured: A76 TRM Table A5-3, "5-way, set associative, 1280-entry"
			Sizes:    l2,
			Hit:      clk.CPUCycles(3), // measured: A76 TRM A5.2.3, "usually takes three cycles"
			Coalesce: 4},               // measured: A76 TRM Table A6-31 (L2 TLB format): a coalesced entry holds four contiguous pages
		Trace: traceTLB(l2),
		Walk: mmu.Config{WalkCache: [3]mmu.WalkCacheConfig{
			1: {Entries: 16, Ways: 4}, // assumed [8, 64] entries: walk entries share the L2 TLB (Table A5-3), separate walk caches are not documented
			2: {Entries: 64, Ways: 4}, // assumed [8, 64] entries: as above
		}},
		Linear: linearMap, // derived: Linux map_mem block mapping
	}
}

// cortexX925TLB: C1-Ultra class (dimensity-9500; Cortex-X4 / X925
// lineage). The C1-Ultra manual was not available: what MODEL.md's table
// does not give is the A76's, assumed.
func cortexX925TLB(clk sim.Clocks) soc.TLBConfig {
	l2 := mmu.Sizes(k4, k16, k64, m2, m32, m512, g1) // assumed [4K+64K+2M+1G, these] sizes: the A76 TRM's L2 TLB page sizes
	return soc.TLBConfig{Enabled: true,
		L1: mmu.TLBConfig{
			Entries: 96,                                // measured: MODEL.md TLB table (X4, X925 / C1-Ultra), 96 entries
			Ways:    96,                                // assumed [8, 96] ways: fully associative as the A76's
			Sizes:   mmu.Sizes(k4, k16, k64, m2, m512), // assumed [4K+64K+2M, these] sizes: MODEL.md's A76 L1 DTLB entry sizes
			Hit:     0},                                // assumed [0, 1] cycles: looked up within the L1D load latency (A76: 1 cycle, MODEL.md)
		L2: mmu.TLBConfig{
			Entries:  2048, // measured: MODEL.md TLB table, 2048 entries
			Ways:     8,    // measured: MODEL.md TLB table, 8-way
			Sizes:    l2,
			Hit:      clk.CPUCycles(3), // assumed [3, 6] cycles: MODEL.md gives about 3 for the A76; a larger L2 TLB is likely slower
			Coalesce: 0},               // assumed [0, 4] pages: coalescing is not documented for these cores
		Trace: traceTLB(l2), // measured: C1-Ultra TRM (MODEL.md), a one-entry L1 TLB each for TRBE and SPE
		Walk: mmu.Config{WalkCache: [3]mmu.WalkCacheConfig{
			1: {Entries: 16, Ways: 4}, // assumed [0, 64] entries: the A76 preset's upper-level walk cache
			2: {Entries: 64, Ways: 4}, // assumed [16, 256] entries: as the A76 preset's
		}},
		Linear: linearMap, // derived: Linux map_mem block-maps RAM (4K + 2M + 1G leaves)
	}
}
