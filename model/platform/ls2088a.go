package platform

import (
	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/smmu"
	"github.com/dmaviz/dmaviz/model/soc"
)

// ls2088aClocks are the NXP QorIQ LS2088A's clock domains.
var ls2088aClocks = sim.Clocks{
	CPU:      2.0 * sim.GHz,  // LS2088A fact sheet: Cortex-A72 cores up to 2.0 GHz
	Platform: 700 * sim.MHz,  // assumed: a 700 MHz platform clock (CCN-504 and the MMU-500 run on it)
	DRAM:     1066 * sim.MHz, // LS2088A fact sheet: DDR4 up to 2133 MT/s
}

// ls2088a is the NXP LS2088A's cores and memory (the core runs l3fwd's
// route lookups in the smmu-bypass scenario).
func ls2088a() soc.Config {
	clk := ls2088aClocks
	return soc.Config{
		Name:   "ls2088a", // preset name
		Clocks: clk,
		Core: soc.CoreConfig{
			LoadIssue:        clk.CPUCycles(0.5), // Cortex-A72 TRM: two load/store pipelines (one load + one store per cycle)
			StoreIssue:       clk.CPUCycles(1),   // Cortex-A72 TRM: one store per cycle
			MLP:              6,                  // assumed: A72 L1D handles about 6 outstanding line fills
			WriteStreamAfter: 4,                  // assumed: write streaming after a few full-line store misses
		},
		L1D: cache.Config{Name: "l1d",
			Size:      32 << 10,         // Cortex-A72 TRM: 32 KiB L1D
			Ways:      2,                // Cortex-A72 TRM: 2-way
			LineBytes: 64,               // Cortex-A72 TRM: 64-byte lines
			Policy:    cache.LRU,        // Cortex-A72 TRM: LRU
			Latency:   clk.CPUCycles(4), // Cortex-A72 optimization guide: 4-cycle load-to-use
		},
		L2: cache.Config{Name: "l2",
			Size:      1 << 20,           // LS2088A fact sheet: 1 MiB L2 per cluster of two cores
			Ways:      16,                // Cortex-A72 TRM: 16-way L2
			LineBytes: 64,                // Cortex-A72 TRM: 64-byte lines
			Policy:    cache.PLRU,        // assumed
			Latency:   clk.CPUCycles(21), // assumed: about 21 cycles (A72 L2 load-to-use, published microbenchmarks)
		},
		L3: cache.Config{Name: "l3",
			Size:      8 << 20,           // LS2088A fact sheet: 8 MiB CoreNet platform cache (CCN-504 L3)
			Ways:      16,                // assumed
			LineBytes: 64,                // 64-byte lines
			Policy:    cache.Random,      // assumed
			Latency:   clk.CPUCycles(50), // assumed
		},
		Prefetch: soc.PrefetchConfig{
			PrefetchConfig: cache.PrefetchConfig{Streams: 4, Degree: 8, Confirm: 2, MaxStride: 4, PageLines: 64}, // assumed: stays within a 4 KiB page
			Inflight:       8,                                                                                    // assumed
		},
		DRAM: soc.DRAMConfig{
			Latency:   100 * sim.Nanosecond, // assumed: MODEL.md's 90-120 ns range for a non-server part
			Bandwidth: 2 * 17e9,             // LS2088A fact sheet: two 64-bit DDR4-2133 controllers (17 GB/s each), interleaved
			MinBurst:  64,                   // DDR4 burst of 8 x 64 bit
		},
		NC: soc.NCConfig{Inflight: 8, DeviceInflight: 1, Latency: 0, // assumed
			ReadBytes: 16}, // assumed [16, 64] B: no source says a 64-byte load issues as one non-cacheable burst
		Maint: soc.MaintConfig{
			Issue:        clk.CPUCycles(2),     // assumed
			CleanLatency: 110 * sim.Nanosecond, // assumed: about one DRAM round trip
			InvalLatency: 110 * sim.Nanosecond, // assumed: about one DRAM round trip
			Inflight:     32,                   // assumed
			IVACCleans:   true,                 // assumed [false, true]: no Cortex-A72 statement found either way; its A53/A32/A35 and A76 neighbours clean a dirty line on DC IVAC, and every core does under KVM (HCR_EL2.{DC,VM} != 00, Arm ARM DC IVAC)
			DSB:          clk.CPUCycles(20),    // assumed
		},
		TLB: cortexA72TLB(clk),
		// The scenario's buffers are small; the real board has 8-16 GiB
		// (the size changes no timing, a small buddy is fast to build).
		MemBytes: 1 << 30,
		MaxOrder: 10, // Linux MAX_PAGE_ORDER, 4 KiB pages
	}
}

// cortexA72TLB: Cortex-A72 (ls2088a).
func cortexA72TLB(clk sim.Clocks) soc.TLBConfig {
	t := cortexA76TLB(clk)            // assumed: entry sizes, hit time and walk caches as A76
	t.L1.Entries, t.L1.Ways = 32, 32  // Cortex-A72 TRM: 32-entry fully associative L1 DTLB
	t.L2.Entries, t.L2.Ways = 1024, 4 // Cortex-A72 TRM: 1024-entry 4-way unified L2 TLB (as A57, MODEL.md)
	t.Trace = traceTLB(t.L2.Sizes)
	return t
}

// LS2088ASMMU is the LS2088A's Arm CoreLink MMU-500 and the path below it.
// The two latencies are fitted to the published bypass figure (MODEL.md
// section 4: about 140 platform cycles with SMTNMB_TLBEN off, about 50 on)
// with the scenario's default l3fwd load; everything else is the MMU-500
// TRM or assumed.
func LS2088ASMMU() smmu.Config {
	clk := ls2088aClocks
	return smmu.Config{
		Clock:          clk.Platform,
		TLBEntries:     512,     // assumed: MMU-500 TBU TLB size is chosen at integration; LS2088A's is not published
		TLBWays:        4,       // MMU-500 TRM: the TBU macro TLB is 4-way set associative
		HitCycles:      2,       // MMU-500 TRM: best-case TBU hit 2 clocks
		RegisterSlices: false,   // assumed: no TBU register slices (3 clocks with them)
		Reads:          128,     // MODEL.md / MMU-500 TRM: 128 outstanding reads per TBU
		Writes:         128,     // MODEL.md / MMU-500 TRM: 128 outstanding writes per TBU
		Walks:          8,       // MODEL.md / MMU-500 TRM: at most 8 translations in flight per TBU
		LinkCycles:     40,      // fitted to 140 cycles (bit off): TBU <-> TCU trip over the interconnect
		TCUIssueCycles: 2,       // assumed: the TCU takes one request every 2 cycles
		MatchCycles:    8,       // assumed: SMR compare and S2CR read in the TCU
		BypassBytes:    2 << 20, // assumed: a cached bypass is held as a 2 MiB identity entry
		WalkCache: mmu.Config{WalkCache: [3]mmu.WalkCacheConfig{
			1: {Entries: 16, Ways: 4}, // assumed: MMU-500 TCU walk cache, upper levels
			2: {Entries: 64, Ways: 4}, // assumed: MMU-500 TCU walk cache, level-2 table entries
		}},
		Bus: smmu.BusConfig{
			ReadLatency:  clk.Platform.Cycles(48), // fitted to 50 cycles (bit on): the 2-cycle hit plus this
			WriteLatency: clk.Platform.Cycles(30), // assumed: posted write response from the interconnect
		},
	}
}
