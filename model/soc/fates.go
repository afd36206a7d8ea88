package soc

import (
	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/sim"
)

// The fates of outdated copies. A cached copy of a tracked line becomes
// outdated when newer data for the line is written where the CPU caches
// do not see it: a non-coherent device writes the line in DRAM or its
// SWIOTLB bounce slot, or the core stores through a Normal-NC alias. A
// clean copy is then stale (a read returns old data); a dirty one is
// doomed (its write-back destroys the newer data; not for a bounce slot,
// whose data never lands under the copy). The machine reports both when
// they happen (hwevent.StaleCopy, Doomed) and counts how each ends once,
// for the last copy of the line in any level: read, evicted unread,
// invalidated, written back (lost), discarded, or written again.

// Copy states of a tracked line (Machine.outdated, by version index).
const (
	copyCurrent uint8 = iota // no outdated copy is cached
	copyStale                // a clean cached copy is older than the newest data
	copyDoomed               // a dirty cached copy is older than what was written under it
)

// Fates counts what became of the outdated copies since the machine was
// built (scenario.Fates says what each count means).
type Fates struct {
	Stale, Doomed                                                       uint64
	Read, Evicted, Invalidated, Lost, Discarded, Overwritten, StillHeld uint64
}

// Fates returns the counts so far; StillHeld is the outdated copies
// cached now.
func (m *Machine) Fates() Fates {
	f := m.chk.fates
	f.StillHeld = uint64(m.chk.nOutdated)
	return f
}

// outdate is newer data for line (version index idx) written at t by
// agent where the caches do not see it (f: Elsewhere for the line's
// bounce slot, NC for the core's Normal-NC store): a cached copy of the
// line is now stale, or doomed when dirty and the data landed under it.
func (m *Machine) outdate(line uint64, idx int, t sim.Time, agent uint8, f hwevent.Flags) {
	if idx < 0 {
		return
	}
	held, dirty := m.hier.holds(line)
	if !held {
		return
	}
	st, k := copyStale, hwevent.StaleCopy
	if dirty && f&hwevent.Elsewhere == 0 {
		st, k = copyDoomed, hwevent.Doomed
		f |= hwevent.Dirty
	}
	m.chk.outdateAs(idx, st, len(m.ver.Mem))
	if m.ob.obs != nil && m.ob.kinds.Has(k) && m.ob.watched(line) {
		m.ob.emit(hwevent.Event{T: t, Kind: k, Flags: f, Agent: agent, Writer: agent, Level: -1, Set: -1, Way: -1,
			Addr: line << m.lineShift, Bytes: m.lineBytes})
	}
}

// evicted is a clean line leaving cache level: a stale copy that no
// level holds any more ends evicted, reported as StaleEvicted.
func (m *Machine) evicted(level int, line uint64) {
	idx := m.ver.Index(line)
	if m.chk.copyState(idx) != copyStale {
		return
	}
	if held, _ := m.hier.holds(line); held {
		return
	}
	m.chk.settle(idx, &m.chk.fates.Evicted)
	if m.ob.obs != nil && m.ob.kinds.Has(hwevent.StaleEvicted) && m.ob.watched(line) {
		m.ob.emit(hwevent.Event{T: m.core.now, Kind: hwevent.StaleEvicted, Agent: hwevent.Core, Writer: m.ver.LatestWriter[idx],
			Level: int8(level), Set: -1, Way: -1, Addr: line << m.lineShift, Bytes: m.lineBytes})
	}
}
