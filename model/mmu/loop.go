package mmu

import (
	"slices"

	"github.com/dmaviz/dmaviz/model/sim"
)

// LoopPort translates for a Loop: one requester, at a given time (a
// soc.TracePort also sets the time its walks read descriptors at).
type LoopPort interface {
	TranslateCost(va uint64, write bool, at sim.Time) (sim.Time, error)
	Requester() *Requester
}

// LoopStep is one translation of a Loop's pass: the page at VA, through
// Port.
type LoopStep struct {
	Port  LoopPort
	VA    uint64
	Write bool
}

// Loop is a program that translates the same pages in the same order
// pass after pass (a loop over its code and data pages), each pass
// through its requesters' L1 TLBs, which only the loop uses, and the
// L2 TLB it shares with other agents (a trace unit writing its buffer
// between passes).
//
// Pass simulates a pass translation by translation until two passes in a
// row go alike (each page an L1 hit, or an L1 miss that hits the same L2
// entry; no walk). Such a pass leaves the L1 TLBs as it found them
// (their entries and LRU order: an L1 TLB that only the loop uses is then
// at the fixed point of its access sequence), so while the L2 entries it
// hit are still there the next pass goes exactly alike: Pass replays it,
// adding the counts the pass made and touching its L2 entries again in
// the pass's order in each L2 set another agent used since (in a set
// nobody else used, touching them again in the same order leaves the
// LRU order as it is). An L1 TLB changed by anyone else, an
// invalidation, or an L2 entry gone makes the next pass a simulated one.
// Replayed passes report no TLB events to an observer, and their counts
// wait until Flush adds them to the TLBs' and the requesters' Stats: a
// reader of those calls Flush first.
type Loop struct {
	steps []LoopStep
	reqs  []*Requester // the distinct requesters, in first use
	l2    *TLB
	space uint16
	// out is the last simulated pass, per step: loopL1Hit, loopWalk, or
	// the L2 entry an L1 miss hit; prev the pass before.
	out, prev []int32
	steady    bool
	cost      sim.Time // the last simulated pass's time
	// The counts one pass adds (the last simulated one's).
	dReq []RequesterStats
	dL1  []TLBStats
	dL2  TLBStats
	// The L2 entries a steady pass hits: by set, in the order of their
	// last touch in the pass; first[set] is the set's first in touches
	// and n[set] how many (0: none).
	touches  []loopTouch
	first, n []int32
	// dirty lists the loop's sets another agent used since its last pass;
	// seen[set] == serial marks a set listed in this replay.
	dirty  []int32
	seen   []uint64
	serial uint64
	// What the TLBs looked like after the last pass.
	l1Tick, l1Gen []uint64
	l2Tick, l2Gen uint64
	// pending is the replayed passes whose counts Flush has yet to add.
	pending uint64
	// Passes counts passes; Replayed those not simulated.
	Passes, Replayed uint64
}

// loopTouch is an L2 entry a steady pass hits, its set, an address it
// translates, and the step of its last touch.
type loopTouch struct {
	set, e, last int
	va           uint64
}

const (
	loopL1Hit = -2
	loopWalk  = -3
)

// NewLoop returns the loop over steps (translated in this order each
// pass). Every port's requester must refill from l2.
func NewLoop(l2 *TLB, space uint16, steps []LoopStep) *Loop {
	l := &Loop{steps: steps, l2: l2, space: space, out: make([]int32, len(steps)), prev: make([]int32, len(steps))}
	for _, s := range steps {
		if r := s.Port.Requester(); !slices.Contains(l.reqs, r) {
			l.reqs = append(l.reqs, r)
		}
	}
	n := len(l.reqs)
	l.dReq, l.dL1, l.l1Tick, l.l1Gen = make([]RequesterStats, n), make([]TLBStats, n), make([]uint64, n), make([]uint64, n)
	sets := l2.Sets()
	l.first, l.n, l.seen = make([]int32, sets), make([]int32, sets), make([]uint64, sets)
	return l
}

// PassTime is the time of a pass like the last simulated one (what Pass
// returns for a replayed pass and Repeat for each repeated one).
func (l *Loop) PassTime() sim.Time { return l.cost }

// Steps returns how many translations one pass makes.
func (l *Loop) Steps() int { return len(l.steps) }

// Pass makes one pass starting at time at and returns its time.
func (l *Loop) Pass(at sim.Time) (sim.Time, error) {
	l.Passes++
	if l.replay() {
		l.Replayed++
		return l.cost, nil
	}
	return l.simulate(at)
}

// Quiet reports whether nothing has used the loop's TLBs since its last
// pass, which was steady: Repeat may then add passes by their counts.
func (l *Loop) Quiet() bool {
	return l.steady && l.unchangedL1() && l.l2.gen == l.l2Gen && l.l2.tick == l.l2Tick
}

// Repeat makes n passes exactly like the last one when Quiet (nothing
// between them: touching the same entries in the same order again
// changes nothing) and returns one pass's time; otherwise it makes none
// and returns false.
func (l *Loop) Repeat(n uint64) (sim.Time, bool) {
	if !l.Quiet() {
		return 0, false
	}
	l.add(n)
	l.Passes += n
	l.Replayed += n
	return l.cost, true
}

// unchangedL1 reports whether the loop's L1 TLBs are as its last pass
// left them.
func (l *Loop) unchangedL1() bool {
	for i, r := range l.reqs {
		if r.L1.tick != l.l1Tick[i] || r.L1.gen != l.l1Gen[i] {
			return false
		}
	}
	return true
}

