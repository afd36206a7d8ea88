// Package sgsync is the scatter-gather DMA cache-maintenance scenario
// ("sg-sync"): what does one DSB SY per scatterlist entry cost, compared
// with issuing every entry's maintenance and waiting once per call?
//
// The model is the soc machine, not a formula. A scatterlist of entries
// (sizes, physical scatter and alignment from the parameters) is laid over
// page frames from the machine's buddy allocator. The DMA API calls do what
// Linux does on a non-coherent arm64 device: dma_map_sg and
// dma_sync_sg_for_device clean every line to the point of coherency (DC
// CVAC, any direction); dma_unmap_sg and dma_sync_sg_for_cpu invalidate for
// FROM_DEVICE and BIDIRECTIONAL (dcache_inval_poc: DC CIVAC on a partial
// last and first line, DC IVAC on the rest) and do nothing for TO_DEVICE.
// The policies only decide where DSB SY goes: after every entry
// (per-entry-dsb, before Linux 7.1) or once at the end of the call
// (batched-dsb). Every time difference comes from the machine's
// maintenance queue (ops complete maint.clean/inval_latency after issue,
// maint.inflight of them at once) and DSB semantics (wait for every
// outstanding op, then the barrier's own maint.dsb). Every entry also
// costs the kernel's software work (kernelCost, assumed), on every path
// and under both policies. The IOMMU path adds IOVA allocation and
// page-table costs that are the same for both policies; the SWIOTLB path copies
// through a bounce pool and waits once per entry under both policies (the
// copy must follow the maintenance); a coherent device needs no
// maintenance at all.
//
// The workload repeats map, device transfer, unmap (or, with a persistent
// mapping, sync_for_device, transfer, sync_for_cpu) for the given number of
// iterations, with the CPU reading or writing the buffer around it. The CPU
// has read the buffer beforehand (unless cpu=none), so its lines are cached
// when the first map runs, as in the steady state, and a missing
// invalidate shows up as stale reads already in the recorded iteration.
//
// Extrapolation: 200 iterations of 10 MB are 65 M line operations, too
// many to simulate one by one within the budget. Run simulates iterations
// through the machine, line by line, until one iteration repeats the
// previous one (at least 2 and at most maxSimulated iterations, fewer when
// the list is so large that more would exceed the run's work budget: see
// bound.go), then adds the last simulated iteration's figures once for each
// remaining iteration. "Repeats" means the same DC ops and DSBs for every
// DMA API call and the same deltas of the maintenance, DMA and correctness
// counters (steadyCounters), exactly, and every call's time and the DSB
// and DC stall within steadyTolerance (0.5 %): the SWIOTLB bounce copies
// and a random-replacement L3 make times wander by a few tenths of a
// percent from one iteration to the next. The CPU's cache-refill counters
// are extrapolated from the last iteration without being part of the test
// (see steadyCounters). Tests check that the extrapolated figures equal a
// full simulation on smaller cases (counts and checks exactly, times within
// steadyTolerance, PMU counters within a few percent), also when the work
// budget stops the simulation at 2 iterations. If no iteration repeats
// within the cap, the last one is extrapolated all the same; the metric
// simulated_iterations shows how many were simulated. Only the first
// iteration is recorded into the timeline, in full. A setting whose two
// simulated iterations alone exceed the budget is refused, naming total.
package sgsync

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/dmaapi"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/soc"
)

// Policy ids.
const (
	PolicyPerEntry   = "per-entry-dsb"
	PolicyBatched    = "batched-dsb"
	PolicySkipDevice = "skip-sync-for-device"
	PolicySkipUnmap  = "skip-unmap"
)

// Source of the published figure.
const figureSource = "dma-mapping: batched DMA sync — MediaTek Dimensity 9500, CPU7 at 2.6 GHz, 10 MB of 4 KB entries, 200 iterations"

