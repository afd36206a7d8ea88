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
		Figure: "ETR bounce buffer copy, 4 MiB: 8148.32 us coherent (dram.latency fitted to it); 2463.98 us (the patch) and 2525.42 us (as merged) cacheable + sync predicted", build: junoR2},
	{Name: "juno-r2-a72", Title: "Arm Juno r2, Cortex-A72 cluster",
		Figure: "none of its own: the ETR figure's core is not published; the board's DRAM latency is juno-r2's fit", build: junoR2A72},
	{Name: "dimensity-9500", Title: "MediaTek Dimensity 9500, big core at 2.6 GHz",
		Figure: "dma_map_sg -64.61 %, dma_unmap_sg -66.60 % (2560 entries x 64 lines)", build: dimensity9500},
	{Name: "neoverse-n1", Title: "Arm Neoverse N1 (Cortex-A76 class) server core",
		Figure: "none: nothing fitted; published Graviton2 / Altra measurements and the A76 TRM", build: neoverseN1},
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
			Inflight:       8,  // assumed [4, 46] transactions: bounded by the L2 transaction queue (A76 TRM Table A7-1)
			ReadBytes:      16, // assumed [16, 64] B: no source says a 64-byte load issues as one non-cacheable burst
			DeviceInflight: 1,  // assumed [1, 8] transactions
			Latency:        0,  // assumed [0, 20] ns: the NC path is the DRAM path without lookups
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
