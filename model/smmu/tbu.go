package smmu

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
)

// TBUStats counts what one TBU did.
type TBUStats struct {
	Reads, Writes uint64
	// Hits and Misses are TBU TLB lookups; BypassHits are hits on cached
	// bypass entries.
	Hits, Misses, BypassHits uint64
	// TCURequests are misses sent to the TCU; Walks those that walked a
	// context bank's tables.
	TCURequests, Walks uint64
	// Stalls are transactions the TBU could not accept when they came
	// (every read or write slot busy) or held at its input (every walk
	// slot busy); StallTime is the time they waited.
	OutstandingStalls, WalkStalls uint64
	StallTime                     sim.Time
	Aborts                        uint64
}

// TBU is the translation buffer unit in front of one master port: its TLB
// (an mmu.TLB on cache.Array; entries tagged by StreamID), its read,
// write and walk slots, and its input port, which accepts transactions in
// order.
type TBU struct {
	Name string
	s    *SMMU
	tlb  *mmu.TLB
	// ready[e] is when entry e's fill arrives from the TCU; a hit on an
	// entry still being filled waits for it (misses to one page merge).
	ready          []sim.Time
	reads, writes  pool
	walks          pool
	hit, link      sim.Time
	bypassBytes    uint64
	port           sim.Time // when the input accepts the next transaction
	Stats          TBUStats
	lastLat, total sim.Time
}

// AddTBU adds a TBU.
func (s *SMMU) AddTBU(name string) (*TBU, error) {
	if len(s.tbus) >= 64 {
		return nil, fmt.Errorf("tbu %s: at most 64 TBUs", name)
	}
	tlb, err := mmu.NewTLB(name+".tlb", s.cfg.tlbConfig())
	if err != nil {
		return nil, err
	}
	t := &TBU{Name: name, s: s, tlb: tlb, ready: make([]sim.Time, s.cfg.TLBEntries),
		reads: newPool(s.cfg.Reads), writes: newPool(s.cfg.Writes), walks: newPool(s.cfg.Walks),
		hit: s.cfg.Cycles(s.cfg.hit()), link: s.cfg.Cycles(s.cfg.LinkCycles), bypassBytes: s.cfg.BypassBytes}
	s.tbus = append(s.tbus, t)
	return t, nil
}

// TLB returns the TBU's TLB (the view reads its entries).
func (t *TBU) TLB() *mmu.TLB { return t.tlb }

// Txn is one transaction a master issues.
type Txn struct {
	SID   uint16
	Addr  uint64 // input address (IOVA, or PA for a bypassing stream)
	Bytes int
	Write bool
	Agent uint8 // the master (hwevent agent id; owner of the entries it allocates)
}

// Outcome is what happened to a transaction.
type Outcome struct {
	// Accept is when the TBU took it (later than issue under
	// back-pressure); Done when the data or write response came back.
	Accept, Done sim.Time
	Route        Route
	Hit          bool // hit in the TBU TLB
	TCU          bool // went to the TCU
	Walked       bool // the TCU walked tables for it
	Aborted      bool // a fault: no memory access
	PA           uint64
	// Fill is the TLB entry (set*ways + way) this transaction allocated,
	// -1 when it allocated none; FillAt is when the entry was written
	// (the TCU's answer back at the TBU).
	Fill   int
	FillAt sim.Time
}

// Busy returns the read and write slots and walk slots in flight at now.
func (t *TBU) Busy(now sim.Time) (reads, writes, walks int) {
	return t.reads.busy(now), t.writes.busy(now), t.walks.busy(now)
}

