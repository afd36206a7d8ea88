package platform

import (
	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/smmu"
	"github.com/dmaviz/dmaviz/model/soc"
)

// Sources cited below: NXP's Ben Eckermann, EDN Asia, "How to sculpt a
// 16-core 2 GHz comms processor" (LS2088A: eight Cortex-A72 at 2.0 GHz,
// "1 MB of L2 cache" per pair of cores, "1 MB of L3 platform cache");
// nxp-qoriq/rcw ls2088ardb/FFFFFFFF_PP_HH_0x2a_0x41/rcw_2000.rcw ("Core --
// 2000 MHz, Platform -- 800 MHz, DDR -- 2133 MHz"); the Cortex-A72 TRM
// (Arm 100095); the MMU-500 TRM (Arm DDI 0517).

// ls2088aClocks are the NXP QorIQ LS2088A's clock domains.
var ls2088aClocks = sim.Clocks{
	CPU:      2.0 * sim.GHz,     // measured: EDN (NXP) "eight Arm Cortex-A72 cores, each running at 2.0 GHz"; rcw_2000.rcw "Core -- 2000 MHz"
	Platform: 800 * sim.MHz,     // measured: rcw_2000.rcw "Platform -- 800 MHz" (the CCN-504 and the MMU-500; 700 MHz is the 1.8 GHz bin's)
	DRAM:     1066.67 * sim.MHz, // measured: rcw_2000.rcw "DDR -- 2133 MHz" (2133 MT/s, half that clock)
}

const m16 = 16 << 20

