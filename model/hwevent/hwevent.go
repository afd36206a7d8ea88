// Package hwevent is the vocabulary the hardware packages (soc, cache,
// mem, and the translation and SMMU packages built on them) report what
// happens in: line reads and writes, cache fills, drops and updates,
// write-backs, DC ops, DSB waits, DMA bursts, Normal-NC transactions, and
// TLB lookups, fills and walk steps. An event says what the
// hardware did, never how a view shows it: the scenario layer's adapter
// turns events into cell states, cache windows and hazards.
//
// One Observer method takes every kind, so a new hardware object adds a
// Kind, not a method.
package hwevent

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/sim"
)

// Kind is what happened.
type Kind uint8

const (
	// LineRead: the core read line Addr. Writer wrote the line's newest
	// data; Stale says the read returned older data than that; NC says it
	// went through a Normal-NC or Device mapping; Copy says it was a
	// copy's source.
	LineRead Kind = iota
	// LineWrite: the core wrote (part of) line Addr: into a cache, as a
	// streaming store, or through a non-cacheable mapping (NC).
	LineWrite
	// Fill: cache Level filled Set/Way with line Addr (Dirty: a written
	// line). VictimValid says a line left the way to make room: Victim,
	// written down a level or to DRAM when VictimDirty.
	Fill
	// Drop: cache Level invalidated Set/Way (a DC op, a snoop, a
	// streaming store superseding it); Addr was its line.
	Drop
	// Update: the entry at Level/Set/Way changed in place (written,
	// cleaned); Dirty is its new state.
	Update
	// WriteBack: a dirty line Addr reached DRAM; Why says what sent it;
	// Lost says it overwrote newer data a device had written.
	WriteBack
	// Discard: DC IVAC dropped dirty line Addr without writing it back;
	// Lost says that was the newest data.
	Discard
	// DCOp: DC Op on line Addr issued at T, completing at End.
	DCOp
	// DSBWait: DSB SY from T to End.
	DSBWait
	// DMABurst: device Agent transferred Bytes at Addr (Write, or a read),
	// landing at T.
	DMABurst
	// DeviceStaleRead: a non-coherent device read line Addr from DRAM
	// while a CPU cache held newer dirty data.
	DeviceStaleRead
	// NCTransaction: one Normal-NC or Device load or store (Write) of
	// Bytes at Addr, completing at End.
	NCTransaction
	// TLBLookup, TLBFill and WalkStep are for the translation structures
	// (Agent is the requester): a lookup of virtual address Addr in TLB
	// Level (0 a requester's L1 TLB, 1 the shared L2 TLB; Hit in Flags);
	// an entry of TLB Level filled at Set/Way with the translation of
	// virtual Addr..Addr+Bytes to physical Victim; one descriptor of a
	// table walk at translation Level 0..3, read at physical Addr (Hit:
	// it came from a walk cache, no read), its value in Victim, T when
	// it arrived.
	TLBLookup
	TLBFill
	WalkStep
	// StaleCopy: a CPU cache's clean copy of line Addr became older than
	// the line's newest data, at T: Agent wrote newer data (a device, into
	// DRAM; Elsewhere: into the line's bounce slot; NC: the core, through
	// a Normal-NC alias). A read of it before it is invalidated, evicted
	// or written again returns old data (a LineRead with Stale).
	StaleCopy
	// Doomed: a CPU cache holds line Addr dirty, older than what Agent
	// wrote under it at T: its write-back will destroy that data (a
	// WriteBack with Lost), unless a DC IVAC that does not clean drops it
	// first (a Discard without Lost) or the core writes the line again.
	Doomed
	// StaleEvicted: the last cached copy of line Addr, stale (StaleCopy),
	// left the caches unread: evicted to make room (Level, the level it
	// left). The next read gets the newest data.
	StaleEvicted
	NumKinds
)

var kindNames = [NumKinds]string{"line-read", "line-write", "fill", "drop", "update", "write-back", "discard",
	"dc-op", "dsb-wait", "dma-burst", "device-stale-read", "nc-transaction", "tlb-lookup", "tlb-fill", "walk-step",
	"stale-copy", "doomed", "stale-evicted"}

func (k Kind) String() string {
	if k < NumKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Flags qualify an event.
type Flags uint16

const (
	Stale       Flags = 1 << iota // LineRead: older than the newest data
	NC                            // through a Normal-NC or Device mapping
	Copy                          // LineRead: a copy's source
	Write                         // DMABurst, NCTransaction: a write
	Dirty                         // Fill, Update: the entry is dirty
	VictimValid                   // Fill: a valid line was displaced
	VictimDirty                   // Fill: the displaced line was dirty (written down)
	Lost                          // WriteBack, Discard: newer data destroyed; LineRead Stale: the newest data was destroyed so
	Elsewhere                     // LineRead Stale: the newest data is in another buffer (a bounce slot)
	OwnWrite                      // LineRead Stale: the newest data was the core's own write
	Hit                           // TLBLookup: a hit
)

// Reason says what sent a line to DRAM or dropped it.
type Reason uint8

const (
	ReasonNone  Reason = iota
	ReasonEvict        // evicted from the last cache level
	ReasonCVAC         // DC CVAC
	ReasonIVAC         // DC IVAC where it cleans (behaves as DC CIVAC)
	ReasonCIVAC        // DC CIVAC
)

var reasonNames = [...]string{"", "evicted from the last cache level", "cleaned by DC CVAC",
	"cleaned by DC IVAC, which behaves as DC CIVAC on this core", "cleaned by DC CIVAC"}

func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("reason(%d)", uint8(r))
}

