package soc

import (
	"github.com/dmaviz/dmaviz/model/sim"
)

// Counter identifies one PMU event or model counter.
type Counter int

// PMU events under their Linux perf names, then model counters. The order
// here is the order Counters and Metrics list them in.
const (
	CPUCycles      Counter = iota // cpu_cycles: core cycles spent in machine operations
	L1DCache                      // l1d_cache: load/store instructions that looked up L1D
	L1DCacheRefill                // l1d_cache_refill: L1D line fills (demand and write-allocate)
	L2DCache                      // l2d_cache: L2 lookups (L1 misses and L1 write-backs)
	L2DCacheRefill                // l2d_cache_refill: L2 line fills, prefetches included
	L3DCache                      // l3d_cache: L3/SLC lookups
	L3DCacheRefill                // l3d_cache_refill: L3/SLC fills
	BusAccess                     // bus_access: transactions leaving the cluster
	MemAccess                     // mem_access: load/store instructions to any memory
	L1DTLBRefill                  // l1d_tlb_refill (from the Translator)
	L2DTLBRefill                  // l2d_tlb_refill (from the Translator)
	DTLBWalk                      // dtlb_walk (from the Translator)

	DCOps            // dc_ops: DC CVAC/IVAC/CIVAC issued
	DCCVAC           // dc_cvac
	DCIVAC           // dc_ivac
	DCCIVAC          // dc_civac
	DSBCount         // dsb_count: DSB SY executed
	DSBStall         // dsb_stall_us: time waiting in DSB (ps inside, us outside)
	MLPStall         // mlp_stall_us: time a miss waited for a free fill slot
	NCStall          // nc_stall_us: time an NC/Device access waited for a slot
	DCStall          // dc_stall_us: time a DC op waited for a free maintenance slot
	StaleLinesRead   // stale_lines_read: CPU line reads that returned older data than the newest written
	DeviceStaleLines // device_stale_lines: DMA reads of DRAM older than a dirty CPU line
	LostBytes        // lost_bytes: newer data overwritten by a write-back or discarded by an invalidate
	BusReadLine      // bus_read_line: line fills from DRAM (demand and prefetch)
	BusWriteLine     // bus_write_line: dirty line write-backs
	BusReadNC        // bus_read_nc: Normal-NC/Device load transactions
	BusWriteNC       // bus_write_nc: Normal-NC/Device store transactions
	BusWriteStream   // bus_write_stream: full-line stores in write streaming mode
	PrefetchLines    // prefetch_lines: lines requested by the prefetcher
	DMAReadBytes     // dma_read_bytes
	DMAWriteBytes    // dma_write_bytes
	numCounters
)

var counterInfo = [numCounters]struct{ name, unit, group string }{
	{"cpu_cycles", "cycles", "pmu"},
	{"l1d_cache", "", "pmu"},
	{"l1d_cache_refill", "", "pmu"},
	{"l2d_cache", "", "pmu"},
	{"l2d_cache_refill", "", "pmu"},
	{"l3d_cache", "", "pmu"},
	{"l3d_cache_refill", "", "pmu"},
	{"bus_access", "", "pmu"},
	{"mem_access", "", "pmu"},
	{"l1d_tlb_refill", "", "pmu"},
	{"l2d_tlb_refill", "", "pmu"},
	{"dtlb_walk", "", "pmu"},
	{"dc_ops", "", "model"},
	{"dc_cvac", "", "model"},
	{"dc_ivac", "", "model"},
	{"dc_civac", "", "model"},
	{"dsb_count", "", "model"},
	{"dsb_stall_us", "us", "model"},
	{"mlp_stall_us", "us", "model"},
	{"nc_stall_us", "us", "model"},
	{"dc_stall_us", "us", "model"},
	{"stale_lines_read", "", "model"},
	{"device_stale_lines", "", "model"},
	{"lost_bytes", "B", "model"},
	{"bus_read_line", "", "model"},
	{"bus_write_line", "", "model"},
	{"bus_read_nc", "", "model"},
	{"bus_write_nc", "", "model"},
	{"bus_write_stream", "", "model"},
	{"prefetch_lines", "", "model"},
	{"dma_read_bytes", "B", "model"},
	{"dma_write_bytes", "B", "model"},
}

// Name returns the counter's stable name.
func (c Counter) Name() string {
	if c < 0 || c >= numCounters {
		return "unknown"
	}
	return counterInfo[c].name
}

// isTime reports whether the counter accumulates sim.Time.
func (c Counter) isTime() bool { return counterInfo[c].unit == "us" }

// CounterValue is one counter reading.
type CounterValue struct {
	Counter Counter
	Name    string
	Unit    string
	Group   string // "pmu" or "model"
	Value   float64
}

// Count returns the raw value of c (picoseconds for time counters).
func (m *Machine) Count(c Counter) uint64 {
	if c < 0 || c >= numCounters {
		return 0
	}
	if c == CPUCycles {
		return uint64(m.cfg.Clocks.CPU.InCycles(m.core.busy) + 0.5)
	}
	if x := m.x; x != nil {
		// The TLB events live in the structure that counts them: the core's
		// L1 DTLB, the shared L2 TLB (whichever requester walked), and the
		// core's data-side port (its own walks only).
		switch c {
		case L1DTLBRefill:
			return m.cnt[c] + x.core.L1.Stats.Refills
		case L2DTLBRefill:
			return m.cnt[c] + x.mmu.L2.Stats.Refills
		case DTLBWalk:
			return m.cnt[c] + x.core.Stats.DTLBWalks
		}
	}
	return m.cnt[c]
}

// Counters returns every counter in a fixed order (the Counter constants'
// order); time counters are in microseconds.
func (m *Machine) Counters() []CounterValue {
	out := make([]CounterValue, 0, numCounters)
	for c := Counter(0); c < numCounters; c++ {
		v := float64(m.Count(c))
		if c.isTime() {
			v = sim.Time(m.cnt[c]).Microseconds()
		}
		i := counterInfo[c]
		out = append(out, CounterValue{Counter: c, Name: i.name, Unit: i.unit, Group: i.group, Value: v})
	}
	return out
}
