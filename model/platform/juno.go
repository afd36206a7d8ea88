package platform

import (
	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
)

// Arm Juno r2: a big.LITTLE board with a Cortex-A53 cluster (juno-r2) and
// a Cortex-A72 cluster (juno-r2-a72) on one CCI-400 and DMC-400. The ETR
// figure does not say which cluster copied the trace (a 4 MiB copy in
// 2464 us needs at least 1.7 GB/s of cached copy, more than published
// single-core A53 copy rates: Orange Pi Zero 3 A53 @1.5 GHz tinymembench
// "C copy 1464.8 MB/s", geerlingguy/sbc-reviews #35), so both clusters
// are presets. Sources: SCP = ARM-software/SCP-firmware, dts =
// arch/arm64/boot/dts/arm/juno-r2.dts, A53 TRM = Arm DDI 0500, A72 TRM =
// Arm 100095. Provenance: "measured" (source), "derived" (formula),
// "assumed [lo, hi]" (why), "fitted to" (figure).

// junoDRAMLatency is the board's DRAM round trip as the CPU's Normal-NC
// reads see it (CCI-400 + DMC-400 + DDR3L); the board has no published
// figure for it.
//
// fitted to the ETR figure's coherent time (8148.32 us, tmc_update_etr_buffer
// with dma_alloc_coherent, 4 MiB), on juno-r2 and only there: with
// nc.inflight (4, measured) and the copy's 16-byte loads fixed, the
// coherent time depends on this one unknown. Solved in one dimension (the
// secant method on the etr scenario's coherent update time at its default
// settings, TestJunoR2DRAMLatencyFit); plausible range for an A53 behind
// a CCI-400 and a DMC-400 [100, 180] ns.
const junoDRAMLatency = 123752 * sim.Picosecond

// junoClocks are the board's clock domains with the given core clock.
func junoClocks(cpu sim.Freq) sim.Clocks {
	return sim.Clocks{
		CPU:      cpu,
		Platform: 533 * sim.MHz, // measured: SCP module/juno_soc_clock (CCICLK_CONTROL_CLOCK 533 MHz); TF-A docs/perf/psci-performance-juno.rst "AXI subsystem 533"
		DRAM:     800 * sim.MHz, // assumed [667, 800] MHz: DDR3L-1600 I/O clock; the DMC-400's speed on Juno r2 is not published (SCP config_juno_dmc400.c shows two DDR PHYs only)
	}
}

// junoDRAM is the board's memory as one core sees it.
func junoDRAM() soc.DRAMConfig {
	return soc.DRAMConfig{
		Latency:   junoDRAMLatency, // fitted to the ETR figure (coherent time), see junoDRAMLatency
		Bandwidth: 6.4e9,           // assumed [3.2e9, 12.8e9] B/s: two DMC-400 channels (SCP); width and rate not published
		MinBurst:  64,              // assumed [32, 64] B: DDR3 burst of 8 on a 64-bit channel (32 B on a 32-bit one); channel width not published
	}
}

