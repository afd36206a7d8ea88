package mmu

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// MMU is a core's shared translation hardware: the L2 TLB every requester
// of the core refills from and the table walker they all use, over one
// page table (the kernel's TTBR1 tree) in address space Space.
type MMU struct {
	L2     *TLB
	Walker *Walker
	PT     *PageTable
	Space  uint16
	// Obs, when set, sees TLB lookups and fills and every walk step.
	Obs hwevent.Observer
	// KeepWalk, when set with Obs, is asked before each walk of agent
	// whether Obs wants its steps (an observer that samples walks): a walk
	// it declines runs untraced and reports no WalkStep events (its TLB
	// fills still do, at the walk's end as always).
	KeepWalk func(agent uint8) bool
	steps    []Step
	ev       hwevent.Event
	ent      TLBEntry // the L2 TLB entry a walk's leaf becomes (coalesce)
}

// NewMMU builds the shared part over pt; walks read descriptors through
// port.
func NewMMU(l2 TLBConfig, walk Config, pt *PageTable, port Port, space uint16) (*MMU, error) {
	t, err := NewTLB("l2_tlb", l2)
	if err != nil {
		return nil, err
	}
	w, err := NewWalker(walk, pt, port)
	if err != nil {
		return nil, err
	}
	return &MMU{L2: t, Walker: w, PT: pt, Space: space}, nil
}

// InvalidateAll empties the L2 TLB and the walk caches (each requester's
// L1 TLB is invalidated by its own InvalidateAll).
func (m *MMU) InvalidateAll() {
	m.L2.InvalidateAll()
	m.Walker.Invalidate()
}

// RequesterStats counts one requester's translations.
type RequesterStats struct {
	Translations uint64
	// Walks are the walks this requester's misses caused; DTLBWalks the
	// ones counted as dtlb_walk (only a core's own data accesses).
	Walks, DTLBWalks uint64
	Faults           uint64
}

// Requester is one agent's L1 TLB port in front of the core's shared L2
// TLB and walker: the core's load/store side (whose walks are dtlb_walk),
// or the one-entry L1 TLB of TRBE or SPE (C1-Ultra TRM), which refill
// from the same L2 TLB and use the same walker but never count dtlb_walk.
// It implements mem.Translator.
type Requester struct {
	Name string
	// Owner is the agent id its entries are tagged with (hwevent).
	Owner uint8
	L1    *TLB
	mmu   *MMU
	// DataSide: this is the core's load/store port (walks count dtlb_walk).
	DataSide bool
	// At is the requester's time, set by its owner before a translation
	// (the time events are stamped with).
	At    sim.Time
	Stats RequesterStats
	hit   hitMemo
	// l2 is the L2 TLB entry the last L1 miss found or filled (-1: none
	// yet), for a Loop recording its pass.
	l2 int
}

// hitMemo is the entry the last L1 lookup hit and the addresses for which
// a lookup would find it again while the L1 TLB's entries are unchanged
// (TLB.changes; Find ignores LRU state): the whole entry, or its page for a
// coalesced one (its valid pages differ). Lookups are probed largest size
// first, and every size's key is the same across that range.
type hitMemo struct {
	ok      bool
	e       int
	lo, n   uint64
	changes uint64
	space   uint16
}

// Requester adds an L1 TLB port named name for agent owner.
func (m *MMU) Requester(name string, owner uint8, l1 TLBConfig, dataSide bool) (*Requester, error) {
	t, err := NewTLB(name, l1)
	if err != nil {
		return nil, err
	}
	return &Requester{Name: name, Owner: owner, L1: t, mmu: m, DataSide: dataSide, l2: -1}, nil
}

// MMU returns the shared hardware the requester refills from.
func (r *Requester) MMU() *MMU { return r.mmu }

// Gen changes whenever a translation the requester handed out may have
// been invalidated (its L1 TLB or the L2 TLB lost entries).
func (r *Requester) Gen() uint64 { return r.L1.gen + r.mmu.L2.gen }

// InvalidateAll empties this requester's L1 TLB.
func (r *Requester) InvalidateAll() { r.L1.InvalidateAll() }

// InvalidateVA removes va's translation from this L1 TLB, the L2 TLB and
// the walk caches (TLBI VAE1 with its DSB: the walk caches are emptied,
// as they may hold the table being changed).
func (r *Requester) InvalidateVA(va uint64) {
	r.L1.InvalidateVA(r.mmu.Space, va)
	r.mmu.L2.InvalidateVA(r.mmu.Space, va)
	r.mmu.Walker.Invalidate()
}