// harnessNote is how the published measurement ran, as far as it is
// known (the batched-sync cover letter): a custom harness, not published
// and not kernel/dma/map_benchmark.c (which maps single buffers).
const harnessNote = "The published figure came from a harness that was not published: dma_map_sg and dma_unmap_sg " +
	"on 10 MB lists of 4 KB entries (2560 entries), 200 iterations, the task pinned to CPU7 at 2.6 GHz, the defaults here. " +
	"Its DMA direction and the buffer's cache state were not published either: the defaults (DMA_FROM_DEVICE, the CPU " +
	"having read the data, so its lines are cached clean) are assumed, and the other directions and CPU uses show the range."

// Limits that keep a run within its memory and time budget.
const (
	maxEntries   = 32768
	swiotlbMax   = 256 << 10 // IO_TLB_SEGSIZE x IO_TLB_SIZE: the largest bounced mapping
	maxSimulated = 6
)

// Scenario is the SG sync scenario. The zero value is ready to use.
type Scenario struct{}

// New returns the scenario.
func New() *Scenario { return &Scenario{} }

// Spec describes the scenario.
func (*Scenario) Spec() *scenario.Spec {
	sp := &scenario.Spec{
		ID:         "sg-sync",
		Lesson:     lesson,
		LessonNote: lessonNote,
		Title:      "Scatter-gather DMA sync: one DSB per entry vs one per list",
		Explanation: "A non-coherent device needs cache maintenance around streaming DMA: dma_map_sg cleans every " +
			"line of the scatterlist to the point of coherency so the device reads what the CPU wrote (and no dirty " +
			"line is later written back over the device's data); dma_unmap_sg invalidates after the device wrote, so " +
			"the CPU does not read old copies. The DC ops are queued, as many in flight as the core's transaction " +
			"queue holds, and each completes a round trip to the point of coherency later; DSB SY waits until all of " +
			"them have, then for its own acknowledgement. Before Linux 7.1 each SG entry waited on its own, so a " +
			"2560-entry list waited 2560 times; batching issues every entry's ops and waits once. Every entry also " +
			"costs the kernel's own work (the list walk and the swiotlb, DMA-mask and bounce checks), on a coherent " +
			"device too; that cost is assumed, no one has published it. " + harnessNote,
		Params: []scenario.Param{
			{Name: "preset", Label: "Platform", Kind: scenario.KindChoice, Default: "dimensity-9500",
				Help:    "hardware preset (dimensity-9500 is calibrated to this figure)",
				Choices: scenario.Choices(platform.NameTitles()...)},
			{Name: "total", Label: "List size", Kind: scenario.KindBytes, Unit: "B", Default: "10MiB",
				Help: "bytes in the scatterlist: up to 64MiB when the CPU does not touch the list (cpu=none), about 30MiB with the default CPU use and direction, less with swiotlb, cpu=writes or bidirectional (a run simulates at most about 15 M units of work, a CPU access of a line counting 8 and a line the device or cache maintenance handles 1, so that it ends within a second or two)", Min: 4 << 10, Max: 64 << 20},
			{Name: "entry", Label: "Entry size", Kind: scenario.KindBytes, Unit: "B", Default: "4KiB",
				Help: "bytes per SG entry (the last one takes what is left)", Min: 512, Max: 1 << 20},
			{Name: "entry-mix", Label: "Entry sizes", Kind: scenario.KindChoice, Default: "uniform",
				Help:    "all entries the same size, or a seeded mix of half, equal and double sizes",
				Choices: scenario.Choices("uniform", "all the same size", "mixed", "mixed: entry/2, entry, 2 x entry")},
			{Name: "entry-offset", Label: "Entry offset", Kind: scenario.KindBytes, Unit: "B", Default: "0",
				Help: "where each entry starts in its first page; not a multiple of 64 gives partial first/last lines (DC CIVAC)",
				Min:  0, Max: 4095},
			{Name: "scatter", Label: "Scattered frames", Kind: scenario.KindBool, Default: "true",
				Help: "entries on separate, non-adjacent physical frames (else one contiguous buffer, entries packed)"},
			{Name: "path", Label: "DMA path", Kind: scenario.KindChoice, Default: "direct",
				Help: "direct mapping, IOMMU-backed, SWIOTLB bounce buffers, or a coherent device (control: no maintenance)",
				Choices: scenario.Choices("direct", "dma-direct (non-coherent device)", "iommu", "IOMMU (IOVA + page tables)",
					"swiotlb", "SWIOTLB bounce buffer", "coherent", "coherent device (no maintenance)")},
			{Name: "direction", Label: "Direction", Kind: scenario.KindChoice, Default: "from-device",
				Help:    "DMA direction: the map always cleans; the unmap invalidates unless TO_DEVICE (the published run's direction is unknown: from-device is assumed)",
				Choices: scenario.Choices("from-device", "DMA_FROM_DEVICE", "to-device", "DMA_TO_DEVICE", "bidirectional", "DMA_BIDIRECTIONAL")},
			{Name: "cpu", Label: "CPU use of the buffer", Kind: scenario.KindChoice, Default: "reads",
				Help:    "reads: the CPU reads received data (lines cached clean); writes: it also writes the buffer before each map (dirty lines: the cleans write them back); none: it never touches it (the published run's cache state is unknown: reads is assumed)",
				Choices: scenario.Choices("reads", "reads the data (clean lines)", "writes", "writes before the map (dirty lines)", "none", "never touches the buffer")},
			{Name: "mapping", Label: "Mapping", Kind: scenario.KindChoice, Default: "streaming",
				Help:    "streaming: dma_map_sg / dma_unmap_sg around every transfer; persistent: map once, dma_sync_sg_for_device / _for_cpu around every transfer",
				Choices: scenario.Choices("streaming", "map + unmap per transfer", "persistent", "map once, sync per transfer")},
			{Name: "iterations", Label: "Iterations", Kind: scenario.KindInt, Default: "200",
				Help: "transfers averaged", Min: 1, Max: 100000},
			{Name: "seed", Label: "Seed", Kind: scenario.KindInt, Default: "1",
				Help: "seed for the physical scatter and mixed sizes", Min: 0, Max: 1<<31 - 1},
		},
		Policies: []scenario.Policy{
			{ID: PolicyPerEntry, Title: "DSB per entry", Help: "each SG entry issues its DC ops then waits with its own DSB SY (before Linux 7.1)"},
			{ID: PolicyBatched, Title: "one DSB per list", Help: "every entry's DC ops are issued, then one DSB SY per call (Linux 7.1); SWIOTLB still waits per entry"},
			{ID: PolicySkipDevice, Title: "no clean for the device (bug)", Bug: true,
				Help: "batched, but the clean toward the device is skipped: the device reads DRAM older than dirty CPU lines, or dirty lines are written back over its data"},
			{ID: PolicySkipUnmap, Title: "no unmap (bug)", Bug: true,
				Help: "batched map, but the driver reads the data without dma_unmap_sg / dma_sync_sg_for_cpu: lines cached before the DMA are read stale"},
		},
		DefaultA:      PolicyPerEntry,
		DefaultB:      PolicyBatched,
		DefaultPreset: "dimensity-9500",
		References: []scenario.Reference{
			{Metric: "map_sg_us", Pair: scenario.PairChange, Value: -64.61, Tolerance: 3, Absolute: true, Source: figureSource},
			{Metric: "unmap_sg_us", Pair: scenario.PairChange, Value: -66.60, Tolerance: 3, Absolute: true, Source: figureSource},
		},
	}
	return withProvenance(sp)
}

