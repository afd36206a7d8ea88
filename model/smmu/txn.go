package smmu

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
)

// A transaction's life is a few steps on the global event queue, each at
// the time it happens, so every shared resource is asked in
// non-decreasing global time:
//
//	issue (the master's step): the TBU's input, its read or write slot,
//	    the TLB lookup; on a hit the bus (asked now, the access leaving
//	    the TBU when the lookup is done); on a miss a walk slot and the
//	    TCU's pipeline, the stream match and the walk's start (walk
//	    caches) for its arrival one link trip later (every TBU's link is
//	    the same, so misses reach the TCU in the order they are asked)
//	evWalk (per descriptor read): the bus
//	evAnswer (one link trip after the TCU's answer): the walk slot frees,
//	    the TLB entry is filled, the bus (or the abort)
//	evDone (data back): the master hears (a master that asked Early
//	    hears when the bus gives the time, and schedules its next step
//	    from it)
//
// A slot whose completion is not known yet is held with Done(Never) and
// settled when the bus gives the time, so the pools stay earliest-free.

// Event kinds (the low bits of an event; the rest is the transaction's
// index, or the TBU's for evRetry).
const (
	evWalk = iota
	evAnswer
	evDone
	evRetry
	evBits = 3
)

// txn is one transaction in flight.
type txn struct {
	x      Txn
	o      Outcome
	tbu    uint8
	ok     bool // a translation or bypass (not a fault)
	walked bool
	walk   int32 // its walk in SMMU.walks while the TCU walks for it, else -1
	d      Decision
	pa     uint64
	leaf   mmu.Leaf
}

// walk is one walk's descriptor reads: their addresses (levels: their
// levels, when observed), how many, and the next to read.
type walk struct {
	reads      [maxWalkReads]uint64
	levels     [maxWalkReads]int8
	n, k       int8
	faultLevel int8
	faultStage int8 // the stage whose table faulted (1, or 2 in a nested walk)
}

func (s *SMMU) allocWalk() int32 {
	if n := len(s.freeWalks); n > 0 {
		id := s.freeWalks[n-1]
		s.freeWalks = s.freeWalks[:n-1]
		return id
	}
	s.walks = append(s.walks, walk{})
	return int32(len(s.walks) - 1)
}

func (s *SMMU) alloc() int32 {
	if n := len(s.free); n > 0 {
		id := s.free[n-1]
		s.free = s.free[:n-1]
		return id
	}
	s.txns = append(s.txns, txn{})
	return int32(len(s.txns) - 1)
}

func (s *SMMU) schedule(t sim.Time, id int32, kind int) {
	if err := s.m.Schedule(t, s.agent, int(id)<<evBits|kind); err != nil && s.err == nil {
		s.err = err
	}
}

// Reserve makes room for n transactions in flight at once (a master that
// knows how many it may have outstanding saves the growth of the table,
// a copy each time it doubles).
func (s *SMMU) Reserve(n int) {
	if n > cap(s.txns) {
		s.txns = append(make([]txn, 0, n), s.txns...)
	}
}

// InFlight returns the transactions issued and not yet done.
func (s *SMMU) InFlight() int { return len(s.txns) - len(s.free) }

// Step implements soc.Agent: one of the SMMU's events, due at t.
func (s *SMMU) Step(t sim.Time, ev int) {
	id := int32(ev >> evBits)
	kind := ev & (1<<evBits - 1)
	if kind == evRetry {
		if int(id) < len(s.tbus) {
			s.tbus[id].retry(t)
		}
		return
	}
	if id < 0 || int(id) >= len(s.txns) {
		if s.err == nil {
			s.err = fmt.Errorf("smmu: event %d names no transaction", ev)
		}
		return
	}
	switch kind {
	case evWalk:
		s.walkRead(t, id)
	case evAnswer:
		s.tbus[s.txns[id].tbu].answered(t, id)
	case evDone: // done, written out (one call fewer per transaction)
		x := &s.txns[id]
		if !x.x.Early || x.o.Aborted {
			x.o.Done = t
		}
		s.tbus[x.tbu].account(x)
		s.sink.Done(t, &x.x, &x.o)
		s.free = append(s.free, id)
	}
}

// done is transaction id's data (or write response, or abort) back at
// its master at t (for an Early one, o.Done is set and t is now).
func (s *SMMU) done(t sim.Time, id int32) {
	x := &s.txns[id]
	if !x.x.Early || x.o.Aborted {
		x.o.Done = t
	}
	s.tbus[x.tbu].account(x)
	s.sink.Done(t, &x.x, &x.o)
	s.free = append(s.free, id)
}