func junoR2() soc.Config {
	clk := junoClocks(950 * sim.MHz) // assumed [800, 950] MHz: SCP config_dvfs.c cpu_group_little_r2 OPPs 450/800/950 (sustained 800); the figure's OPP is unstated, the top one under a busy copy
	prefetchInflight := 5            // measured: A53 TRM CPUACTLR_EL1.L1PCTL reset value, 5 outstanding prefetches
	return soc.Config{
		Name:   "juno-r2", // preset name
		Clocks: clk,
		Core: soc.CoreConfig{
			LoadIssue:        clk.CPUCycles(1),     // measured: A53 TRM 2.1: one load/store pipeline, one LDP per cycle
			StoreIssue:       clk.CPUCycles(1),     // measured: A53 TRM 2.1: one STP per cycle
			MLP:              8 - prefetchInflight, // derived: 8 data linefills per core (A53 TRM Table 7-5, ACE read issuing capability) - prefetch.inflight
			WriteStreamAfter: 4,                    // assumed [3, 128] lines: A53 TRM DDI 0500D 6.2 "Read allocate mode" after a threshold of full-line writes (CPUACTLR_EL1.L1RADIS; reset value not retrieved; the A35/A7 family text says three lines, the L2's threshold is about 128)
		},
		L1D: cache.Config{Name: "l1d",
			Size:      32 << 10,         // measured: dts A53_0 d-cache-size 0x8000
			Ways:      4,                // derived: 32 KiB / (128 sets (dts d-cache-sets) x 64 B)
			LineBytes: 64,               // measured: dts d-cache-line-size 64
			Policy:    cache.Random,     // measured: A53 TRM DDI 0500D 2.1.6, data cache "Pseudo-random cache replacement policy"
			Latency:   clk.CPUCycles(3), // measured: A53 TRM, 3-cycle load-to-use
		},
		L2: cache.Config{Name: "l2",
			Size:      1 << 20,           // measured: dts A53_L2 cache-size 0x100000
			Ways:      16,                // measured: A53 TRM 2.1.7 "16-way set associative"
			LineBytes: 64,                // measured: A53 TRM 2.1.7 "64 byte cache lines"
			Policy:    cache.PLRU,        // assumed [PLRU, Random]: not documented
			Latency:   clk.CPUCycles(15), // assumed [12, 21] cycles: no A53 L2 latency measurement found
		},
		Prefetch: soc.PrefetchConfig{
			PrefetchConfig: cache.PrefetchConfig{
				Streams:   4,                // assumed [1, 8]: not documented
				Degree:    prefetchInflight, // derived: = prefetch.inflight (a stream cannot run further ahead than its outstanding slots while DRAM paces the misses)
				Confirm:   2,                // measured: trains on the third miss of a stride (A7 TRM DDI 0464D 6.5.2, same prefetcher family; A53 CPUACTLR_EL1 STRIDE)
				MaxStride: 4,                // measured: A35 TRM 100236 A6.5 (A53 family), "a fixed stride pattern that lies in four cache lines, plus or minus"
				PageLines: 64,               // assumed [0, 64] lines: stops at 4 KiB pages (physical-address prefetch); not documented for the A53
			},
			Inflight: prefetchInflight,
		},
		DRAM: junoDRAM(),
		NC: soc.NCConfig{
			Inflight:       4,  // measured: A53 TRM Table 7-5, "4 non-cacheable or Device data reads" per core
			ReadBytes:      16, // assumed [16, 64] B: an A53 non-cacheable read may be one 128-bit beat or an INCR2/INCR4 burst (A53 ACE subset, Stratix 10 HPS TRM 3.5.10); no source says a 64-byte load (LD1 x4, LDP Q pairs) issues as one burst, and Zynq US+ A53 copies with LDP Q got about 250 MB/s uncached vs 800 MB/s cached (ikwzm/udmabuf #16), no gain from wider loads
			DeviceInflight: 1,  // assumed [1, 4]: the same Table 7-5 cap is shared with Device reads; nGnRE to one device taken one at a time
			Latency:        0,  // assumed [0, 20] ns: the NC path is the DRAM path without cache lookups
		},
		Maint: soc.MaintConfig{
			Issue:        clk.CPUCycles(4),     // assumed [1, 8] cycles: no DC-op throughput published for the A53
			CleanLatency: 100 * sim.Nanosecond, // assumed [40, 150] ns: one CCI-400 snoop round trip (DC ops are broadcast: BROADCASTINNER must be HIGH in big.LITTLE, A53 TRM DDI 0500D 7.2.2)
			InvalLatency: 100 * sim.Nanosecond, // derived: = maint.clean_latency (DC IVAC executes as clean+invalidate, maint.ivac_cleans)
			Inflight:     5,                    // measured: A53 TRM Table 7-5, "5 coherency operations" per core
			// measured: A53 TRM DDI 0500 6.2.4 "Data cache maintenance
			// considerations" and AMD/Xilinx UG643 (Zynq UltraScale+ A53):
			// "In Cortex-A53, functionality to simply invalid the
			// cachelines is not present ... promoted to clean and
			// invalidate"; the same-family Cortex-A32 TRM (Arm 100241) A5.5
			// words it "If the data is dirty within the cluster then a
			// clean is performed before the invalidate". Under KVM
			// (HCR_EL2.{DC,VM} != 00) every core executes DC IVAC as
			// DC CIVAC (Arm ARM, DC IVAC).
			IVACCleans: true,
			DSB:        clk.CPUCycles(10), // assumed [10, 150] cycles: the A53 may send barriers on ACE ("1 barrier operation", Table 7-5), a CCI round trip
		},
		TLB:      cortexA53TLB(clk), // Cortex-A53 (tlb.go)
		MemBytes: 8 << 30,           // measured: Juno r2, 8 GiB DDR3L
		MaxOrder: 10,                // derived: Linux MAX_PAGE_ORDER for 4 KiB pages
	}
}