// Translate implements mem.Translator: an L1 TLB hit costs L1.Hit; a miss
// looks up the L2 TLB (L2.Hit) and, on a miss there, walks; the walk's
// leaf is allocated into the L2 TLB (l2d_tlb_refill) and the L1 TLB
// (the L1's refill) in the sizes each holds. Contig runs to the end of
// the L1 entry, so a caller translates again when it leaves the entry.
// The PMU fields of the Translation stay zero: the counters live in the
// TLBs and the requester (see Stats).
func (r *Requester) Translate(va uint64, write bool) (mem.Translation, error) {
	var t mem.Translation
	err := r.TranslateTo(va, write, &t)
	return t, err
}

// TranslateTo is Translate writing the translation to *t (every field, on
// an error too): a caller that keeps it in place saves the copies of a
// returned struct, each a memory.copy call in WebAssembly.
func (r *Requester) TranslateTo(va uint64, write bool, t *mem.Translation) error {
	e, cost, err := r.translate(va, write)
	if err != nil {
		*t = mem.Translation{Cost: cost}
		return err
	}
	ent := &r.L1.ent[e]
	off := va - ent.VA
	// Field by field (a struct literal is a memory clear and copy in
	// WebAssembly).
	t.PA, t.Attr, t.Contig, t.Cost = ent.PA+off, ent.Prot.Attr, ent.Bytes-off, cost
	t.L1Refill, t.L2Refill, t.Walk = 0, 0, 0
	return nil
}

// TranslateCost is Translate for a caller that only needs the time the
// translation added (a trace unit's write stalls for it): the same
// lookups, fills, counts and events, without the Translation.
func (r *Requester) TranslateCost(va uint64, write bool) (sim.Time, error) {
	_, cost, err := r.translate(va, write)
	return cost, err
}

// Remembers reports whether va lies in the range of the L1 entry the last
// translation found or filled (a Hits of va may count; when false it
// counts none). Small enough to inline: a caller asks before a Hits
// call that would mostly count nothing (a buffer of 4 KiB pages written
// page by page).
func (r *Requester) Remembers(va uint64) bool { return r.hit.ok && va-r.hit.lo < r.hit.n }

// Hits counts translations of va, va+stride, va+2*stride... (n at most;
// writes when write) that hit the L1 TLB entry the requester's last
// translation found or filled, as that many Translate calls would count
// them (an L1 hit each, the entry touched), and returns how many it
// counted and the cost of each (L1.Hit). It stops at the first address
// the entry does not translate, and counts none when observed (each
// lookup is an event at its own time) or when a write would fault: the
// caller translates those with Translate. A trace unit writing its
// buffer burst by burst counts a block's bursts at once this way.
func (r *Requester) Hits(va, stride uint64, n int, write bool) (int, sim.Time) {
	h, l1 := &r.hit, r.L1
	if n <= 0 || r.mmu.Obs != nil || !h.ok || h.changes != l1.changes || h.space != r.mmu.Space || va-h.lo >= h.n ||
		write && l1.ent[h.e].Prot.ReadOnly {
		return 0, 0
	}
	k := n
	if stride > 0 {
		k = int(min(uint64(n-1), (h.n-1-(va-h.lo))/stride)) + 1
	}
	r.Stats.Translations += uint64(k)
	l1.Stats.Lookups += uint64(k)
	l1.Stats.Hits += uint64(k)
	l1.touch(h.e) // once: touching the most recent entry again changes nothing
	return k, l1.cfg.Hit
}

