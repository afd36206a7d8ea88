package soc

import (
	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
)

// Config is the whole machine's hardware description. platform presets
// build one; scenarios may copy and adjust it (what-if parameters) and
// New validates it.
type Config struct {
	Name   string
	Clocks sim.Clocks
	Core   CoreConfig
	L1D    cache.Config
	L2     cache.Config
	// L3 is the optional shared L3 / system-level cache; Size 0 means none.
	L3       cache.Config
	Prefetch PrefetchConfig
	DRAM     DRAMConfig
	NC       NCConfig
	Maint    MaintConfig
	TLB      TLBConfig
	// MemBytes is the physical memory the buddy allocator manages.
	MemBytes uint64
	// MaxOrder is the buddy allocator's largest block order (Linux
	// MAX_PAGE_ORDER, 10 for 4 KiB pages).
	MaxOrder int
}

// CoreConfig is the core's issue and miss-handling capability.
type CoreConfig struct {
	// LoadIssue and StoreIssue are the core time one load or store
	// instruction occupies when it hits in L1 (issue throughput).
	LoadIssue, StoreIssue sim.Time
	// MLP is the number of outstanding L1 line fills (demand misses and
	// write-allocate fills); a miss beyond it waits for the oldest.
	MLP int
	// WriteStreamAfter switches stores to no-allocate after this many
	// consecutive full-line store misses (Arm "write streaming mode");
	// 0 disables it (always write-allocate).
	WriteStreamAfter int
}

// PrefetchConfig is the L1 miss-stream prefetcher that fills L2.
type PrefetchConfig struct {
	cache.PrefetchConfig
	// Inflight is the number of prefetch fills that may be outstanding.
	Inflight int
}

// DRAMConfig is main memory as seen from the core.
type DRAMConfig struct {
	// Latency is the unloaded load-to-use latency of a line from DRAM.
	Latency sim.Time
	// Bandwidth is the sustained transfer rate in bytes per second that
	// all masters share.
	Bandwidth float64
	// MinBurst is the smallest DRAM transfer in bytes; a 16-byte NC read
	// still occupies one burst.
	MinBurst int
}

// NCConfig is the path for Normal-NC and Device accesses.
type NCConfig struct {
	// Inflight is how many Normal-NC read transactions (and posted
	// stores) may be outstanding: the core's cap on non-cacheable reads
	// (Cortex-A53 TRM Table 7-5: 4), not a count of load instructions.
	Inflight int
	// ReadBytes is the most bytes one Normal-NC or Device read
	// transaction carries: a load wider than it is split into
	// transactions of ReadBytes, each taking its own nc.inflight slot, so
	// NC read throughput is at most nc.inflight x nc.read_bytes per
	// round trip whatever the load width. 0 means no limit (a load is
	// one transaction). Stores are not split: the store buffer merges
	// them into write bursts.
	ReadBytes int
	// DeviceInflight is the same for Device memory (usually 1).
	DeviceInflight int
	// Latency is added to the DRAM latency for an uncached transaction
	// (it bypasses the cache lookups but may take a slower path).
	Latency sim.Time
}

// MaintConfig is cache maintenance by VA and the DSB barrier.
type MaintConfig struct {
	// Issue is the core time one DC op occupies.
	Issue sim.Time
	// CleanLatency and InvalLatency are the times from issue to
	// completion at the point of coherency for DC CVAC and DC IVAC/CIVAC.
	CleanLatency, InvalLatency sim.Time
	// Inflight is how many DC ops may be outstanding: the core's queue of
	// outstanding transactions that maintenance by VA occupies (Cortex-A53:
	// "5 coherency operations", DDI 0500 Table 7-5; Cortex-A76 class: the
	// L2 transaction queue, read issuing capability 22/34/46 by TQ size,
	// TRM 100798 Table A7-1). An op beyond it waits for the oldest.
	Inflight int
	// IVACCleans makes DC IVAC write back dirty data like DC CIVAC: the
	// Cortex-A53 cleans a dirty line before invalidating it (A53 TRM
	// DDI 0500 6.2.4; AMD/Xilinx UG643), the A76/N1 treats DC IVAC as
	// DC CIVAC (A76 TRM A6.2.4), and every core does at EL1 under KVM
	// (HCR_EL2.{DC,VM} != 00, Arm ARM DC IVAC). False only for a core
	// whose manual says it discards.
	IVACCleans bool
	// DSB is the barrier's own cost, paid after every outstanding DC op
	// and posted store has completed (and alone when nothing is
	// outstanding): its request/acknowledge round trip.
	DSB sim.Time
}

// TLBConfig is the core's translation hardware. With Enabled, the
// machine keeps real page tables (mmu) in buddy frames: RAM linearly
// mapped with the Linear leaf sizes, other buffers vmapped; every core
// access (loads, stores, copies, DC ops by VA) translates through the L1
// data TLB, the shared L2 TLB and the walker, whose descriptor reads go
// through the core's caches and DRAM. Without it the core uses a flat
// Space and the TLB counters stay 0.
type TLBConfig struct {
	Enabled bool
	// L1 is the core's L1 data TLB; L2 the TLB shared with the trace
	// units and the instruction side; Trace the one-entry L1 TLB of TRBE
	// and SPE.
	L1, L2, Trace mmu.TLBConfig
	// L1I is the core's L1 instruction TLB, which also refills from L2
	// (Machine.FetchPort); zero entries: not modelled.
	L1I mmu.TLBConfig
	// Walk sizes the walker's walk caches.
	Walk mmu.Config
	// Linear is the leaf sizes of the kernel linear map (Size4K|Size2M|
	// Size1G: block-mapped, as arm64 Linux maps RAM without rodata=full).
	Linear mmu.Size
	// LargeVmap maps page lists with the vmap batching series
	// (mmu.VmapBatch: 64 KiB contiguous and 2 MiB entries for aligned
	// physically contiguous steps, up to the first order-0 step); false is
	// mainline vmap, a 4 KiB PTE per page (mmu.VmapMainline).
	LargeVmap bool
}