// Agent ids: who acted or wrote. Devices are 2 and up (mem's writer ids).
const (
	Nobody uint8 = 0
	Core   uint8 = 1
)

// Event is one hardware event. Fields that do not apply to its Kind are
// zero (Level, Set and Way are -1 outside cache and TLB events).
type Event struct {
	T     sim.Time // when it happened, on the acting agent's clock
	End   sim.Time // DCOp completion, DSBWait end, NCTransaction completion
	Kind  Kind
	Flags Flags
	Why   Reason
	Op    uint8 // DCOp: 0 CVAC, 1 IVAC, 2 CIVAC (soc.DCOp)
	Agent uint8 // who acted: Core or a device
	// Writer is who wrote the line's newest data (line events).
	Writer uint8
	Level  int8
	Set    int32
	Way    int32
	Addr   uint64 // physical address (of the line, for line and cache events)
	Victim uint64 // Fill: physical address of the displaced line
	Bytes  uint64
}

// Has reports whether every flag in f is set.
func (e *Event) Has(f Flags) bool { return e.Flags&f == f }

// Observer receives events as they happen. Implementations must not keep
// e past the call.
type Observer interface {
	Event(e *Event)
}

// Taker is an Observer that says which kinds of event it takes; it
// ignores the others it is given (an adapter that passes events on may
// then leave out what its successor ignores).
type Taker interface {
	Observer
	Takes() KindSet
}

// Log is an Observer that keeps every event (tests, traces).
type Log struct{ Events []Event }

// Event implements Observer.
func (l *Log) Event(e *Event) { l.Events = append(l.Events, *e) }

// Tee sends every event to each observer in turn.
type Tee []Observer

// Event implements Observer.
func (t Tee) Event(e *Event) {
	for _, o := range t {
		o.Event(e)
	}
}

var flagNames = [...]string{"stale", "nc", "copy", "write", "dirty", "victim", "victim-dirty", "lost", "elsewhere", "own-write", "hit"}

// String lists the set flags by name, separated by commas.
func (f Flags) String() string {
	s := ""
	for i, n := range flagNames {
		if f&(1<<i) != 0 {
			if s != "" {
				s += ","
			}
			s += n
		}
	}
	return s
}

var dcOpNames = [...]string{"cvac", "ivac", "civac"}

// String is one readable line: time, agent, kind, address and what
// applies to the kind (a golden trace's format).
func (e Event) String() string {
	agent := "core"
	if e.Agent >= 2 {
		agent = fmt.Sprintf("dev%d", e.Agent-2)
	}
	s := fmt.Sprintf("%12s %-5s %-17s", exact(e.T), agent, e.Kind)
	if e.Kind != DSBWait {
		s += fmt.Sprintf(" %#x", e.Addr)
	}
	switch e.Kind {
	case Fill, Drop, Update:
		s += fmt.Sprintf(" L%d set %d way %d", e.Level+1, e.Set, e.Way)
		if e.Has(VictimValid) {
			s += fmt.Sprintf(" victim %#x", e.Victim)
		}
	case DCOp:
		if int(e.Op) < len(dcOpNames) {
			s += " " + dcOpNames[e.Op]
		}
		s += " done " + exact(e.End)
	case DSBWait, NCTransaction:
		s += " until " + exact(e.End)
	}
	if e.Kind == DMABurst || e.Kind == NCTransaction {
		s += fmt.Sprintf(" %dB", e.Bytes)
	}
	if e.Writer >= 2 {
		s += fmt.Sprintf(" writer dev%d", e.Writer-2)
	} else if e.Writer == Core {
		s += " writer core"
	}
	if e.Why != ReasonNone {
		s += " (" + e.Why.String() + ")"
	}
	if e.Flags != 0 {
		s += " [" + e.Flags.String() + "]"
	}
	return s
}

// exact prints t in nanoseconds to the picosecond.
func exact(t sim.Time) string {
	sign := ""
	if t < 0 {
		sign, t = "-", -t
	}
	return fmt.Sprintf("%s%d.%03dns", sign, int64(t)/1000, int64(t)%1000)
}

// KindSet is a set of kinds: what an observer wants reported (the machine
// skips building the others).
type KindSet uint32

// AllKinds has every kind.
const AllKinds = KindSet(1<<NumKinds - 1)

// Kinds returns the set of ks.
func Kinds(ks ...Kind) KindSet {
	var s KindSet
	for _, k := range ks {
		s |= 1 << k
	}
	return s
}

// Has reports whether k is in s.
func (s KindSet) Has(k Kind) bool { return s&(1<<k) != 0 }
