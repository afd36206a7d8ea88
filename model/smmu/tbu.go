package smmu

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
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
// write and walk slots (earliest-free pools), and its input port, which
// accepts transactions in order: one that cannot be accepted holds the
// ones behind it.
type TBU struct {
	Name  string
	s     *SMMU
	index uint8
	tlb   *mmu.TLB
	// memo is, per master (Txn.Agent&7), the entry its last lookup hit
	// and the range that entry translates: a lookup there finds it again
	// while the TLB's Changes stay the same (see TLB.Hit). spaces counts
	// the valid entries per StreamID bucket (spaceBucket): a stream with
	// none in its bucket misses without a set walk (TLB.Miss; entries are
	// keyed by StreamID). Most transactions take one of the two (the
	// bypassing NIC's: its one cached entry, or none cached).
	// Invariant: spaces[b] is the number of valid entries whose StreamID
	// is in bucket b; the TBU is the only one filling its TLB (TLB() is
	// for reading).
	memo          [8]tbuMemo
	spaces        [64]int32
	reads, writes sim.Pool
	walks         sim.Pool
	hit, link     sim.Time
	bypassBytes   uint64
	// blocked is the transaction at the input waiting for a slot of pool
	// on (-1: none); waiting are those behind it, in order (from head).
	// retryAt is when blocked tries again (Never: not scheduled).
	blocked int32
	on      *sim.Pool
	stall   *uint64 // the stall counter blocked counts in
	waiting []int32
	head    int
	retryAt sim.Time
	// nReads, nWrites and nWalks are the slots in flight (Busy).
	nReads, nWrites, nWalks int
	Stats                   TBUStats
	lastLat                 sim.Time
	totalLat                sim.Time
}

// tbuMemo is one master's last TLB hit (n 0: none).
type tbuMemo struct {
	sid     uint16
	e       int
	lo, n   uint64
	changes uint64
}

// spaceBucket is the bucket of TBU.spaces StreamID sid counts in.
func spaceBucket(sid uint16) int { return int(sid^sid>>6) & 63 }

// AddTBU adds a TBU.
func (s *SMMU) AddTBU(name string) (*TBU, error) {
	if len(s.tbus) >= 64 {
		return nil, fmt.Errorf("tbu %s: at most 64 TBUs", name)
	}
	tlb, err := mmu.NewTLB(name+".tlb", s.cfg.tlbConfig())
	if err != nil {
		return nil, err
	}
	t := &TBU{Name: name, s: s, index: uint8(len(s.tbus)), tlb: tlb,
		reads: sim.NewPool(s.cfg.Reads), writes: sim.NewPool(s.cfg.Writes), walks: sim.NewPool(s.cfg.Walks),
		hit: s.cfg.Cycles(s.cfg.hit()), link: s.cfg.Cycles(s.cfg.LinkCycles), bypassBytes: s.cfg.BypassBytes,
		blocked: -1, retryAt: sim.Never}
	s.tbus = append(s.tbus, t)
	return t, nil
}

// TLB returns the TBU's TLB (the view reads its entries; only the TBU
// fills it).
func (t *TBU) TLB() *mmu.TLB { return t.tlb }

// Txn is one transaction a master issues.
type Txn struct {
	SID   uint16
	Addr  uint64 // input address (IOVA, or PA for a bypassing stream)
	Bytes int
	Write bool
	Agent uint8 // the master (hwevent agent id; owner of the entries it allocates)
	Tag   int32 // the master's own (handed back in Sink.Done)
	// Early asks to hear of the completion as soon as its time is known
	// (when the bus is asked), not when it happens: a master that only
	// schedules its next step from it saves an event. It must not act
	// before Outcome.Done.
	Early bool
	// Stash is, for a write, how many of its first lines the interconnect
	// delivers into the core's L2 (cache stashing, as DPAA2's queue
	// manager does for a frame's first lines); 0 for none.
	Stash uint8
}

// Outcome is what happened to a transaction.
type Outcome struct {
	// Issue is when the master issued it; Accept when the TBU took it
	// (later under back-pressure); Done when the data or write response
	// came back.
	Issue, Accept, Done sim.Time
	Route               Route
	Hit                 bool // hit in the TBU TLB
	TCU                 bool // went to the TCU
	Walked              bool // the TCU walked tables for it
	Aborted             bool // a fault: no memory access
	PA                  uint64
	// Served is where the memory system answered a read (its slowest
	// line): a snoop of the core's caches, the L3 or DRAM.
	Served soc.Served
	// Fill is the TLB entry (set*ways + way) this transaction allocated,
	// -1 when it allocated none; FillAt is when the entry was written
	// (the TCU's answer back at the TBU).
	Fill   int
	FillAt sim.Time
}

// Busy returns the read and write slots and walk slots in flight at now
// (the queue's current time).
func (t *TBU) Busy(now sim.Time) (reads, writes, walks int) {
	return t.reads.Busy(now), t.writes.Busy(now), t.walks.Busy(now)
}