// Access runs one transaction issued at at. Calls must come in
// non-decreasing at across every TBU of the SMMU (the global clock).
func (t *TBU) Access(at sim.Time, x Txn) Outcome {
	s := t.s
	p := &t.writes
	if x.Write {
		t.Stats.Writes++
	} else {
		p = &t.reads
		t.Stats.Reads++
	}
	acc := max(at, t.port)
	if sl := p.slot(acc); sl > acc { // every read (write) slot busy: the 129th waits
		t.Stats.OutstandingStalls++
		acc = sl
	}
	t.port = acc
	o := Outcome{Accept: acc, Fill: -1}
	look := acc + t.hit
	if s.Regs.CR0&CR0ClientPD != 0 { // the SMMU is off: straight through
		o.Route, o.PA = RouteDisabled, x.Addr
		o.Done = t.memory(look, x)
		p.done(o.Done)
		t.account(at, o)
		return o
	}
	if e := t.tlb.Lookup(x.SID, x.Addr); e >= 0 {
		ent, _ := t.tlb.Entry(e)
		ready := max(look, t.ready[e])
		o.Hit, o.PA = true, ent.PA+(x.Addr-ent.VA)
		o.Route = RouteTranslate
		if ent.Level < 0 {
			o.Route = Route(-ent.Level - 1)
			t.Stats.BypassHits++
		}
		t.Stats.Hits++
		t.note(look, x, e, true)
		o.Done = t.memory(ready, x)
		p.done(o.Done)
		t.account(at, o)
		return o
	}
	t.Stats.Misses++
	t.note(look, x, -1, false)
	ws := t.walks.slot(look)
	if ws > look { // every walk slot busy: the miss holds the input
		t.Stats.WalkStalls++
		t.port = max(t.port, ws-t.hit)
	}
	t.Stats.TCURequests++
	ans := s.resolve(ws+t.link, x.SID, x.Addr, x.Agent)
	back := ans.t + t.link
	t.walks.done(back)
	o.TCU, o.Walked, o.Route = true, ans.walked, ans.d.Route
	if ans.walked {
		t.Stats.Walks++
	}
	if !ans.ok {
		o.Aborted, o.Done = true, back
		t.Stats.Aborts++
		p.done(back)
		t.account(at, o)
		return o
	}
	o.PA = ans.pa
	if s.Regs.Caches(ans.d.Route) {
		from := mmu.TLBEntry{VA: ans.leaf.VA, PA: ans.leaf.PA, Bytes: ans.leaf.Bytes, Level: int8(ans.leaf.Level), Prot: ans.leaf.Prot}
		if ans.d.Route != RouteTranslate { // an identity entry; Level -1-route marks a bypass
			b := t.bypassBytes
			from = mmu.TLBEntry{VA: x.Addr &^ (b - 1), PA: x.Addr &^ (b - 1), Bytes: b, Level: -1 - int8(ans.d.Route)}
		}
		e, _, _ := t.tlb.Fill(x.SID, x.Addr, from, x.Agent)
		t.ready[e] = back
		o.Fill, o.FillAt = e, back
		t.fillEvent(back, x, e)
	}
	o.Done = t.memory(back, x)
	p.done(o.Done)
	t.account(at, o)
	return o
}

// memory is the downstream access, issued at at.
func (t *TBU) memory(at sim.Time, x Txn) sim.Time {
	if x.Write {
		return t.s.bus.Write(at, x.Addr, x.Bytes)
	}
	return t.s.bus.Read(at, x.Addr, x.Bytes)
}

func (t *TBU) account(at sim.Time, o Outcome) {
	if d := o.Accept - at; d > 0 {
		t.Stats.StallTime += d
	}
	t.lastLat = o.Done - at
	t.total += t.lastLat
}

// IsBypass reports whether a TLB entry holds a cached bypass.
func IsBypass(e mmu.TLBEntry) bool { return e.Level < 0 }

func (t *TBU) note(at sim.Time, x Txn, e int, hit bool) {
	if t.s.obs == nil {
		return
	}
	ev := hwevent.Event{T: at, Kind: hwevent.TLBLookup, Agent: x.Agent, Level: EventLevel, Set: -1, Way: -1, Addr: x.Addr}
	if hit {
		ev.Flags = hwevent.Hit
		ev.Set, ev.Way = int32(e/t.tlb.Ways()), int32(e%t.tlb.Ways())
	}
	if x.Write {
		ev.Flags |= hwevent.Write
	}
	t.s.emit(ev)
}

func (t *TBU) fillEvent(at sim.Time, x Txn, e int) {
	if t.s.obs == nil {
		return
	}
	ent, _ := t.tlb.Entry(e)
	t.s.emit(hwevent.Event{T: at, Kind: hwevent.TLBFill, Agent: x.Agent, Level: EventLevel,
		Set: int32(e / t.tlb.Ways()), Way: int32(e % t.tlb.Ways()), Addr: ent.VA, Victim: ent.PA, Bytes: ent.Bytes})
}
