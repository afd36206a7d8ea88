package soc

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
)

// translation is the machine's MMU when tlb.enabled: the kernel's page
// tables in buddy frames, the shared L2 TLB and walker, and the core's
// L1 data TLB port.
type translation struct {
	tmem   *mmu.Memory
	kernel *mmu.KernelSpace
	mmu    *mmu.MMU
	core   *mmu.Requester
	fetch  *mmu.Requester // the L1 instruction TLB, once FetchPort made it
	port   tablePort
	// perAccess, when non-zero, limits each translation to that many
	// bytes (tests compare the per-leaf fast path with it).
	perAccess uint64
	// lists are the Normal page lists that are not virtually contiguous
	// to the kernel (a scatterlist's pages, vmalloc'd before a vmap): the
	// machine gives each a private address range for the workload's
	// convenience, and the core reaches every page of it through the
	// linear map (page_address), translating that address. Sorted by VA.
	lists []pageList
	last  int
}

// pageList is a page list at a private VA.
type pageList struct {
	va    uint64
	pages []uint64
}

// isListVA reports whether va is where private page-list ranges live (the lower half, which
// the kernel table does not serve).
func isListVA(va uint64) bool { return va>>mmu.VABits == 0 }

// translateList translates va in a page list: the page's linear-map
// address goes through the core's TLBs, and the translation ends with the
// page.
func (x *translation) translateList(va uint64, write bool) (mem.Translation, error) {
	for i := range x.lists {
		j := (x.last + i) % len(x.lists)
		l := &x.lists[j]
		if off := va - l.va; va >= l.va && off < uint64(len(l.pages))<<mem.PageShift {
			x.last = j
			pa := l.pages[off>>mem.PageShift] + off&(mem.PageSize-1)
			t, err := x.core.Translate(mmu.LinearBase+pa, write)
			t.Contig = min(t.Contig, mem.PageSize-pa&(mem.PageSize-1))
			return t, err
		}
	}
	return mem.Translation{}, fmt.Errorf("translation fault: va %#x is not mapped", va)
}

// tablePort is mmu.Port for every walk of this core's walker: the value
// comes from the descriptor memory, the time from a cacheable 8-byte load
// of that PA through the core's L1D, L2 (and L3) and DRAM, issued at the
// requester's clock at (advanced by each read: a walk's reads are
// dependent).
type tablePort struct {
	m  *Machine
	at sim.Time
}

// Read64 implements mmu.Port.
func (p *tablePort) Read64(pa uint64) (uint64, sim.Time) {
	v, _ := p.m.x.tmem.Read64(pa)
	p.m.syncTo(p.at) // the other agents first: the walk asks DRAM at p.at
	d := p.m.tableRead(pa, p.at)
	p.at += d
	return v, d
}

// Write64 implements mmu.Port: mapping changes are the kernel's stores,
// not priced here.
func (p *tablePort) Write64(pa, v uint64) sim.Time { return p.m.x.tmem.Write64(pa, v) }

// tableRead is a walk's descriptor load at pa issued at at: it looks up
// L1D (counted in l1d_cache; assumed: the walker reads through L1D as on
// Cortex-A53/A55/A76), fills on a miss from L2, L3 or DRAM like any
// cacheable load, and returns its latency. It takes no MLP slot (the
// walker has its own request path).
func (m *Machine) tableRead(pa uint64, at sim.Time) sim.Time {
	line := pa >> m.lineShift
	l1 := m.hier.lv[0]
	m.cnt[L1DCache]++
	e, hit := l1.Claim(line, true)
	if hit {
		return max(at+l1.Cfg.Latency, l1.Meta[e].Ready) - at
	}
	ready, _ := m.fetchMiss(0, e, line, -1, at)
	return ready - at
}

