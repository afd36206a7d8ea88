// Package platform holds named hardware presets: complete soc.Config values
// for real SoCs, each parameter with its source (a TRM, the facts table in
// MODEL.md) or "fitted to <figure>" when it was chosen so that the model's
// mechanism reproduces a published measurement. A preset is calibrated
// only to its own seed figure (juno-r2 to the ETR copy, dimensity-9500 to
// SG batching); everything else the model reports on it is a prediction.
package platform

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
)

// Preset is a named configuration.
type Preset struct {
	Name  string
	Title string
	// Figure is the published measurement the preset is calibrated to.
	Figure string
	build  func() soc.Config
}

var presets = []Preset{
	{Name: "juno-r2", Title: "Arm Juno r2, Cortex-A53 cluster",
		Figure: "ETR bounce buffer copy, 4 MiB: 8148.32 us coherent vs 2463.98 us cacheable + sync", build: junoR2},
	{Name: "dimensity-9500", Title: "MediaTek Dimensity 9500, big core at 2.6 GHz",
		Figure: "dma_map_sg -64.61 %, dma_unmap_sg -66.60 % (2560 entries x 64 lines)", build: dimensity9500},
	{Name: "neoverse-n1", Title: "Arm Neoverse N1 (Cortex-A76 class) server core",
		Figure: "none: uses MODEL.md latencies only", build: neoverseN1},
	{Name: "ls2088a", Title: "NXP QorIQ LS2088A, Cortex-A72 cores, MMU-500",
		Figure: "SMMU bypass read latency about 140 -> about 50 platform cycles (SMTNMB_TLBEN)", build: ls2088a},
}

// Names returns the preset names, sorted.
func Names() []string {
	out := make([]string, len(presets))
	for i, p := range presets {
		out[i] = p.Name
	}
	sort.Strings(out)
	return out
}