// Issue hands the TBU one transaction at at, the caller's current event
// time (the global clock: calls come in non-decreasing at across every
// master). The SMMU's sink hears of it when it is done.
func (t *TBU) Issue(at sim.Time, x Txn) { t.accept(at, -1, &x) }

// IssueTxn is Issue with the transaction by reference (copied: the caller
// may reuse *x). A master issuing one per step saves the copies of a
// struct argument, which in WebAssembly are memory.copy calls.
func (t *TBU) IssueTxn(at sim.Time, x *Txn) { t.accept(at, -1, x) }

// accept takes transaction id at the input at now, or holds it (and the
// input) until a slot frees. It reports whether it took it. With id -1
// it is Issue's: in is the new transaction, which waits behind one held
// at the input (one function: a call fewer per transaction).
func (t *TBU) accept(now sim.Time, id int32, in *Txn) bool {
	s := t.s
	if id < 0 {
		id = s.alloc()
		// d, pa and leaf are written by the TCU before they are read.
		tx := &s.txns[id]
		// tx.x = *in, field by field (a struct copy is a memory.copy in
		// WebAssembly, several times the cost of these moves).
		tx.x.SID, tx.x.Addr, tx.x.Bytes, tx.x.Write = in.SID, in.Addr, in.Bytes, in.Write
		tx.x.Agent, tx.x.Tag, tx.x.Early, tx.x.Stash = in.Agent, in.Tag, in.Early, in.Stash
		// Outcome{Issue: now, Fill: -1}, field by field (a struct literal
		// is a memory clear and a copy in WebAssembly).
		o := &tx.o
		o.Issue, o.Accept, o.Done, o.Route = now, 0, 0, 0
		o.Hit, o.TCU, o.Walked, o.Aborted = false, false, false, false
		o.PA, o.Fill, o.FillAt, o.Served = 0, -1, 0, soc.ServedDRAM
		tx.tbu, tx.ok, tx.walked, tx.walk = t.index, false, false, -1
		if in.Write {
			t.Stats.Writes++
		} else {
			t.Stats.Reads++
		}
		if t.blocked >= 0 {
			t.waiting = append(t.waiting, id)
			return false
		}
	}
	x := &s.txns[id]
	p := &t.writes
	if !x.x.Write {
		p = &t.reads
	}
	if p.Earliest() > now { // every read (write) slot busy: the 129th waits
		t.hold(now, id, p, &t.Stats.OutstandingStalls)
		return false
	}
	look := now + t.hit
	if s.Regs.CR0&CR0ClientPD != 0 { // the SMMU is off: straight through
		x.o.Accept, x.o.Route, x.o.PA = now, RouteDisabled, x.x.Addr
		t.access(now, id, x, p)
		return true
	}
	// t.tlb.Lookup(sid, addr), through the master's memo or the stream's
	// empty bucket when either tells what it finds.
	sid, addr := x.x.SID, x.x.Addr
	var e int
	if mm := &t.memo[x.x.Agent&7]; addr-mm.lo < mm.n && mm.sid == sid && mm.changes == t.tlb.Changes() {
		e = mm.e
		t.tlb.Hit(e)
	} else if t.spaces[spaceBucket(sid)] == 0 {
		e = -1
		t.tlb.Miss()
	} else if e = t.tlb.Lookup(sid, addr); e >= 0 {
		ent := t.tlb.EntryAt(e)
		mm.sid, mm.e, mm.lo, mm.n, mm.changes = sid, e, ent.VA, ent.Bytes, t.tlb.Changes()
	}
	if e < 0 && t.walks.Earliest() > now { // every walk slot busy: the miss holds the input
		t.hold(now, id, &t.walks, &t.Stats.WalkStalls)
		return false
	}
	x.o.Accept = now
	if e >= 0 {
		ent := t.tlb.EntryAt(e) // read in place, not copied
		x.o.Hit, x.o.PA = true, ent.PA+(x.x.Addr-ent.VA)
		x.o.Route = RouteTranslate
		if lv := ent.Level; lv < 0 {
			x.o.Route = Route(-lv - 1)
			t.Stats.BypassHits++
		}
		t.Stats.Hits++
		if s.obs != nil {
			t.note(look, &x.x, e, true)
		}
		// access, written out (a hit is most transactions; a call fewer).
		done := s.bus(now, x, t.hit)
		if !p.Done(done) {
			p.Insert(done)
		}
		if x.x.Early { // done, written out: the master hears now
			x.o.Done = done
			t.account(x)
			s.sink.Done(now, &x.x, &x.o)
			s.free = append(s.free, id)
			return true
		}
		if err := s.m.Schedule(done, s.agent, int(id)<<evBits|evDone); err != nil && s.err == nil {
			s.err = err
		}
		return true
	}
	p.Done(sim.Never) // held until the TCU's answer gives the access its time
	t.Stats.Misses++
	if s.obs != nil {
		t.note(look, &x.x, -1, false)
	}
	t.walks.Done(sim.Never)
	t.Stats.TCURequests++
	x.o.TCU = true
	// The TCU is asked now for the miss's arrival one link trip later:
	// every TBU's lookup and link take the same time, so misses reach it
	// in the order they leave their TBUs, and asking at the arrival
	// would give the same answers.
	s.arrive(look+t.link, id)
	return true
}