// newTranslation builds the page tables (in frames of buddy) and TLBs
// of c; the walker's descriptor loads go through m's caches.
func newTranslation(c *TLBConfig, buddy *mem.Buddy, m *Machine) (*translation, error) {
	x := &translation{tmem: mmu.NewMemory()}
	x.port.m = m
	k, _, err := mmu.NewKernelSpace(x.tmem, buddy, nil, c.Linear)
	if err != nil {
		return nil, err
	}
	x.kernel = k
	u, err := mmu.NewMMU(c.L2, c.Walk, k.PT, &x.port, 1)
	if err != nil {
		return nil, err
	}
	x.mmu = u
	if x.core, err = u.Requester("l1d_tlb", 1, c.L1, true); err != nil {
		return nil, err
	}
	return x, nil
}

// TranslationState is the translation hardware's state as plain data
// (for views and golden tests); zero when not translating.
type TranslationState struct {
	Enabled                bool
	L1DRefills, L1IRefills uint64 // the core's L1 data and instruction TLB refills
	L2Refills              uint64 // allocations into the shared L2 TLB, whoever walked
	CoreWalks              uint64 // walks for the core's data accesses (dtlb_walk)
}

// Snapshot returns the translation hardware's state (x may be nil).
func (x *translation) Snapshot() TranslationState {
	if x == nil {
		return TranslationState{}
	}
	s := TranslationState{Enabled: true, L1DRefills: x.core.L1.Stats.Refills, L2Refills: x.mmu.L2.Stats.Refills,
		CoreWalks: x.core.Stats.DTLBWalks}
	if x.fetch != nil {
		s.L1IRefills = x.fetch.L1.Stats.Refills
	}
	return s
}

// invalidateAll is TLBI VMALLE1: every TLB but the trace ports' and the
// walk caches lose their entries.
func (x *translation) invalidateAll() {
	x.core.InvalidateAll()
	if x.fetch != nil {
		x.fetch.InvalidateAll()
	}
	x.mmu.InvalidateAll()
}

// Translating reports whether the core translates through page tables
// and TLBs (tlb.enabled).
func (m *Machine) Translating() bool { return m.x != nil }

// MMU returns the shared L2 TLB and walker (nil when not translating).
func (m *Machine) MMU() *mmu.MMU {
	if m.x == nil {
		return nil
	}
	return m.x.mmu
}

// CoreTLB returns the core's L1 data TLB port (nil when not translating).
func (m *Machine) CoreTLB() *mmu.Requester {
	if m.x == nil {
		return nil
	}
	return m.x.core
}

// Kernel returns the kernel address space (nil when not translating).
func (m *Machine) Kernel() *mmu.KernelSpace {
	if m.x == nil {
		return nil
	}
	return m.x.kernel
}

// kernelVA places a buffer's pages in the kernel's address space: a
// physically contiguous Normal buffer is reached through the linear map
// (phys_to_virt, no new mapping); a Normal-NC or Device alias is vmapped
// with its attribute (dma_alloc_coherent's remap). A Normal page list
// that is not contiguous gets no kernel VA (ok false): the caller gives
// it a private range whose pages translate through the linear map.
func (m *Machine) kernelVA(name string, pages []uint64, attr mem.Attr) (va uint64, ok bool, err error) {
	if attr == mem.Normal {
		if !mem.Contiguous(pages) {
			return 0, false, nil
		}
		va, err := m.x.kernel.LinearVA(pages[0])
		if err == nil {
			if _, err := m.space.Translate(va, false); err != nil { // not yet registered
				return va, true, nil
			}
		}
	}
	mode := mmu.VmapMainline
	if m.cfg.TLB.LargeVmap {
		mode = mmu.VmapBatch
	}
	return m.Vmap(name, pages, attr, mode)
}

// Vmap maps pages into the vmalloc area with attr as the kernel mode
// names maps them (mmu.VmapMode) and returns the VA; the caller
// registers the buffer. It needs translation on.
func (m *Machine) Vmap(name string, pages []uint64, attr mem.Attr, mode mmu.VmapMode) (uint64, bool, error) {
	if m.x == nil {
		return 0, false, fmt.Errorf("vmap %s: tlb.enabled is off", name)
	}
	a, _, err := m.x.kernel.Vmap(pages, mmu.Prot{Attr: attr}, mode)
	if err != nil {
		return 0, false, fmt.Errorf("buffer %s: %w", name, err)
	}
	return a.VA, true, nil
}

