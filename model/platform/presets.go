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

func dimensity9500() soc.Config {
	clk := sim.Clocks{
		CPU:      2.6 * sim.GHz, // MODEL.md SG figure: task on CPU7 fixed at 2.6 GHz
		Platform: 1.5 * sim.GHz, // assumed: DSU/interconnect clock
		DRAM:     4.8 * sim.GHz, // assumed: LPDDR5X-9600 (half-rate clock)
	}
	return soc.Config{
		Name:   "dimensity-9500", // preset name
		Clocks: clk,
		Core: soc.CoreConfig{
			LoadIssue:        clk.CPUCycles(1.0 / 3), // assumed: three load pipes (X-class core)
			StoreIssue:       clk.CPUCycles(0.5),     // assumed: two store pipes
			MLP:              32,                     // assumed: X-class cores track dozens of L1 misses
			WriteStreamAfter: 4,                      // assumed: write streaming as on other Arm cores
		},
		L1D: cache.Config{Name: "l1d",
			Size:      64 << 10,         // assumed: X-class 64 KiB
			Ways:      4,                // assumed
			LineBytes: 64,               // MODEL.md: 64-byte lines
			Policy:    cache.PLRU,       // assumed
			Latency:   clk.CPUCycles(4), // MODEL.md: L1D hit 4 cycles (A76/N1 class)
		},
		L2: cache.Config{Name: "l2",
			Size:      2 << 20,           // assumed: 2 MiB private L2
			Ways:      8,                 // assumed
			LineBytes: 64,                // MODEL.md: 64-byte lines
			Policy:    cache.PLRU,        // assumed
			Latency:   clk.CPUCycles(11), // MODEL.md: L2 9-11 cycles
		},
		L3: cache.Config{Name: "l3",
			Size:      16 << 20,          // assumed: 16 MiB shared L3
			Ways:      16,                // assumed
			LineBytes: 64,                // MODEL.md: 64-byte lines
			Policy:    cache.Random,      // assumed
			Latency:   clk.CPUCycles(30), // MODEL.md: L3/cluster cache about 30 cycles
		},
		Prefetch: soc.PrefetchConfig{
			PrefetchConfig: cache.PrefetchConfig{Streams: 8, Degree: 16, Confirm: 2, MaxStride: 8, PageLines: 0}, // assumed: VA-trained, crosses pages
			Inflight:       32,                                                                                   // assumed
		},
		DRAM: soc.DRAMConfig{
			Latency:   110 * sim.Nanosecond, // MODEL.md: mobile LPDDR about 90-120 ns
			Bandwidth: 30e9,                 // assumed: share of LPDDR5X one core can use
			MinBurst:  64,                   // assumed
		},
		NC: soc.NCConfig{Inflight: 8, DeviceInflight: 1, Latency: 0, // assumed
			ReadBytes: 16}, // assumed [16, 64] B: no source says a 64-byte load issues as one non-cacheable burst
		Maint: soc.MaintConfig{
			Issue:        clk.CPUCycles(2.6),   // fitted to the SG figure (MODEL.md: about 1 ns per DC op at 2.6 GHz)
			CleanLatency: 117 * sim.Nanosecond, // fitted to dma_map_sg -64.61 % (MODEL.md: drain about 117x the issue cost)
			InvalLatency: 128 * sim.Nanosecond, // fitted to dma_unmap_sg -66.60 % (MODEL.md: about 128x)
			Inflight:     256,                  // fitted to the SG figure: batched issue never waits for a slot (>= latency/issue = 128)
			IVACCleans:   true,                 // assumed [false, true]: the C1-Ultra TRM was not retrieved; its A76-lineage TRMs treat DC IVAC as DC CIVAC (A76 TRM A6.2.4), and every core does under KVM (HCR_EL2.{DC,VM} != 00, Arm ARM DC IVAC)
			DSB:          0,                    // fitted to the SG figure: the drain is the op latency
		},
		TLB:      cortexX925TLB(clk), // Cortex-X4/X925 class (tlb.go)
		MemBytes: 16 << 30,           // assumed: 16 GiB phone
		MaxOrder: 10,                 // Linux MAX_PAGE_ORDER, 4 KiB pages
	}
}