// hold makes id wait at the input for a slot of p.
func (t *TBU) hold(now sim.Time, id int32, p *sim.Pool, stall *uint64) {
	if t.blocked != id {
		*stall++
	}
	t.blocked, t.on, t.stall = id, p, stall
	t.wake(now, p.Earliest())
}

// wake schedules the held transaction's next try at at (if earlier than
// the one scheduled).
func (t *TBU) wake(now, at sim.Time) {
	if at == sim.Never || at >= t.retryAt {
		return
	}
	t.retryAt = max(at, now)
	if err := t.s.m.Schedule(t.retryAt, t.s.agent, int(t.index)<<evBits|evRetry); err != nil && t.s.err == nil {
		t.s.err = err
	}
}

// settled is told that a slot of p got its completion time.
func (t *TBU) settled(p *sim.Pool) {
	if t.blocked >= 0 && t.on == p {
		t.wake(0, p.Earliest())
	}
}

// retry is the held transaction's next try at now, then the ones behind
// it while they can be taken.
func (t *TBU) retry(now sim.Time) {
	if t.blocked < 0 || now != t.retryAt {
		return // taken already, or superseded by an earlier try
	}
	t.retryAt = sim.Never
	id := t.blocked
	t.blocked = -1
	if !t.accept(now, id, nil) {
		return
	}
	for t.head < len(t.waiting) {
		next := t.waiting[t.head]
		t.head++
		if !t.accept(now, next, nil) {
			break
		}
	}
	if t.head == len(t.waiting) {
		t.waiting, t.head = t.waiting[:0], 0
	}
}

// access is a hit's downstream access (written out in accept's hit path;
// this is the disabled SMMU's), asked at now for when the lookup is done (the bus is asked in time order; the lookup is part of its
// path): its slot of p is taken with the completion time, and the master
// hears now if it asked Early, else when it completes.
func (t *TBU) access(now sim.Time, id int32, x *txn, p *sim.Pool) {
	s := t.s
	done := s.bus(now, x, t.hit)
	if !p.Done(done) {
		p.Insert(done)
	}
	if x.x.Early {
		x.o.Done = done
		s.done(now, id)
		return
	}
	if err := s.m.Schedule(done, s.agent, int(id)<<evBits|evDone); err != nil && s.err == nil {
		s.err = err
	}
}

// answered is the TCU's answer for id back at the TBU at at: the entry is
// filled if the route is cached, then the access goes down (or aborts).
func (t *TBU) answered(at sim.Time, id int32) {
	s := t.s
	x := &s.txns[id]
	x.o.Walked, x.o.Route = x.walked, x.d.Route
	if x.walked {
		t.Stats.Walks++
	}
	if !x.ok {
		x.o.Aborted = true
		t.Stats.Aborts++
		p := &t.writes
		if !x.x.Write {
			p = &t.reads
		}
		p.Settle(at)
		t.settled(p)
		s.done(at, id)
		return
	}
	x.o.PA = x.pa
	if s.Regs.Caches(x.d.Route) {
		from := mmu.TLBEntry{VA: x.leaf.VA, PA: x.leaf.PA, Bytes: x.leaf.Bytes, Level: int8(x.leaf.Level), Prot: x.leaf.Prot}
		if x.d.Route != RouteTranslate { // an identity entry; Level -1-route marks a bypass
			b := t.bypassBytes
			from = mmu.TLBEntry{VA: x.x.Addr &^ (b - 1), PA: x.x.Addr &^ (b - 1), Bytes: b, Level: -1 - int8(x.d.Route)}
		}
		c0 := t.tlb.Changes()
		e, victim, evicted := t.tlb.Fill(x.x.SID, x.x.Addr, from, x.x.Agent)
		if t.tlb.Changes() != c0 { // allocated (not there already)
			if evicted {
				t.spaces[spaceBucket(victim.Space)]--
			}
			t.spaces[spaceBucket(x.x.SID)]++
		}
		x.o.Fill, x.o.FillAt = e, at
		if s.obs != nil {
			t.fillEvent(at, &x.x, e)
		}
		if s.fills != nil {
			s.fills.Filled(at, &x.x, e)
		}
	}
	// The miss's downstream access, asked at at: its slot, held since it
	// was accepted, gets the completion time; the master hears now if it
	// asked Early, else at done.
	p := &t.reads
	if x.x.Write {
		p = &t.writes
	}
	done := s.bus(at, x, 0)
	p.Settle(done)
	if t.blocked >= 0 {
		t.settled(p)
	}
	if x.x.Early {
		x.o.Done = done
		s.done(at, id)
		return
	}
	// schedule, written out (a call fewer per miss).
	if err := s.m.Schedule(done, s.agent, int(id)<<evBits|evDone); err != nil && s.err == nil {
		s.err = err
	}
}

func (t *TBU) account(x *txn) {
	if d := x.o.Accept - x.o.Issue; d > 0 {
		t.Stats.StallTime += d
	}
	t.lastLat = x.o.Done - x.o.Issue
	t.totalLat += t.lastLat
}