// junoR2A72 is the same board's Cortex-A72 cluster. It fits nothing of
// its own: the DRAM it shares with juno-r2 keeps the latency fitted there.
func junoR2A72() soc.Config {
	clk := junoClocks(1200 * sim.MHz) // assumed [1000, 1200] MHz: SCP config_dvfs.c cpu_group_big_r2 OPPs 600/1000/1200 (sustained 1000)
	const fills = 6                   // measured: A72 TRM 6.4, "up to six 64-byte cache line requests can be outstanding"; the fill buffers serve "cache line fills and Non-cacheable reads"
	return soc.Config{
		Name:   "juno-r2-a72", // preset name
		Clocks: clk,
		Core: soc.CoreConfig{
			LoadIssue:        clk.CPUCycles(1), // measured: A72 has one load and one store pipeline (A72 Software Optimization Guide 2.1; chipsandcheese A72: one load AGU, one store AGU)
			StoreIssue:       clk.CPUCycles(1), // measured: as load_issue
			MLP:              fills,            // measured: A72 TRM 6.4 (above)
			WriteStreamAfter: 4,                // assumed [1, 8] lines: A72 write streaming threshold not published
		},
		L1D: cache.Config{Name: "l1d",
			Size:      32 << 10,         // measured: dts A72_0 d-cache-size 0x8000
			Ways:      2,                // derived: 32 KiB / (256 sets (dts d-cache-sets) x 64 B)
			LineBytes: 64,               // measured: dts d-cache-line-size 64
			Policy:    cache.LRU,        // measured: A72 TRM 6.4 (LRU replacement)
			Latency:   clk.CPUCycles(4), // measured: A72 Software Optimization Guide, 4-cycle load-to-use
		},
		L2: cache.Config{Name: "l2",
			Size:      2 << 20,           // measured: dts A72_L2 cache-size 0x200000
			Ways:      16,                // derived: 2 MiB / (2048 sets (dts) x 64 B)
			LineBytes: 64,                // measured: A72 TRM, 64-byte lines
			Policy:    cache.PLRU,        // assumed [PLRU, Random]: not documented
			Latency:   clk.CPUCycles(21), // assumed [15, 25] cycles: no Juno A72 L2 measurement found
		},
		Prefetch: soc.PrefetchConfig{
			PrefetchConfig: cache.PrefetchConfig{
				Streams:   4,     // assumed [1, 8]: not documented
				Degree:    fills, // derived: = prefetch.inflight (as juno-r2)
				Confirm:   2,     // assumed [1, 3]: not documented
				MaxStride: 4,     // assumed [1, 8] lines: not documented
				PageLines: 0,     // measured: A72 TRM 6.4.9, VA-based prefetch crosses pages (at reset; "Disable VA based prefetch" restricts it to the page)
			},
			Inflight: fills, // assumed [1, 6]: bounded by the six fill buffers (A72 TRM 6.4)
		},
		DRAM: junoDRAM(), // the board's (the latency is juno-r2's fit: derived here, fitted there)
		NC: soc.NCConfig{
			Inflight:       fills, // measured: A72 TRM 6.4, the six fill buffers also serve Non-cacheable reads
			ReadBytes:      16,    // assumed [16, 64] B: as juno-r2; no source says a 64-byte load issues as one burst
			DeviceInflight: 1,     // assumed [1, 4]: Device reads one at a time
			Latency:        0,     // assumed [0, 20] ns: as juno-r2
		},
		Maint: soc.MaintConfig{
			Issue:        clk.CPUCycles(4),     // assumed [1, 8] cycles: no DC-op throughput published for the A72
			CleanLatency: 100 * sim.Nanosecond, // assumed [40, 150] ns: one CCI-400 snoop round trip, as juno-r2 (same interconnect, broadcast maintenance)
			InvalLatency: 100 * sim.Nanosecond, // derived: = maint.clean_latency (maint.ivac_cleans)
			Inflight:     8,                    // assumed [5, 16]: the A72's outstanding maintenance is not published (the A53's is 5)
			IVACCleans:   true,                 // assumed [false, true]: no A72 statement found either way; its A53/A32/A35 and A76 neighbours clean, and every core does under KVM (HCR_EL2.{DC,VM} != 00, Arm ARM DC IVAC)
			DSB:          clk.CPUCycles(10),    // assumed [10, 150] cycles: as juno-r2
		},
		TLB:      cortexA72TLB(clk), // Cortex-A72 (ls2088a.go)
		MemBytes: 8 << 30,           // measured: Juno r2, 8 GiB DDR3L
		MaxOrder: 10,                // derived: Linux MAX_PAGE_ORDER for 4 KiB pages
	}
}