// Presets returns every preset (name, title, figure), sorted by name.
func Presets() []Preset {
	out := append([]Preset(nil), presets...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns a fresh copy of the named preset's configuration, or an
// error naming the allowed presets.
func Lookup(name string) (soc.Config, error) {
	for _, p := range presets {
		if p.Name == name {
			return p.build(), nil
		}
	}
	return soc.Config{}, fmt.Errorf("preset: %q is not one of %s", name, strings.Join(Names(), ", "))
}

// New builds a machine from the named preset with the run's seed.
func New(name string, seed uint64) (*soc.Machine, error) {
	cfg, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	return soc.New(cfg, seed)
}

func junoR2() soc.Config {
	clk := sim.Clocks{
		CPU:      950 * sim.MHz, // Juno r2 TRM: Cortex-A53 cluster nominal clock
		Platform: 400 * sim.MHz, // assumed: CCI-400 interconnect clock
		DRAM:     800 * sim.MHz, // Juno r2: DDR3L-1600 (800 MHz I/O clock)
	}
	return soc.Config{
		Name:   "juno-r2", // preset name
		Clocks: clk,
		Core: soc.CoreConfig{
			LoadIssue:        clk.CPUCycles(1), // A53 TRM: one load/store pipe, one LDP per cycle
			StoreIssue:       clk.CPUCycles(1), // A53 TRM: one STP per cycle
			MLP:              3,                // fitted to the ETR figure (cacheable copy); A53 is in-order with few outstanding linefills
			WriteStreamAfter: 4,                // A53 TRM: write streaming (no-allocate) after consecutive full-line writes; threshold assumed
		},
		L1D: cache.Config{Name: "l1d",
			Size:      32 << 10,         // Juno r2: 32 KiB L1D per A53
			Ways:      4,                // A53 TRM: 4-way
			LineBytes: 64,               // A53 TRM: 64-byte lines
			Policy:    cache.PLRU,       // assumed
			Latency:   clk.CPUCycles(3), // A53 TRM: 3-cycle load-to-use
		},
		L2: cache.Config{Name: "l2",
			Size:      1 << 20,           // Juno r2: 1 MiB L2 in the A53 cluster
			Ways:      16,                // A53 TRM: 16-way
			LineBytes: 64,                // A53 TRM: 64-byte lines
			Policy:    cache.PLRU,        // assumed
			Latency:   clk.CPUCycles(15), // assumed: A53 L2 hit about 15 cycles
		},
		Prefetch: soc.PrefetchConfig{
			PrefetchConfig: cache.PrefetchConfig{Streams: 4, // assumed: a few independent streams
				Degree:    8,  // fitted to the ETR figure (cacheable copy)
				Confirm:   2,  // assumed: trains on the third miss of a stride
				MaxStride: 4,  // assumed
				PageLines: 64, // A53 prefetches by physical address: stops at 4 KiB pages
			},
			Inflight: 5, // A53 TRM CPUACTLR_EL1.L1PCTL reset value: 5 outstanding prefetches
		},
		DRAM: soc.DRAMConfig{
			Latency:   124 * sim.Nanosecond, // fitted to the ETR figure (coherent copy) with nc.inflight 4; typical of A53 + CCI-400 + DDR3
			Bandwidth: 6.4e9,                // assumed: half of DDR3L-1600 x 64-bit peak (12.8 GB/s)
			MinBurst:  64,                   // DDR3 burst of 8 on a 64-bit channel
		},
		NC: soc.NCConfig{
			Inflight:       4, // fitted to the ETR figure: arm64 memcpy issues four 16-byte LDPs per 64-byte block before its first STP needs data
			DeviceInflight: 1, // Device-nGnRE: no gathering, one at a time
			Latency:        0, // assumed: the NC path is the DRAM path without lookups
		},
		Maint: soc.MaintConfig{
			Issue:        clk.CPUCycles(4),     // assumed: a DC op occupies the A53 load/store pipe a few cycles
			CleanLatency: 100 * sim.Nanosecond, // assumed: one interconnect round trip to the point of coherency
			InvalLatency: 100 * sim.Nanosecond, // assumed: as clean
			Inflight:     8,                    // fitted to the ETR figure (cacheable + DC IVAC sync)
			IVACCleans:   false,                // A53: IVAC invalidates without cleaning
			DSB:          clk.CPUCycles(10),    // assumed: barrier with nothing outstanding
		},
		TLB:      cortexA53TLB(clk), // Cortex-A53 (tlb.go)
		MemBytes: 8 << 30,           // Juno r2: 8 GiB DDR3L
		MaxOrder: 10,                // Linux MAX_PAGE_ORDER, 4 KiB pages
	}
}

// dimensity9500 is CPU7 of the Dimensity 9500, its one Arm C1-Ultra
// (assumed: MediaTek numbers the ultra core last), as the SG figure ran it.
// Facts from MediaTek's launch material: C1-Ultra at up to 4.21 GHz with
// 2 MB of private L2, a 16 MB L3 (beyond it a 10 MB SLC, not modelled),
// the L1 cache doubled over the Dimensity 9400's X925, LPDDR5X at 10667
// MT/s. The C1-Ultra manual was not available: where it would decide, the
// value is an A76-class one, assumed with a range.
func dimensity9500() soc.Config {
	clk := sim.Clocks{
		CPU:      2.6 * sim.GHz,   // measured: batched DMA sync cover letter, "pinning the task to CPU7 and fixing the CPU frequency at 2.6 GHz"
		Platform: 1.5 * sim.GHz,   // assumed [1.0, 2.2] GHz: DSU/interconnect clock, not published
		DRAM:     5.333 * sim.GHz, // measured: MediaTek, LPDDR5X 10667 MT/s (half-rate clock)
	}
	return soc.Config{
		Name:   "dimensity-9500", // preset name
		Clocks: clk,
		Core: soc.CoreConfig{
			LoadIssue:        clk.CPUCycles(1.0 / 3), // assumed [0.25, 0.5] cycles: three load pipes; C1-Ultra pipes not documented
			StoreIssue:       clk.CPUCycles(0.5),     // assumed [0.33, 1] cycles: two store pipes
			MLP:              32,                     // assumed [20, 64] fills: A76's L2 already tracks 46 misses (TRM Table A7-1); X-class tracks more
			WriteStreamAfter: 4,                      // assumed [1, 8] lines: A76 TRM A6.2.6 write streaming after "stores pending to a full cache line", thresholds unpublished
		},
		L1D: cache.Config{Name: "l1d",
			Size:      128 << 10,        // measured: MediaTek "doubled the L1 cache" over the Dimensity 9400's X925 (64 KiB)
			Ways:      4,                // assumed [4, 8] ways: not published
			LineBytes: 64,               // measured: MODEL.md common hardware, 64-byte lines
			Policy:    cache.PLRU,       // assumed [PLRU, LRU] policy: A76/A77 TRMs say pseudo-LRU (A76 A6.1.2)
			Latency:   clk.CPUCycles(4), // assumed [4, 5] cycles: A76/N1 class measured 4 (MODEL.md, AnandTech Graviton2); C1-Ultra unmeasured
		},
		L2: cache.Config{Name: "l2",
			Size:      2 << 20,           // measured: MediaTek, "2MB of L2 cache for the Ultra core"
			Ways:      8,                 // assumed [8, 16] ways: not published
			LineBytes: 64,                // measured: MODEL.md, 64-byte lines
			Policy:    cache.PLRU,        // assumed [PLRU, LRU] policy: as L1D
			Latency:   clk.CPUCycles(11), // assumed [9, 15] cycles: MODEL.md gives A76/N1 9-11; a 2 MiB X-class L2 is likely slower
		},
		L3: cache.Config{Name: "l3",
			Size:      16 << 20,          // measured: MediaTek, "increased the L3 cache from 12MB to 16MB"
			Ways:      16,                // assumed [12, 16] ways: not published
			LineBytes: 64,                // measured: MODEL.md, 64-byte lines
			Policy:    cache.Random,      // assumed [Random, PLRU] policy: not published
			Latency:   clk.CPUCycles(30), // assumed [26, 60] cycles: WikiChip A76 DSU L3 26-31 cycles at 2-4 MiB; 16 MiB is likely slower
		},
		Prefetch: soc.PrefetchConfig{
			PrefetchConfig: cache.PrefetchConfig{
				Streams:   8,  // assumed [4, 16] streams
				Degree:    16, // assumed [8, 32] lines
				Confirm:   2,  // assumed [1, 3] misses
				MaxStride: 8,  // assumed [4, 16] lines
				PageLines: 0,  // measured: A76 TRM "Data prefetching", the load prefetcher uses the virtual address, so it crosses pages
			},
			Inflight: 32, // assumed [16, 64] fills: bounded by the L2 transaction queue (A76: 46)
		},
		DRAM: soc.DRAMConfig{
			Latency:   110 * sim.Nanosecond, // assumed [90, 130] ns: MODEL.md, mobile LPDDR about 90-120 ns; no Dimensity 9500 measurement
			Bandwidth: 30e9,                 // assumed [20e9, 60e9] B/s: one core's share of the 85.3 GB/s peak (10667 MT/s x 8 B), unpublished
			MinBurst:  64,                   // measured: LPDDR5X x16 channel, BL32 = 64 B
		},
		NC: soc.NCConfig{
			Inflight:       8, // assumed [4, 46] transactions: bounded by the L2 transaction queue (A76 TRM Table A7-1)
			DeviceInflight: 1, // assumed [1, 8] transactions
			Latency:        0, // assumed [0, 20] ns: the NC path is the DRAM path without lookups
		},
		Maint: soc.MaintConfig{
			Issue:        clk.CPUCycles(2.6),      // assumed [1, 5] cycles: 0.38-1.9 ns at 2.6 GHz; no DC-op throughput published for any A76-class core (software optimization guides searched)
			CleanLatency: 40 * sim.Nanosecond,     // assumed [20, 110] ns: one CMO round trip to the point of coherency through the DSU; DRAM latency is the upper end
			InvalLatency: 40 * sim.Nanosecond,     // derived: = CleanLatency; A76-family DC IVAC is "treated as DC CIVAC" (TRM 100798 A6.2.4) and the unmap's lines are clean, so it is the same CMO
			Inflight:     46,                      // assumed [22, 64] ops: A76 TRM Table A7-1 read issuing capability 22/34/46 by L2 TQ size, the largest for an X-class core; the C1-Ultra manual was not found
			IVACCleans:   true,                    // measured: A76 TRM 100798 A6.2.4 (family wording; C1-Ultra manual not found); at EL1 under KVM DC IVAC is DC CIVAC on any core
			DSB:          113500 * sim.Picosecond, // fitted to dma_map_sg -64.61 % (sg-sync, this preset): D = (B0 - q*A0)/(q*N - 1), q = 1 - 0.6461, N = 2560 DSBs per per-entry call, A0/B0 = per-entry/batched dma_map_sg at maint.dsb 0 (317.44/215.08 us) -> 113.52 ns (sgsync TestMaintDSBIsFittedToTheMapFigure)
		},
		TLB:      cortexX925TLB(clk), // C1-Ultra class (tlb.go)
		MemBytes: 16 << 30,           // assumed [8, 24] GiB: a phone's RAM; no timing effect
		MaxOrder: 10,                 // derived: Linux MAX_PAGE_ORDER for 4 KiB pages
	}
}

func neoverseN1() soc.Config {
	clk := sim.Clocks{
		CPU:      2.5 * sim.GHz, // assumed: Graviton2-class N1 at 2.5 GHz
		Platform: 2 * sim.GHz,   // assumed: CMN-600 mesh clock
		DRAM:     1.6 * sim.GHz, // assumed: DDR4-3200
	}
	return soc.Config{
		Name:   "neoverse-n1", // preset name
		Clocks: clk,
		Core: soc.CoreConfig{
			LoadIssue:        clk.CPUCycles(0.5), // N1 TRM: two load/store pipes
			StoreIssue:       clk.CPUCycles(0.5), // N1 TRM: two load/store pipes
			MLP:              20,                 // assumed: N1 L1D tracks about 20 outstanding misses
			WriteStreamAfter: 4,                  // assumed: N1 write streaming mode threshold
		},
		L1D: cache.Config{Name: "l1d",
			Size:      64 << 10,         // N1 TRM: 64 KiB L1D
			Ways:      4,                // N1 TRM: 4-way
			LineBytes: 64,               // N1 TRM: 64-byte lines
			Policy:    cache.PLRU,       // assumed
			Latency:   clk.CPUCycles(4), // MODEL.md: L1D hit 4 cycles
		},
		L2: cache.Config{Name: "l2",
			Size:      1 << 20,           // N1 TRM: 1 MiB private L2 (largest option; Graviton2)
			Ways:      8,                 // N1 TRM: 8-way
			LineBytes: 64,                // N1 TRM: 64-byte lines
			Policy:    cache.PLRU,        // assumed
			Latency:   clk.CPUCycles(11), // MODEL.md: L2 9-11 cycles
		},
		L3: cache.Config{Name: "l3",
			Size:      32 << 20,          // assumed: 32 MiB SLC (Graviton2)
			Ways:      16,                // assumed
			LineBytes: 64,                // MODEL.md: 64-byte lines
			Policy:    cache.Random,      // assumed
			Latency:   clk.CPUCycles(30), // MODEL.md: L3 about 30 cycles
		},
		Prefetch: soc.PrefetchConfig{
			PrefetchConfig: cache.PrefetchConfig{Streams: 8, Degree: 16, Confirm: 2, MaxStride: 8, PageLines: 0}, // assumed: VA-trained, crosses pages
			Inflight:       24,                                                                                   // assumed
		},
		DRAM: soc.DRAMConfig{
			Latency:   82 * sim.Nanosecond, // MODEL.md: DRAM load about 81-83 ns (Graviton2)
			Bandwidth: 19 * 2.5e9,          // MODEL.md: N1 single-thread L2 bandwidth about 19 B/cycle
			MinBurst:  64,                  // DDR4 burst of 8 x 64 bit
		},
		NC: soc.NCConfig{Inflight: 8, DeviceInflight: 1, Latency: 0}, // assumed
		Maint: soc.MaintConfig{
			Issue:        clk.CPUCycles(2.6),  // assumed: as the fitted A76-class issue cost (about 1 ns)
			CleanLatency: 90 * sim.Nanosecond, // assumed: about one DRAM round trip (MODEL.md)
			InvalLatency: 95 * sim.Nanosecond, // assumed: about one DRAM round trip (MODEL.md)
			Inflight:     128,                 // assumed
			IVACCleans:   true,                // MODEL.md: on A76/N1-class cores IVAC behaves like CIVAC
			DSB:          clk.CPUCycles(20),   // assumed
		},
		TLB:      cortexA76TLB(clk), // Cortex-A76 / Neoverse N1 (tlb.go)
		MemBytes: 16 << 30,          // assumed
		MaxOrder: 10,                // Linux MAX_PAGE_ORDER, 4 KiB pages
	}
}
