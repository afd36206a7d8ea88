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
	CPU:      2.0 * sim.GHz,
	Platform: 800 * sim.MHz,
	DRAM:     1066.67 * sim.MHz,
}

const m16 = 16 << 20

// ls2088a is the NXP LS2088A's cores and memory (the core runs l3fwd's
// route lookups in the smmu-bypass scenario). Each value's provenance is
// in prov_ls2088a.go.
func ls2088a() soc.Config {
	clk := ls2088aClocks
	return soc.Config{
		Name:   "ls2088a",
		Clocks: clk,
		Core: soc.CoreConfig{
			LoadIssue:        clk.CPUCycles(1),
			StoreIssue:       clk.CPUCycles(1),
			MLP:              6,
			WriteStreamAfter: 4,
		},
		L1D: cache.Config{Name: "l1d",
			Size:      32 << 10,
			Ways:      2,
			LineBytes: 64,
			Policy:    cache.LRU,
			Latency:   clk.CPUCycles(4),
		},
		L2: cache.Config{Name: "l2",
			Size:      1 << 20,
			Ways:      16,
			LineBytes: 64,
			Policy:    cache.PLRU,
			Latency:   clk.CPUCycles(21),
		},
		L3: cache.Config{Name: "l3",
			Size:      1 << 20,
			Ways:      16,
			LineBytes: 64,
			Policy:    cache.Random,
			Latency:   clk.CPUCycles(50),
		},
		Prefetch: soc.PrefetchConfig{
			PrefetchConfig: cache.PrefetchConfig{
				Streams:   4,
				Degree:    8,
				Confirm:   2,
				MaxStride: 4,
				PageLines: 0,
			},
			Inflight: 6,
		},
		DRAM: soc.DRAMConfig{
			Latency:   100 * sim.Nanosecond,
			Bandwidth: 2 * 2133e6 * 8,
			MinBurst:  64,
		},
		NC: soc.NCConfig{
			Inflight:       6,
			DeviceInflight: 1,
			Latency:        0 * sim.Nanosecond,
			ReadBytes:      16,
		},
		Maint: soc.MaintConfig{
			Issue:        clk.CPUCycles(2),
			CleanLatency: 110 * sim.Nanosecond,
			InvalLatency: 110 * sim.Nanosecond,
			Inflight:     8,
			IVACCleans:   true,
			DSB:          clk.CPUCycles(20),
		},
		TLB:      cortexA72TLB(clk),
		MemBytes: 8 << 30,
		MaxOrder: 10,
	}
}

// cortexA72TLB: Cortex-A72 (ls2088a), from its own manual (A72 TRM
// 100095 section 5.2), not the A76's: no coalescing, its own entry sizes.
func cortexA72TLB(clk sim.Clocks) soc.TLBConfig {
	l2 := mmu.Sizes(k4, k64, m1, m2, m16, m512, g1)
	return soc.TLBConfig{Enabled: true,
		L1: mmu.TLBConfig{
			Entries: 32,
			Ways:    32,
			Sizes:   mmu.Sizes(k4, k64, m1),
			Hit:     0,
		},
		L2: mmu.TLBConfig{
			Entries:  1024,
			Ways:     4,
			Sizes:    l2,
			Hit:      clk.CPUCycles(3),
			Coalesce: 0,
		},
		L1I:   mmu.TLBConfig{Entries: 48, Ways: 48, Sizes: mmu.Sizes(k4, k64, m1)},
		Trace: traceTLB(l2),
		Walk: mmu.Config{WalkCache: [3]mmu.WalkCacheConfig{
			1: {Entries: 16, Ways: 4},
			2: {Entries: 64, Ways: 4},
		}},
		Linear: linearMap,
	}
}

// LS2088ASMMU is the LS2088A's Arm CoreLink MMU-500 and its port to the
// interconnect; the machine's memory system answers below it
// (soc.Machine.IOAccess). Each value's provenance, with the core's, is in
// prov_ls2088a.go: one is fitted (smmu.link_cycles, to the bit-off 140),
// and the bit-on 50 is a prediction.
func LS2088ASMMU() smmu.Config {
	clk := ls2088aClocks
	return smmu.Config{
		Clock:          clk.Platform,
		TLBEntries:     512,
		TLBWays:        4,
		HitCycles:      2,
		RegisterSlices: false,
		Reads:          128,
		Writes:         128,
		Walks:          8,
		LinkCycles:     47,
		TCUIssueCycles: 2,
		MatchCycles:    8,
		BypassBytes:    2 << 20,
		WalkCache: mmu.Config{WalkCache: [3]mmu.WalkCacheConfig{
			1: {Entries: 16, Ways: 4},
			2: {Entries: 64, Ways: 4},
		}},
		Bus: smmu.BusConfig{
			Port: clk.Platform.Cycles(4),
		},
	}
}
