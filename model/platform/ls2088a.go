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
	Platform: 700 * sim.MHz,
	DRAM:     1066 * sim.MHz,
}

// ls2088a is the NXP LS2088A's cores and memory (the core runs l3fwd's
// route lookups in the smmu-bypass scenario).
func ls2088a() soc.Config {
	clk := ls2088aClocks
	return soc.Config{
		Name:   "ls2088a",
		Clocks: clk,
		Core: soc.CoreConfig{
			LoadIssue:        clk.CPUCycles(0.5),
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
			Size:      8 << 20,
			Ways:      16,
			LineBytes: 64,
			Policy:    cache.Random,
			Latency:   clk.CPUCycles(50),
		},
		Prefetch: soc.PrefetchConfig{
			PrefetchConfig: cache.PrefetchConfig{Streams: 4, Degree: 8, Confirm: 2, MaxStride: 4, PageLines: 64},
			Inflight:       8,
		},
		DRAM: soc.DRAMConfig{
			Latency:   100 * sim.Nanosecond,
			Bandwidth: 2 * 17e9,
			MinBurst:  64,
		},
		NC: soc.NCConfig{Inflight: 8, DeviceInflight: 1, Latency: 0,
			ReadBytes: 16},
		Maint: soc.MaintConfig{
			Issue:        clk.CPUCycles(2),
			CleanLatency: 110 * sim.Nanosecond,
			InvalLatency: 110 * sim.Nanosecond,
			Inflight:     32,
			IVACCleans:   true,
			DSB:          clk.CPUCycles(20),
		},
		TLB:      cortexA72TLB(clk),
		MemBytes: 1 << 30,
		MaxOrder: 10,
	}
}

// cortexA72TLB: Cortex-A72 (ls2088a).
func cortexA72TLB(clk sim.Clocks) soc.TLBConfig {
	t := cortexA76TLB(clk)
	t.L1.Entries, t.L1.Ways = 32, 32
	t.L2.Entries, t.L2.Ways = 1024, 4
	t.L1I = mmu.TLBConfig{Entries: 48, Ways: 48, Sizes: mmu.Sizes(k4, k64, m1)}
	t.Trace = traceTLB(t.L2.Sizes)
	return t
}

// LS2088ASMMU is the LS2088A's Arm CoreLink MMU-500 and the path below it.
// Each value's provenance, with the core's, is in prov_ls2088a.go.
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
		LinkCycles:     40,
		TCUIssueCycles: 2,
		MatchCycles:    8,
		BypassBytes:    2 << 20,
		WalkCache: mmu.Config{WalkCache: [3]mmu.WalkCacheConfig{
			1: {Entries: 16, Ways: 4},
			2: {Entries: 64, Ways: 4},
		}},
		Bus: smmu.BusConfig{
			ReadLatency:  clk.Platform.Cycles(48),
			WriteLatency: clk.Platform.Cycles(30),
		},
	}
}
