package platform

import (
	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
)

// dimensity9500 is CPU7 of the Dimensity 9500, its one Arm C1-Ultra
// (assumed: MediaTek numbers the ultra core last), as the SG figure ran it.
// Facts from MediaTek's launch material: C1-Ultra at up to 4.21 GHz with
// 2 MB of private L2, a 16 MB L3 (beyond it a 10 MB SLC, not modelled),
// the L1 cache doubled over the Dimensity 9400's X925, LPDDR5X at 10667
// MT/s. The C1-Ultra manual was not available: where it would decide, the
// value is an A76-class one, assumed with a range. Each value's provenance
// is in prov_dimensity9500.go.
func dimensity9500() soc.Config {
	clk := sim.Clocks{
		CPU:      2.6 * sim.GHz,
		Platform: 1.5 * sim.GHz,
		DRAM:     5.333 * sim.GHz,
	}
	return soc.Config{
		Name:   "dimensity-9500",
		Clocks: clk,
		Core: soc.CoreConfig{
			LoadIssue:        clk.CPUCycles(1.0 / 3),
			StoreIssue:       clk.CPUCycles(0.5),
			MLP:              32,
			WriteStreamAfter: 4,
		},
		L1D: cache.Config{Name: "l1d",
			Size:      128 << 10,
			Ways:      4,
			LineBytes: 64,
			Policy:    cache.PLRU,
			Latency:   clk.CPUCycles(4),
		},
		L2: cache.Config{Name: "l2",
			Size:      2 << 20,
			Ways:      8,
			LineBytes: 64,
			Policy:    cache.PLRU,
			Latency:   clk.CPUCycles(11),
		},
		L3: cache.Config{Name: "l3",
			Size:      16 << 20,
			Ways:      16,
			LineBytes: 64,
			Policy:    cache.Random,
			Latency:   clk.CPUCycles(30),
		},
		Prefetch: soc.PrefetchConfig{
			PrefetchConfig: cache.PrefetchConfig{
				Streams:   8,
				Degree:    16,
				Confirm:   2,
				MaxStride: 8,
				PageLines: 0,
			},
			Inflight: 32,
		},
		DRAM: soc.DRAMConfig{
			Latency:   110 * sim.Nanosecond,
			Bandwidth: 30e9,
			MinBurst:  64,
		},
		NC: soc.NCConfig{
			Inflight:       8,
			ReadBytes:      16,
			DeviceInflight: 1,
			Latency:        0,
		},
		Maint: soc.MaintConfig{
			Issue:        clk.CPUCycles(2.6),
			CleanLatency: 40 * sim.Nanosecond,
			InvalLatency: 40 * sim.Nanosecond,
			Inflight:     46,
			IVACCleans:   true,
			DSB:          113500 * sim.Picosecond,
		},
		TLB:      cortexX925TLB(clk),
		MemBytes: 16 << 30,
		MaxOrder: 10,
	}
}