// ls2088a is the NXP LS2088A's cores and memory (the core runs l3fwd's
// route lookups in the smmu-bypass scenario).
func ls2088a() soc.Config {
	clk := ls2088aClocks
	return soc.Config{
		Name:   "ls2088a", // preset name
		Clocks: clk,
		Core: soc.CoreConfig{
			LoadIssue:        clk.CPUCycles(1), // measured: Cortex-A72 has one load and one store AGU pipe (A72 TRM 100095; chipsandcheese's A72 article: "two AGU pipes")
			StoreIssue:       clk.CPUCycles(1), // measured: one store AGU pipe (as LoadIssue)
			MLP:              6,                // measured: A72 TRM 100095 section 6.4 "up to six 64-byte cache line requests can be outstanding"
			WriteStreamAfter: 4,                // assumed [1, 8] lines: when write streaming starts after full-line store misses (not in the A72 TRM text found)
		},
		L1D: cache.Config{Name: "l1d",
			Size:      32 << 10,         // measured: A72 TRM 100095, 32 KiB L1 data cache
			Ways:      2,                // measured: A72 TRM 100095, 2-way (Juno's device tree: 0x8000 bytes in 256 sets)
			LineBytes: 64,               // measured: A72 TRM 100095, 64-byte lines
			Policy:    cache.LRU,        // measured: A72 TRM 100095, LRU L1D replacement
			Latency:   clk.CPUCycles(4), // measured: Cortex-A72 software optimization guide, 4-cycle load-to-use
		},
		L2: cache.Config{Name: "l2",
			Size:      1 << 20,           // measured: EDN (NXP) "For each pair of Arm cores, we allocated 1 MB of L2 cache"
			Ways:      16,                // measured: A72 TRM 100095, L2 memory system "16-way set-associative cache structure"
			LineBytes: 64,                // measured: A72 TRM 100095 "Fixed line length of 64 bytes"
			Policy:    cache.PLRU,        // measured: A72 TRM 100095 "pseudo-least-recently-used or pseudo-random" (programmable; PLRU taken)
			Latency:   clk.CPUCycles(21), // assumed [15, 25] cycles: A72 L2 load-to-use (published microbenchmarks; none retrieved for the LS2088A)
		},
		L3: cache.Config{Name: "l3",
			Size:      1 << 20,           // measured: EDN (NXP) "the LS2088A has 1 MB of L3 platform cache" (the CCN-504's)
			Ways:      16,                // assumed [8, 16] ways: CCN-504 L3 associativity not in the sources found
			LineBytes: 64,                // measured: CCN-504 64-byte lines (the A72's line)
			Policy:    cache.Random,      // assumed {LRU, PLRU, Random}: CCN-504 L3 replacement not in the sources found
			Latency:   clk.CPUCycles(50), // assumed [40, 80] cycles: core load-to-use of an L3 hit across the CCN-504 at the 800 MHz platform clock
		},
		Prefetch: soc.PrefetchConfig{
			PrefetchConfig: cache.PrefetchConfig{
				Streams:   4, // assumed [2, 8] streams: streams the A72 data prefetcher tracks
				Degree:    8, // assumed [2, 16] lines ahead
				Confirm:   2, // assumed [1, 4] misses before a stream is trusted
				MaxStride: 4, // assumed [1, 8] lines
				PageLines: 0, // measured: A72 TRM 100095 section 6.4.9, the prefetcher is VA-based by default and crosses pages ("Disable VA based prefetch ... restricted to within the page boundary", reset: enabled)
			},
			Inflight: 6, // assumed [2, 8] fills: prefetch fills share the six L1 fill buffers the demand misses use (A72 TRM section 6.4)
		},
		DRAM: soc.DRAMConfig{
			Latency:   100 * sim.Nanosecond, // assumed [80, 130] ns: core load-to-use from DDR4-2133; no LS2088A measurement found
			Bandwidth: 2 * 2133e6 * 8,       // derived: 2 controllers x 2133 MT/s x 8 bytes (two 64-bit DDR4 controllers, interleaved; LS2088A fact sheet)
			MinBurst:  64,                   // measured: JEDEC DDR4 burst of 8 x 64 bit
		},
		NC: soc.NCConfig{
			Inflight:       6,                  // measured: A72 TRM 100095 section 6.4, the six fill buffers also serve Non-cacheable reads
			DeviceInflight: 1,                  // assumed [1, 2] reads: Device reads one at a time
			Latency:        0 * sim.Nanosecond, // assumed [0, 20] ns: a Normal-NC read takes the DRAM path
			ReadBytes:      16,                 // assumed [16, 64] B: no source says a 64-byte load issues as one non-cacheable burst
		},
		Maint: soc.MaintConfig{
			Issue:        clk.CPUCycles(2),     // assumed [1, 4] cycles per DC op
			CleanLatency: 110 * sim.Nanosecond, // assumed [80, 200] ns: about one DRAM round trip to the point of coherency
			InvalLatency: 110 * sim.Nanosecond, // derived: = CleanLatency (the same trip)
			Inflight:     8,                    // assumed [5, 16] ops: DC ops outstanding; the A72's issuing capability was not found (the A53 family's is 5)
			IVACCleans:   true,                 // assumed [false, true]: no Cortex-A72 statement found either way; its A53/A32/A35 and A76 neighbours clean a dirty line on DC IVAC, and every core does under KVM (HCR_EL2.{DC,VM} != 00, Arm ARM DC IVAC)
			DSB:          clk.CPUCycles(20),    // assumed [10, 100] cycles: DSB with nothing outstanding
		},
		TLB:      cortexA72TLB(clk),
		MemBytes: 1 << 30, // assumed [1, 16] GiB: the board has 8-16 GiB; the model keeps 1 GiB (no timing effect, a small buddy is fast to build)
		MaxOrder: 10,      // derived: Linux MAX_PAGE_ORDER for 4 KiB pages
	}
}

// cortexA72TLB: Cortex-A72 (ls2088a), from its own manual (A72 TRM
// 100095 section 5.2), not the A76's: no coalescing, its own entry sizes.
func cortexA72TLB(clk sim.Clocks) soc.TLBConfig {
	l2 := mmu.Sizes(k4, k64, m1, m2, m16, m512, g1) // measured: A72 TRM 100095 section 5.2.3, "supports the page sizes of 4K, 64K, 1MB and 16MB", "2MB and 1GB", "512MB"
	return soc.TLBConfig{Enabled: true,
		L1: mmu.TLBConfig{
			Entries: 32,                     // measured: A72 TRM 100095, 32-entry L1 data TLB
			Ways:    32,                     // measured: A72 TRM 100095, fully associative
			Sizes:   mmu.Sizes(k4, k64, m1), // measured: A72 L1 data TLB "native support for 4 KiB, 64 KiB, and 1 MB page sizes"
			Hit:     0,                      // assumed [0, 1] cycles: looked up in the load pipeline, inside the 4-cycle load-to-use
		},
		L2: mmu.TLBConfig{
			Entries:  1024,             // measured: A72 TRM 100095 section 5.2.3, "a 1024-entry 4-way set-associative structure"
			Ways:     4,                // measured: same
			Sizes:    l2,               // measured: see l2
			Hit:      clk.CPUCycles(3), // assumed [2, 8] cycles: the TRM says "a variable number of cycles"
			Coalesce: 0,                // measured: the A72 TRM's L2 TLB (section 5.2.3) documents no coalescing
		},
		Trace: traceTLB(l2), // assumed: the A72 has no TRBE or SPE; the model's trace ports keep the one-entry shape
		Walk: mmu.Config{WalkCache: [3]mmu.WalkCacheConfig{
			1: {Entries: 16, Ways: 4}, // assumed [8, 64] entries: walk cache of the upper levels (sizes not in the TRM text found)
			2: {Entries: 64, Ways: 4}, // assumed [16, 128] entries: level-2 table entries
		}},
		Linear: linearMap, // derived: Linux map_mem (1 GiB and 2 MiB blocks)
	}
}

