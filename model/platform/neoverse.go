package platform

import (
	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
)

// neoverseN1 is a Neoverse N1 server core as in AWS Graviton2. No
// published figure is calibrated on it: nothing here is fitted. Sources:
// AnandTech "Cloud Clash: Amazon Graviton2" p.3 (latencies, memory),
// AnandTech Ampere Altra review p.2 (clock, SLC), chipsandcheese "Deep
// Diving Neoverse N1" (mesh clock, L2 bandwidth), the Cortex-A76 TRM
// (Arm 100798; N1 is A76-derived, its own TRM was not retrieved).
// Provenance as in juno.go.
func neoverseN1() soc.Config {
	clk := sim.Clocks{
		CPU:      2.5 * sim.GHz, // measured: AnandTech Altra review p.2, "2.5GHz of the Amazon chip"
		Platform: 2 * sim.GHz,   // assumed [1.8, 2.0] GHz: CMN-600 mesh; Altra runs it at 1.8 GHz, CMN-600 reaches 2 GHz (chipsandcheese)
		DRAM:     1.6 * sim.GHz, // measured: AnandTech Graviton2, "8 DDR4-3200 memory controllers"
	}
	return soc.Config{
		Name:   "neoverse-n1", // preset name
		Clocks: clk,
		Core: soc.CoreConfig{
			LoadIssue:        clk.CPUCycles(0.5), // measured: A76 TRM A6.1.2, "Two 128-bit read paths from the data L1 memory system to the datapath"
			StoreIssue:       clk.CPUCycles(0.5), // assumed [0.5, 1] cycles: A76 TRM A6.1.2 gives a 256-bit write path, not the store-data issue rate
			MLP:              20,                 // assumed [16, 46]: bounded by the L2's 46 outstanding transactions (A76 TRM Table A7-1)
			WriteStreamAfter: 4,                  // assumed [1, 8] lines: A76 TRM A6.2.6 write streaming mode, thresholds not published
		},
		L1D: cache.Config{Name: "l1d",
			Size:      64 << 10,         // measured: A76 TRM A6.1, 64 KiB
			Ways:      4,                // measured: A76 TRM A6.1.2, 4-way set associative
			LineBytes: 64,               // measured: A76 TRM A6.1.2, 64-byte lines
			Policy:    cache.PLRU,       // measured: A76 TRM A6.1.2, "Pseudo-LRU cache replacement policy"
			Latency:   clk.CPUCycles(4), // measured: AnandTech Graviton2, 4 cycles
		},
		L2: cache.Config{Name: "l2",
			Size:      1 << 20,           // measured: AnandTech Graviton2, "falls in at 1MB"
			Ways:      8,                 // measured: N1 TRM, 8-way (not re-retrieved)
			LineBytes: 64,                // measured: A76 TRM, 64-byte lines
			Policy:    cache.PLRU,        // assumed [PLRU, Random]: the A76 L2 uses a "dynamic biased replacement policy" (WikiChip); PLRU approximates it
			Latency:   clk.CPUCycles(11), // measured: AnandTech Graviton2, "11 cycles"
		},
		L3: cache.Config{Name: "l3",
			Size:      32 << 20,          // measured: AnandTech Altra review p.2, "32MB of distributed system level cache"
			Ways:      16,                // assumed [8, 16]: not published
			LineBytes: 64,                // measured: CMN-600 64-byte lines
			Policy:    cache.Random,      // assumed [PLRU, Random]: not published
			Latency:   clk.CPUCycles(75), // assumed [30, 120] cycles: an SLC slice several CMN-600 hops away at 1.8-2 GHz (the 26-31 cycles of mobile A76 are a DSU L3); no Graviton2 SLC figure found
		},
		Prefetch: soc.PrefetchConfig{
			PrefetchConfig: cache.PrefetchConfig{
				Streams:   8,  // assumed [4, 16]: not documented
				Degree:    16, // assumed [8, 32] lines: not documented
				Confirm:   2,  // assumed [1, 3]: not documented
				MaxStride: 8,  // assumed [1, 16] lines: not documented
				PageLines: 0,  // measured: A76 TRM "Data prefetching": the load side prefetcher uses the virtual address (crosses pages)
			},
			Inflight: 24, // assumed [16, 46]: bounded by the L2's 46 outstanding transactions (A76 TRM Table A7-1)
		},
		DRAM: soc.DRAMConfig{
			Latency:   81 * sim.Nanosecond, // measured: AnandTech Graviton2, "81ns structural estimate" (Arm: 83 ns)
			Bandwidth: 204.8e9 * 0.7,       // derived: 8 channels x DDR4-3200 x 8 B = 204.8e9 (AnandTech "204GB/s") x sustained share 0.7, assumed [0.6, 0.8]
			MinBurst:  64,                  // measured: DDR4 burst of 8 on a 64-bit channel (JEDEC)
		},
		NC: soc.NCConfig{
			Inflight:       8,  // assumed [4, 46]: bounded by the L2's 46 outstanding transactions (A76 TRM Table A7-1); no separate NC cap published
			ReadBytes:      16, // assumed [16, 64] B: a 128-bit read path (A76 TRM A6.1.2); no source says a 64-byte load issues as one non-cacheable burst
			DeviceInflight: 1,  // assumed [1, 4]: Device reads one at a time
			Latency:        0,  // assumed [0, 20] ns: the NC path is the DRAM path without cache lookups
		},
		Maint: soc.MaintConfig{
			Issue:        1 * sim.Nanosecond,  // assumed [0.4, 2] ns: no DC-op throughput published (not taken from another preset's fit)
			CleanLatency: 60 * sim.Nanosecond, // assumed [30, 90] ns: a CMO to the point of coherency at the CMN-600 home node, which holds the SLC
			InvalLatency: 60 * sim.Nanosecond, // derived: = maint.clean_latency (A76 TRM A6.2.4: DC IVAC is treated as DC CIVAC)
			Inflight:     46,                  // assumed [22, 46]: CMOs are L2 transactions, bounded by the configured transaction queue (A76 TRM Table A7-1: 22/34/46)
			IVACCleans:   true,                // measured: A76 TRM 100798 A6.2.4, "DC IVAC operations in AArch64 state are treated as DC CIVAC except for permission checking and watchpoint matching"
			DSB:          clk.CPUCycles(20),   // assumed [10, 100] cycles: not published
		},
		TLB:      cortexA76TLB(clk), // Cortex-A76 / Neoverse N1 (tlb.go)
		MemBytes: 16 << 30,          // assumed [8, 64] GiB: a Graviton2 instance's share; no timing effect
		MaxOrder: 10,                // derived: Linux MAX_PAGE_ORDER for 4 KiB pages
	}
}
