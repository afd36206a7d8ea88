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
// Each value's provenance is in prov_neoversen1.go.
func neoverseN1() soc.Config {
	clk := sim.Clocks{
		CPU:      2.5 * sim.GHz,
		Platform: 2 * sim.GHz,
		DRAM:     1.6 * sim.GHz,
	}
	return soc.Config{
		Name:   "neoverse-n1",
		Clocks: clk,
		Core: soc.CoreConfig{
			LoadIssue:        clk.CPUCycles(0.5),
			StoreIssue:       clk.CPUCycles(0.5),
			MLP:              20,
			WriteStreamAfter: 4,
		},
		L1D: cache.Config{Name: "l1d",
			Size:      64 << 10,
			Ways:      4,
			LineBytes: 64,
			Policy:    cache.PLRU,
			Latency:   clk.CPUCycles(4),
		},
		L2: cache.Config{Name: "l2",
			Size:      1 << 20,
			Ways:      8,
			LineBytes: 64,
			Policy:    cache.PLRU,
			Latency:   clk.CPUCycles(11),
		},
		L3: cache.Config{Name: "l3",
			Size:      32 << 20,
			Ways:      16,
			LineBytes: 64,
			Policy:    cache.Random,
			Latency:   clk.CPUCycles(75),
		},
		Prefetch: soc.PrefetchConfig{
			PrefetchConfig: cache.PrefetchConfig{
				Streams:   8,
				Degree:    16,
				Confirm:   2,
				MaxStride: 8,
				PageLines: 0,
			},
			Inflight: 24,
		},
		DRAM: soc.DRAMConfig{
			Latency:   81 * sim.Nanosecond,
			Bandwidth: 204.8e9 * 0.7,
			MinBurst:  64,
		},
		NC: soc.NCConfig{
			Inflight:       8,
			ReadBytes:      16,
			DeviceInflight: 1,
			Latency:        0,
		},
		Maint: soc.MaintConfig{
			Issue:        1 * sim.Nanosecond,
			CleanLatency: 60 * sim.Nanosecond,
			InvalLatency: 60 * sim.Nanosecond,
			Inflight:     46,
			IVACCleans:   true,
			DSB:          clk.CPUCycles(20),
		},
		TLB:      cortexA76TLB(clk),
		MemBytes: 16 << 30,
		MaxOrder: 10,
	}
}