// Path, direction and CPU use, parsed.
type (
	pathKind uint8
	dirKind  uint8
	cpuKind  uint8
)

const (
	pathDirect pathKind = iota
	pathIOMMU
	pathSWIOTLB
	pathCoherent
)

const (
	fromDevice dirKind = iota
	toDevice
	bidirectional
)

// api is the direction as the DMA API takes it.
func (d dirKind) api() dmaapi.Dir {
	return [...]dmaapi.Dir{dmaapi.FromDevice, dmaapi.ToDevice, dmaapi.Bidirectional}[d]
}

const (
	cpuReads cpuKind = iota
	cpuWrites
	cpuNone
)

// policy is what a policy id means to the calls.
type policy struct {
	perEntry   bool // DSB after every entry
	skipDevice bool // no clean toward the device
	skipUnmap  bool // no unmap / sync_for_cpu
}

// config is a run's validated parameters.
type config struct {
	preset     string
	over       map[string]float64 // hardware overrides (hw.<path>)
	sizes      []uint64           // entry sizes in list order
	entry      uint64
	total      uint64
	offset     uint64
	scatter    bool
	path       pathKind
	dir        dirKind
	cpu        cpuKind
	persistent bool
	iterations int
	seed       uint64
	// fullSim simulates every iteration (tests compare it with the
	// extrapolation).
	fullSim bool
	// pace gives way and counts progress (nil: not paced); see pace.go.
	pace *scenario.Pacer
	// budget overrides maxRunUnits for the simulation cap (tests).
	budget int64
	// kernel is the DMA API's per-entry work (kernelCost unless
	// overridden).
	kernel dmaapi.EntryCost
	// hw, if set, changes the preset's hardware (tests: the fit of
	// maint.dsb).
	hw func(*soc.Config)
}