// translate is Translate up to the L1 TLB entry that holds va's
// translation (valid when err is nil) and the cost.
func (r *Requester) translate(va uint64, write bool) (int, sim.Time, error) {
	r.Stats.Translations++
	m := r.mmu
	sp := m.Space
	l1 := r.L1
	var e int
	if h := &r.hit; h.ok && va-h.lo < h.n && h.changes == l1.changes && h.space == sp {
		e = h.e // what Lookup would do: the same entry, counted and touched
		l1.Stats.Lookups++
		l1.Stats.Hits++
		l1.touch(e)
	} else if h.ok && l1.cfg.Entries == 1 && h.changes == l1.changes && h.space == sp && l1.held[CoalesceShift] == 0 {
		// A one-entry TLB (a trace unit's) whose only entry is the memo's,
		// which does not translate va (it is not coalesced, or it would be
		// held at CoalesceShift): what Lookup would do, a miss, counted
		// (with no coalesced-size probe to remember).
		e = -1
		l1.Stats.Lookups++
		l1.groupOK = false
	} else if e = l1.Lookup(sp, va); e >= 0 {
		r.memo(e, va)
	}
	if m.Obs != nil { // observed runs only: the hot path
		m.noteLookup(r, 0, va, e)
	}
	cost := l1.cfg.Hit
	if e < 0 {
		var err error
		if e, cost, err = r.miss(va, cost); err != nil {
			return -1, cost, err
		}
	}
	if write && l1.ent[e].Prot.ReadOnly {
		r.Stats.Faults++
		return -1, cost, fmt.Errorf("permission fault: write to read-only va %#x", va)
	}
	return e, cost, nil
}

// miss is an L1 TLB miss after cost: the L2 TLB lookup and, on a miss
// there, the walk and the L2 fill; then the L1 fill. It returns the L1
// entry and the cost so far.
func (r *Requester) miss(va uint64, cost sim.Time) (int, sim.Time, error) {
	m := r.mmu
	sp := m.Space
	cost += m.L2.cfg.Hit
	e2 := m.L2.Lookup(sp, va)
	if m.Obs != nil {
		m.noteLookup(r, 1, va, e2)
	}
	if e2 < 0 {
		c, err := r.walk(va, r.At+cost)
		cost += c
		if err != nil {
			r.Stats.Faults++
			return -1, cost, err
		}
		m.coalesce(va, &m.Walker.hw.lk.leaf, &m.ent)
		e2, _ = m.L2.fill(sp, va, &m.ent, r.Owner, nil)
		if m.Obs != nil {
			m.noteFill(r, 1, e2, r.At+cost)
		}
	}
	r.l2 = e2
	l1 := r.L1
	e, _ := l1.fill(sp, va, &m.L2.ent[e2], r.Owner, nil)
	if m.Obs != nil {
		m.noteFill(r, 0, e, r.At+cost)
	}
	if l1.ent[e].Covers(va) {
		// The entry translates va now, and a lookup of its range finds it
		// until the entries change: had a larger entry covered any of it,
		// it would have covered va.
		r.memo(e, va)
	}
	return e, cost, nil
}

// memo remembers that L1 entry e translates va (hitMemo): for the whole
// entry, or for va's page of a coalesced one. Field by field (in Go's
// WASM port a struct literal bigger than 16 bytes is copied by a call).
func (r *Requester) memo(e int, va uint64) {
	h, l1 := &r.hit, r.L1
	ent := &l1.ent[e]
	h.ok, h.e, h.changes, h.space = true, e, l1.changes, r.mmu.Space
	h.lo, h.n = ent.VA, ent.Bytes
	if ent.Valid != 0 {
		h.lo, h.n = va&^(PageSize-1), PageSize
	}
}

// coalesce sets *ent to the L2 TLB entry a walk's leaf becomes: when the
// L2 TLB coalesces and the leaf is a 4 KiB page, the page and every other
// page of its aligned four-page VA group whose PTE (in the same 64-byte
// line of descriptors the walk read) maps the physically consecutive page
// with the same attributes share one coalesced entry. The Cortex-A76
// TRM's L2 TLB entry format keeps PA[39:12], a coalesced bit and four
// valid bits: the pages must be consecutive, the PA need not be 16 KiB
// aligned (assumed: the walker fills every such valid bit from the line it
// read). A group that already has a coalesced entry without this page, or
// a page with no such neighbour, gets an ordinary 4 KiB entry. (By
// pointer and field by field: in Go's WASM port a struct copy bigger
// than 16 bytes is a call.)
func (m *MMU) coalesce(va uint64, leaf *Leaf, ent *TLBEntry) {
	ent.VA, ent.PA, ent.Bytes, ent.Space, ent.Level, ent.Owner, ent.Prot, ent.Valid =
		leaf.VA, leaf.PA, leaf.Bytes, 0, int8(leaf.Level), 0, leaf.Prot, 0
	const span = 1 << CoalesceShift
	gva := leaf.VA &^ (span - 1)
	if m.L2.cfg.Coalesce == 0 || leaf.Bytes != PageSize || leaf.PA < leaf.VA-gva || m.L2.holdsGroup(m.Space, va) {
		return
	}
	gpa := leaf.PA - (leaf.VA - gva)
	mask := uint8(1) << ((leaf.VA >> PageShift) & 3)
	// The group's PTEs are the neighbours of the leaf's in its table.
	// They are read from the table's frame (one line of it): a page leaf
	// (not part of a contiguous run) of the next physical page with the
	// same attributes, as leafOf would see it.
	pte0 := m.Walker.LeafAddr() - ((leaf.VA>>PageShift)&3)*8
	f := m.PT.mem.frame(pte0)
	for j := uint64(0); f != nil && j < 4; j++ {
		if gva+j<<PageShift == leaf.VA {
			continue
		}
		d := f[(pte0&(PageSize-1))>>3+j]
		if KindOf(d, Levels-1) == Page && d&dCont == 0 && d&oaMask == gpa+j<<PageShift && protOf(d) == leaf.Prot {
			mask |= 1 << j
		}
	}
	if mask&(mask-1) == 0 {
		return
	}
	ent.VA, ent.PA, ent.Bytes, ent.Valid = gva, gpa, span, mask
}