// TracePort is a trace unit's (TRBE, SPE) translation port: a one-entry
// L1 TLB (tlb.trace) refilling from the core's L2 TLB and walking with
// the core's walker, whose walks never count as dtlb_walk while its L2
// allocations count as l2d_tlb_refill.
type TracePort struct {
	m *Machine
	R *mmu.Requester
}

// AddTracePort adds a trace unit's port for agent owner (hwevent id).
func (m *Machine) AddTracePort(name string, owner uint8) (*TracePort, error) {
	if m.x == nil {
		return nil, fmt.Errorf("%s: tlb.enabled is off; a trace unit needs translation", name)
	}
	r, err := m.x.mmu.Requester(name, owner, m.cfg.TLB.Trace, false)
	if err != nil {
		return nil, err
	}
	return &TracePort{m: m, R: r}, nil
}

// Translate translates va for the trace unit at its time at; the walk's
// descriptor reads go through the core's caches at that time.
func (p *TracePort) Translate(va uint64, write bool, at sim.Time) (mem.Translation, error) {
	p.m.x.port.at, p.R.At = at, at
	return p.R.Translate(va, write)
}

// TranslateCost is Translate for a unit that only needs the time the
// translation added (mmu.Requester.TranslateCost): the same lookups,
// fills, walk and counts, without building the Translation.
func (p *TracePort) TranslateCost(va uint64, write bool, at sim.Time) (sim.Time, error) {
	p.m.x.port.at, p.R.At = at, at
	return p.R.TranslateCost(va, write)
}

// InvalidateTLBs is TLBI VMALLE1 with its DSB: the core's L1 data and
// instruction TLBs, the shared L2 TLB and the walk caches lose every entry (trace ports
// keep their one entry until their next miss). No-op when not translating.
func (m *Machine) InvalidateTLBs() {
	if m.x == nil {
		return
	}
	m.x.invalidateAll()
}

// FetchPort is the core's instruction-side port as a TracePort: its L1
// instruction TLB (tlb.l1i) refilling from the shared L2 TLB, as the
// Cortex-A53, A72 and A76 TRMs describe (the L2 TLB is unified). Its
// walks are ITLB_WALK, never dtlb_walk, and its refills are not
// l1d_tlb_refill; its L2 allocations count as l2d_tlb_refill, which on
// these cores counts "refills caused by memory operations from both data
// and instruction fetch" (tools/perf/pmu-events/arch/arm64/arm/
// neoverse-n1/tlb.json, L2D_TLB_REFILL). owner is its agent id. The port
// is made once; later calls return it (owner then unchanged).
func (m *Machine) FetchPort(owner uint8) (*TracePort, error) {
	if m.x == nil {
		return nil, fmt.Errorf("l1i_tlb: tlb.enabled is off; instruction fetch needs translation")
	}
	if m.x.fetch == nil {
		if m.cfg.TLB.L1I.Entries == 0 {
			return nil, fmt.Errorf("tlb.l1i: this preset does not model the L1 instruction TLB")
		}
		r, err := m.x.mmu.Requester("l1i_tlb", owner, m.cfg.TLB.L1I, false)
		if err != nil {
			return nil, err
		}
		m.x.fetch = r
	}
	return &TracePort{m: m, R: m.x.fetch}, nil
}

// CorePort is the core's data-side port as a TracePort: a workload that
// batches its data accesses per page translates each page through it at
// its own time (walks count dtlb_walk). Nil when not translating.
func (m *Machine) CorePort() *TracePort {
	if m.x == nil {
		return nil
	}
	return &TracePort{m: m, R: m.x.core}
}

// Requester returns the port's requester (mmu.LoopPort).
func (p *TracePort) Requester() *mmu.Requester { return p.R }
