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
// are presets. Each value's provenance is in prov_junor2.go and
// prov_junor2a72.go.

// junoDRAMLatency is the board's DRAM round trip as the CPU's Normal-NC
// reads see it (CCI-400 + DMC-400 + DDR3L): juno-r2's one fitted
// parameter (prov_junor2.go says to which figure and how).
const junoDRAMLatency = 123752 * sim.Picosecond

// junoClocks are the board's clock domains with the given core clock.
func junoClocks(cpu sim.Freq) sim.Clocks {
	return sim.Clocks{
		CPU:      cpu,
		Platform: 533 * sim.MHz,
		DRAM:     800 * sim.MHz,
	}
}

// junoDRAM is the board's memory as one core sees it.
func junoDRAM() soc.DRAMConfig {
	return soc.DRAMConfig{
		Latency:   junoDRAMLatency,
		Bandwidth: 6.4e9,
		MinBurst:  64,
	}
}

func junoR2() soc.Config {
	clk := junoClocks(950 * sim.MHz)
	prefetchInflight := 5
	return soc.Config{
		Name:   "juno-r2",
		Clocks: clk,
		Core: soc.CoreConfig{
			LoadIssue:        clk.CPUCycles(1),
			StoreIssue:       clk.CPUCycles(1),
			MLP:              8 - prefetchInflight,
			WriteStreamAfter: 4,
		},
		L1D: cache.Config{Name: "l1d",
			Size:      32 << 10,
			Ways:      4,
			LineBytes: 64,
			Policy:    cache.Random,
			Latency:   clk.CPUCycles(3),
		},
		L2: cache.Config{Name: "l2",
			Size:      1 << 20,
			Ways:      16,
			LineBytes: 64,
			Policy:    cache.PLRU,
			Latency:   clk.CPUCycles(15),
		},
		Prefetch: soc.PrefetchConfig{
			PrefetchConfig: cache.PrefetchConfig{
				Streams:   4,
				Degree:    prefetchInflight,
				Confirm:   2,
				MaxStride: 4,
				PageLines: 64,
			},
			Inflight: prefetchInflight,
		},
		DRAM: junoDRAM(),
		NC: soc.NCConfig{
			Inflight:       4,
			ReadBytes:      16,
			DeviceInflight: 1,
			Latency:        0,
		},
		Maint: soc.MaintConfig{
			Issue:        clk.CPUCycles(4),
			CleanLatency: 100 * sim.Nanosecond,
			InvalLatency: 100 * sim.Nanosecond,
			Inflight:     5,
			IVACCleans:   true,
			DSB:          clk.CPUCycles(10),
		},
		TLB:      cortexA53TLB(clk),
		MemBytes: 8 << 30,
		MaxOrder: 10,
	}
}

// junoR2A72 is the same board's Cortex-A72 cluster. It fits nothing of
// its own: the DRAM it shares with juno-r2 keeps the latency fitted there.
func junoR2A72() soc.Config {
	clk := junoClocks(1200 * sim.MHz)
	const fills = 6
	return soc.Config{
		Name:   "juno-r2-a72",
		Clocks: clk,
		Core: soc.CoreConfig{
			LoadIssue:        clk.CPUCycles(1),
			StoreIssue:       clk.CPUCycles(1),
			MLP:              fills,
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
			Size:      2 << 20,
			Ways:      16,
			LineBytes: 64,
			Policy:    cache.PLRU,
			Latency:   clk.CPUCycles(21),
		},
		Prefetch: soc.PrefetchConfig{
			PrefetchConfig: cache.PrefetchConfig{
				Streams:   4,
				Degree:    fills,
				Confirm:   2,
				MaxStride: 4,
				PageLines: 0,
			},
			Inflight: fills,
		},
		DRAM: junoDRAM(),
		NC: soc.NCConfig{
			Inflight:       fills,
			ReadBytes:      16,
			DeviceInflight: 1,
			Latency:        0,
		},
		Maint: soc.MaintConfig{
			Issue:        clk.CPUCycles(4),
			CleanLatency: 100 * sim.Nanosecond,
			InvalLatency: 100 * sim.Nanosecond,
			Inflight:     8,
			IVACCleans:   true,
			DSB:          clk.CPUCycles(10),
		},
		TLB:      cortexA72TLB(clk),
		MemBytes: 8 << 30,
		MaxOrder: 10,
	}
}