// replay makes the next pass without translating when it would go as the
// last steady one did, and reports whether it did.
func (l *Loop) replay() bool {
	if !l.steady || !l.unchangedL1() || l.l2.gen != l.l2Gen {
		return false
	}
	if t := l.l2; t.tick != l.l2Tick {
		l.listDirty()
		for _, set := range l.dirty {
			for _, tc := range l.touches[l.first[set] : l.first[set]+l.n[set]] {
				if !t.Holds(tc.e, l.space, tc.va) {
					return false // evicted (or replaced): the pass will walk
				}
			}
		}
		now := t.tick + 1
		for _, set := range l.dirty { // each set's in pass order
			for _, tc := range l.touches[l.first[set] : l.first[set]+l.n[set]] {
				t.arr.Touch(tc.e)
			}
			t.stamp[set] = now
			t.log[now%tlbLog] = set
		}
		t.tick = now
	}
	l.add(1)
	l.l2Tick = l.l2.tick
	return true
}

// listDirty lists the loop's L2 sets another agent used since its last
// pass: from the L2 TLB's log of recent uses, or, past what the log
// holds, from every set's stamp.
func (l *Loop) listDirty() {
	t := l.l2
	l.dirty = l.dirty[:0]
	l.serial++
	if t.tick-l.l2Tick <= tlbLog {
		for k := l.l2Tick + 1; k <= t.tick; k++ {
			l.note(t.log[k%tlbLog])
		}
		return
	}
	for set := range l.n {
		if t.stamp[set] > l.l2Tick {
			l.note(int32(set))
		}
	}
}

// note lists set as dirty once per replay, when the loop has entries in it.
func (l *Loop) note(set int32) {
	if l.n[set] > 0 && l.seen[set] != l.serial {
		l.seen[set] = l.serial
		l.dirty = append(l.dirty, set)
	}
}

// add counts n passes like the last simulated one (when Flush is called).
func (l *Loop) add(n uint64) { l.pending += n }

// Flush adds the counts of the replayed passes so far to the TLBs' and
// the requesters' Stats.
func (l *Loop) Flush() {
	n := l.pending
	if n == 0 {
		return
	}
	l.pending = 0
	for i, r := range l.reqs {
		d := &l.dReq[i]
		r.Stats.Translations += n * d.Translations
		r.Stats.Walks += n * d.Walks
		r.Stats.DTLBWalks += n * d.DTLBWalks
		r.Stats.Faults += n * d.Faults
		addTLBStats(&r.L1.Stats, &l.dL1[i], n)
	}
	addTLBStats(&l.l2.Stats, &l.dL2, n)
}

func addTLBStats(s, d *TLBStats, n uint64) {
	s.Lookups += n * d.Lookups
	s.Hits += n * d.Hits
	s.Refills += n * d.Refills
	s.Evictions += n * d.Evictions
}

func subTLBStats(a, b TLBStats) TLBStats {
	return TLBStats{a.Lookups - b.Lookups, a.Hits - b.Hits, a.Refills - b.Refills, a.Evictions - b.Evictions}
}

// simulate translates one pass step by step from at and records how it
// went.
func (l *Loop) simulate(at sim.Time) (sim.Time, error) {
	l.Flush()
	for i, r := range l.reqs {
		l.dReq[i], l.dL1[i] = r.Stats, r.L1.Stats
	}
	l2 := l.l2.Stats
	l.prev, l.out = l.out, l.prev
	t := at
	for i, s := range l.steps {
		r := s.Port.Requester()
		refills, walks := r.L1.Stats.Refills, r.Stats.Walks
		c, err := s.Port.TranslateCost(s.VA, s.Write, t)
		t += c
		if err != nil {
			l.steady = false
			return t - at, err
		}
		switch {
		case r.Stats.Walks != walks:
			l.out[i] = loopWalk
		case r.L1.Stats.Refills != refills:
			l.out[i] = int32(r.l2)
		default:
			l.out[i] = loopL1Hit
		}
	}
	for i, r := range l.reqs {
		b := l.dReq[i]
		l.dReq[i] = RequesterStats{r.Stats.Translations - b.Translations, r.Stats.Walks - b.Walks,
			r.Stats.DTLBWalks - b.DTLBWalks, r.Stats.Faults - b.Faults}
		l.dL1[i] = subTLBStats(r.L1.Stats, l.dL1[i])
		l.l1Tick[i], l.l1Gen[i] = r.L1.tick, r.L1.gen
	}
	l.dL2 = subTLBStats(l.l2.Stats, l2)
	l.l2Tick, l.l2Gen = l.l2.tick, l.l2.gen
	l.cost = t - at
	l.steady = slices.Equal(l.out, l.prev) && !slices.Contains(l.out, loopWalk)
	if l.steady {
		l.noteTouches()
	}
	return l.cost, nil
}

// noteTouches lists the L2 entries the steady pass hit, by set and, in a
// set, by the step of their last touch.
func (l *Loop) noteTouches() {
	l.touches = l.touches[:0]
	last := map[int32]int{}
	for i, e := range l.out {
		if e >= 0 {
			last[e] = i
		}
	}
	ways := l.l2.cfg.Ways
	for e, i := range last {
		l.touches = append(l.touches, loopTouch{set: int(e) / ways, e: int(e), last: i, va: l.steps[i].VA})
	}
	slices.SortFunc(l.touches, func(a, b loopTouch) int {
		if a.set != b.set {
			return a.set - b.set
		}
		return a.last - b.last
	})
	clear(l.n)
	for i := len(l.touches) - 1; i >= 0; i-- {
		set := l.touches[i].set
		l.first[set] = int32(i)
		l.n[set]++
	}
}