func index(v string, names ...string) int {
	for i, n := range names {
		if n == v {
			return i
		}
	}
	return -1
}

// parse merges p over the defaults and validates the combination.
func parse(spec *scenario.Spec, p scenario.Params) (config, error) {
	full, err := spec.Resolve(p)
	if err != nil {
		return config{}, err
	}
	over, own := full.SplitHardware(spec.ID)
	kernel, err := kernelWith(own)
	if err != nil {
		return config{}, err
	}
	c := config{
		preset:     full.Text("preset"),
		over:       over,
		kernel:     kernel,
		entry:      uint64(full.Int("entry")),
		total:      uint64(full.Int("total")),
		offset:     uint64(full.Int("entry-offset")),
		scatter:    full.Bool("scatter"),
		path:       pathKind(index(full.Text("path"), "direct", "iommu", "swiotlb", "coherent")),
		dir:        dirKind(index(full.Text("direction"), "from-device", "to-device", "bidirectional")),
		cpu:        cpuKind(index(full.Text("cpu"), "reads", "writes", "none")),
		persistent: full.Text("mapping") == "persistent",
		iterations: int(full.Int("iterations")),
		seed:       uint64(full.Int("seed")),
	}
	c.sizes = entrySizes(c.total, c.entry, full.Text("entry-mix") == "mixed", c.seed)
	if len(c.sizes) > maxEntries {
		return config{}, fmt.Errorf("entry: %s gives %d entries for total %s; allowed at most %d entries (raise entry or lower total)",
			scenario.FormatBytes(int64(c.entry)), len(c.sizes), scenario.FormatBytes(int64(c.total)), maxEntries)
	}
	if err := checkBudget(c); err != nil {
		return config{}, err
	}
	if c.path == pathSWIOTLB {
		for _, s := range c.sizes {
			if s > swiotlbMax {
				return config{}, fmt.Errorf("entry: %s is larger than SWIOTLB's largest bounce mapping (%s) on path swiotlb",
					scenario.FormatBytes(int64(s)), scenario.FormatBytes(swiotlbMax))
			}
		}
	}
	return c, nil
}

// wait is where the policy puts the DSB of a scatterlist call.
func (p policy) wait() dmaapi.Wait {
	if p.perEntry {
		return dmaapi.PerEntry
	}
	return dmaapi.PerCall
}

func policyOf(id string) policy {
	switch id {
	case PolicyPerEntry:
		return policy{perEntry: true}
	case PolicySkipDevice:
		return policy{skipDevice: true}
	case PolicySkipUnmap:
		return policy{skipUnmap: true}
	}
	return policy{}
}