// LS2088ASMMU is the LS2088A's Arm CoreLink MMU-500 and its port to the
// interconnect. One parameter is fitted (LinkCycles, to the published
// about 140 platform cycles with SMTNMB_TLBEN off); the about 50 with it
// on is a prediction: the TBU hit, the port and the read path the machine
// derives from its own latencies (soc.Machine.IOTimes).
func LS2088ASMMU() smmu.Config {
	clk := ls2088aClocks
	return smmu.Config{
		Clock:          clk.Platform, // assumed [400, 800] MHz: the MMU-500 runs on the 800 MHz platform clock (its clock on the LS2088A is not in the sources found)
		TLBEntries:     512,          // assumed [32, 2048] entries: chosen at integration, LS2088A's not published; a published MMU-500 integration (Intel Stratix 10 HPS TRM) has 32- and 128-entry TBU micro TLBs and a 512-entry macro TLB in the TCU, and the model's one TBU TLB stands for both
		TLBWays:        4,            // assumed [2, 8] ways: MMU-500 TRM (DDI 0517 section 2.4.5) gives 4-way for its walk and IPA-to-PA caches; the TBU TLB's text was not retrieved
		HitCycles:      2,            // measured: MMU-500 TRM (DDI 0517 section 2.1) "best-case hit latency of this caching is two clocks"
		RegisterSlices: false,        // assumed {false, true}: without the TBU register slices (DDI 0517 section 2.1: "three clocks" with them)
		Reads:          128,          // measured: MMU-500 TRM (DDI 0517 section 2.3.5) "128 outstanding transactions each for write and read"
		Writes:         128,          // measured: same
		Walks:          8,            // measured: MMU-500 TRM (DDI 0517 section 2.3.5) "only eight such parallel PTWs for a TBU"
		// fitted to 140 (SMTNMB_TLBEN off, MODEL.md section 4): a miss is
		// the hit lookup (2), two trips (2 x LinkCycles), the stream match
		// (8) and the read below the SMMU: the port (4) and, at the
		// scenario's paper setting, a snoop of the core's cluster, which
		// holds the frame's rewritten header line (31.6 cycles:
		// soc.IOTimes of this preset), so (140 - 2 - 8 - 35.6) / 2 = 47.2;
		// 47 is the integer whose run comes closest (TestLS2088ALinkFit).
		LinkCycles:     47,
		TCUIssueCycles: 2,       // assumed [1, 4] cycles: the TCU takes one request every 2 cycles
		MatchCycles:    8,       // assumed [2, 16] cycles: SMR compare and S2CR read in the TCU
		BypassBytes:    2 << 20, // assumed {4KiB, 64KiB, 2MiB, 1GiB}: the range one cached bypass entry covers
		WalkCache: mmu.Config{WalkCache: [3]mmu.WalkCacheConfig{
			1: {Entries: 16, Ways: 4}, // assumed [8, 64] entries: MMU-500 TCU walk cache, upper levels (DDI 0517 section 2.4; sizes are integration options)
			2: {Entries: 64, Ways: 4}, // assumed [16, 256] entries: level-2 table entries
		}},
		Bus: smmu.BusConfig{
			Port: clk.Platform.Cycles(4), // assumed [0, 20] cycles: TBU master port to the CCN-504's I/O bridge and back (a register slice each way)
		},
	}
}
