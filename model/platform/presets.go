// Package platform holds named hardware presets: complete boards (a
// soc.Config and, for the LS2088A, its SMMU) for real SoCs.
//
// Every hardware parameter has a dotted path in the schema (paths.go:
// "l2.latency", "smmu.tbu.tlb_entries"), with its unit and a getter and
// setter on a Board, and every preset a provenance table (prov_*.go) with
// one entry per parameter: measured (a document's section or table, or a
// published benchmark), derived (the formula), assumed (a plausible range
// and why) or fitted (to which published figure). A figure a parameter
// was fitted to is calibrated, not predicted; a preset is fitted only to
// its own scenario's figures. Tests fail when a parameter has no entry or
// an assumed value leaves its range.
package platform

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/provenance"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/smmu"
	"github.com/dmaviz/dmaviz/model/soc"
)

// Preset is a named configuration.
type Preset struct {
	Name  string
	Title string
	// Figure is the published measurement the preset is calibrated to.
	Figure string
	build  func() soc.Config
	// smmu builds the SoC's SMMU (nil: none in the model).
	smmu func() smmu.Config
	// table is the provenance of every parameter (one entry per schema
	// path the board has).
	table []provenance.Entry
}

var presets = []Preset{
	{Name: "juno-r2", Title: "Arm Juno r2, Cortex-A53 cluster",
		Figure: "ETR bounce buffer copy, 4 MiB: 8148.32 us coherent vs 2463.98 us cacheable + sync", build: junoR2, table: junoR2Provenance},
	{Name: "dimensity-9500", Title: "MediaTek Dimensity 9500, big core at 2.6 GHz",
		Figure: "dma_map_sg -64.61 %, dma_unmap_sg -66.60 % (2560 entries x 64 lines)", build: dimensity9500, table: dimensity9500Provenance},
	{Name: "neoverse-n1", Title: "Arm Neoverse N1 (Cortex-A76 class) server core",
		Figure: "none: uses MODEL.md latencies only", build: neoverseN1, table: neoverseN1Provenance},
	{Name: "ls2088a", Title: "NXP QorIQ LS2088A, Cortex-A72 cores, MMU-500",
		Figure: "SMMU bypass read latency about 140 -> about 50 platform cycles (SMTNMB_TLBEN)", build: ls2088a,
		smmu: LS2088ASMMU, table: ls2088aProvenance},
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
	p, err := find(name)
	if err != nil {
		return soc.Config{}, err
	}
	return p.build(), nil
}

func find(name string) (*Preset, error) {
	for i := range presets {
		if presets[i].Name == name {
			return &presets[i], nil
		}
	}
	return nil, fmt.Errorf("preset: %q is not one of %s", name, strings.Join(Names(), ", "))
}

// board builds a fresh board of the preset.
func (p *Preset) board() Board {
	b := Board{Config: p.build()}
	if p.smmu != nil {
		s := p.smmu()
		b.SMMU = &s
	}
	return b
}

func (p *Preset) prov() []provenance.Entry { return p.table }

// entry returns the preset's provenance of path (zero when it has none).
func (p *Preset) entry(path string) provenance.Entry {
	for _, e := range p.table {
		if e.Path == path {
			return e
		}
	}
	return provenance.Entry{}
}

// New builds a machine from the named preset with the run's seed.
func New(name string, seed uint64) (*soc.Machine, error) { return NewWith(name, nil, seed) }

// NewWith builds a machine from the named preset with the hardware
// overrides hw (BoardWith).
func NewWith(name string, hw map[string]float64, seed uint64) (*soc.Machine, error) {
	cfg, err := LookupWith(name, hw)
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
		NC: soc.NCConfig{Inflight: 8, DeviceInflight: 1, Latency: 0}, // assumed
		Maint: soc.MaintConfig{
			Issue:        clk.CPUCycles(2.6),   // fitted to the SG figure (MODEL.md: about 1 ns per DC op at 2.6 GHz)
			CleanLatency: 117 * sim.Nanosecond, // fitted to dma_map_sg -64.61 % (MODEL.md: drain about 117x the issue cost)
			InvalLatency: 128 * sim.Nanosecond, // fitted to dma_unmap_sg -66.60 % (MODEL.md: about 128x)
			Inflight:     256,                  // fitted to the SG figure: batched issue never waits for a slot (>= latency/issue = 128)
			IVACCleans:   true,                 // MODEL.md: on A76/N1-class cores IVAC behaves like CIVAC
			DSB:          0,                    // fitted to the SG figure: the drain is the op latency
		},
		TLB:      cortexX925TLB(clk), // Cortex-X4/X925 class (tlb.go)
		MemBytes: 16 << 30,           // assumed: 16 GiB phone
		MaxOrder: 10,                 // Linux MAX_PAGE_ORDER, 4 KiB pages
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