// walk runs the shared walker for va (traced when observed), starting at
// start: after the TLB lookups that missed, so that a walk step's time is
// when its descriptor arrived and the last one's is the fill's. The leaf
// stays in the walker (m.Walker.hw.lk.leaf) until the next walk.
func (r *Requester) walk(va uint64, start sim.Time) (sim.Time, error) {
	r.Stats.Walks++
	if r.DataSide {
		r.Stats.DTLBWalks++
	}
	m := r.mmu
	w := m.Walker
	var cost sim.Time
	if m.Obs != nil && (m.KeepWalk == nil || m.KeepWalk(r.Owner)) {
		cost, m.steps = w.traceWalk(va, m.steps[:0])
		t := start
		for _, s := range m.steps {
			t += s.Cost
			m.ev = hwevent.Event{T: t, Kind: hwevent.WalkStep, Agent: r.Owner, Level: int8(s.Level), Set: -1, Way: -1,
				Addr: s.DescAddr, Victim: s.Desc, Bytes: 8}
			if s.WalkCache {
				m.ev.Flags = hwevent.Hit
			}
			m.Obs.Event(&m.ev)
		}
	} else {
		cost, _ = w.walk(va, &w.hw)
	}
	if !w.hw.lk.ok {
		f := w.hw.lk.fault
		return cost, &f
	}
	return cost, nil
}

// noteLookup reports a lookup of va in TLB level (0 L1, 1 L2).
func (m *MMU) noteLookup(r *Requester, level int, va uint64, e int) {
	if m.Obs == nil {
		return
	}
	// Field by field: in Go's WASM port zeroing or copying the whole
	// event is a call, and this runs for every lookup of a recorded run.
	ev := &m.ev
	ev.T, ev.End, ev.Kind, ev.Flags, ev.Why, ev.Op, ev.Agent, ev.Writer = r.At, 0, hwevent.TLBLookup, 0, 0, 0, r.Owner, 0
	ev.Level, ev.Set, ev.Way, ev.Addr, ev.Victim, ev.Bytes = int8(level), -1, -1, va, 0, 0
	if e >= 0 {
		ev.Flags = hwevent.Hit
	}
	m.Obs.Event(ev)
}

// noteFill reports entry e of TLB level filled at time at, when the
// lookups and the walk before it are done (Addr is the entry's VA, Victim
// its PA, Bytes its size).
func (m *MMU) noteFill(r *Requester, level, e int, at sim.Time) {
	if m.Obs == nil {
		return
	}
	t := r.L1
	if level == 1 {
		t = m.L2
	}
	ent := &t.ent[e]
	ways := t.arr.Ways()
	ev := &m.ev // field by field, as in noteLookup
	ev.T, ev.End, ev.Kind, ev.Flags, ev.Why, ev.Op, ev.Agent, ev.Writer = at, 0, hwevent.TLBFill, 0, 0, 0, r.Owner, 0
	ev.Level, ev.Set, ev.Way, ev.Addr, ev.Victim, ev.Bytes = int8(level), int32(e/ways), int32(e%ways), ent.VA, ent.PA, ent.Bytes
	m.Obs.Event(ev)
}
