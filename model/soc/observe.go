package soc

import (
	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/sim"
)

// The machine reports hardware events (hwevent) to one observer: line
// events only for watched physical ranges (WatchPhys), cache entry events
// only for watched sets (WatchSets), DSB waits always. With no observer
// the per-line path pays one nil check. T is when the event happened on
// the clock of the agent that caused it: the core's, or the device's for
// DMA bursts and snoops.

type physRange struct{ lo, hi uint64 } // line numbers [lo, hi)

// observation is the observer and what it asked for.
type observation struct {
	obs     hwevent.Observer
	scratch hwevent.Event   // the event being reported (emit)
	kinds   hwevent.KindSet // the kinds obs wants (WatchKinds)
	watch   []physRange
	quiet   quietHint // line reports the observer would ignore (Quiet)
	inOp    bool      // a Copy, Read, Write or DC is running (Quiet takes effect)
	windows [3][2]int // per level (L1D, L2, L3): the entries [first set*ways, end set*ways) shown to the observer
}

// SetObserver installs o (nil removes it); it is told every kind of event
// until WatchKinds narrows them. The MMU's TLB and walk events go to it too.
func (m *Machine) SetObserver(o hwevent.Observer) {
	m.ob.obs, m.ob.kinds = o, hwevent.AllKinds
	if m.x != nil {
		m.x.mmu.Obs = o
	}
}

// WatchKinds reports only events of the kinds in ks to the observer (an
// adapter that draws cells has no use for each Normal-NC transaction).
func (m *Machine) WatchKinds(ks hwevent.KindSet) { m.ob.kinds = ks }

// Observer returns the installed observer (nil when none).
func (m *Machine) Observer() hwevent.Observer { return m.ob.obs }

// WatchPhys asks for line events on [pa, pa+n).
func (m *Machine) WatchPhys(pa, n uint64) {
	if n == 0 {
		return
	}
	m.ob.watch = append(m.ob.watch, physRange{pa >> m.lineShift, (pa + n + m.lineBytes - 1) >> m.lineShift})
}

// WatchSets asks for cache entry events on sets [first, first+count) of
// cache level. Out-of-range values are clipped.
func (m *Machine) WatchSets(level, first, count int) {
	if level < 0 || level >= len(m.hier.lv) {
		return
	}
	n := m.hier.lv[level].Sets()
	lo, hi := min(max(first, 0), n), min(max(first+count, 0), n)
	ways := m.hier.lv[level].Ways()
	m.ob.windows[level] = [2]int{lo * ways, hi * ways}
}

func (m *Machine) watched(line uint64) bool {
	for _, r := range m.ob.watch {
		if line >= r.lo && line < r.hi {
			return true
		}
	}
	return false
}

// watchedRange reports whether any line of [lo, hi) is watched.
func (m *Machine) watchedRange(lo, hi uint64) bool {
	for _, r := range m.ob.watch {
		if lo < r.hi && r.lo < hi {
			return true
		}
	}
	return false
}

// writerOf is who wrote line's newest data (Nobody when untracked).
func (m *Machine) writerOf(line uint64) uint8 {
	if idx := m.ver.Index(line); idx >= 0 {
		return m.ver.LatestWriter[idx]
	}
	return hwevent.Nobody
}

// noteLine reports a line event at the core's time, when the observer
// takes kind k and line is watched (inline-sized: the per-line path
// calls it). idx is line's version index (mem.Versions.Index, -1 when
// untracked): the callers have it, and a copy's lines alternate between
// two regions, which Index answers by a search.
func (m *Machine) noteLine(k hwevent.Kind, line uint64, idx int, f hwevent.Flags) {
	m.reportLine(k, line, idx, f, 0, 0, hwevent.ReasonNone)
}

// reportLine is noteLine for every line event: lineEvent's fields (the
// writer of the line's newest data, the core for a line it wrote that has
// none) plus a DC op's completion and op, or a write-back's reason. The
// event is written into the scratch event (see emit) field by field, in
// this one call: a struct literal goes through the stack and a helper
// would be a second call per line (most of all as WebAssembly).
func (m *Machine) reportLine(k hwevent.Kind, line uint64, idx int, f hwevent.Flags, end sim.Time, op uint8, why hwevent.Reason) {
	if !m.ob.kinds.Has(k) {
		return
	}
	if in := line-m.ob.quiet.lo < m.ob.quiet.n; in { // lines the observer quieted are watched
		if m.quietAt(k, line, f, op, idx) {
			return
		}
	} else if !m.watched(line) {
		return
	}
	w := m.writerAt(idx, k)
	e := &m.ob.scratch
	e.T, e.End, e.Kind, e.Flags, e.Why, e.Op, e.Agent, e.Writer = m.core.now, end, k, f, why, op, hwevent.Core, w
	e.Level, e.Set, e.Way, e.Addr, e.Victim, e.Bytes = -1, -1, -1, line<<m.lineShift, 0, m.lineBytes
	m.ob.obs.Event(e)
}

// noteEntry reports what happened to entry e of cache level (line is the
// entry's line; for a Fill, c.Evicted is what left).
func (m *Machine) noteEntry(k hwevent.Kind, level, e int, line uint64) {
	m.noteEntryAt(m.core.now, k, level, e, line)
}

// shown reports whether entry e of cache level is in the watched sets
// (the per-line path checks before it calls noteEntry).
func (m *Machine) shown(level, e int) bool {
	w := m.ob.windows[level]
	return e >= w[0] && e < w[1]
}

func (m *Machine) noteEntryAt(t sim.Time, k hwevent.Kind, level, e int, line uint64) {
	c := m.hier.lv[level]
	ways := c.Ways()
	if w := m.ob.windows[level]; e < w[0] || e >= w[1] || !m.ob.kinds.Has(k) { // no division for unwatched sets
		return
	}
	ev := hwevent.Event{T: t, Kind: k, Agent: hwevent.Core, Level: int8(level), Set: int32(e / ways), Way: int32(e % ways),
		Addr: line << m.lineShift, Bytes: m.lineBytes}
	if k != hwevent.Drop && c.Meta[e].Dirty {
		ev.Flags |= hwevent.Dirty
	}
	if k == hwevent.Fill && c.Evicted.Valid {
		ev.Flags |= hwevent.VictimValid
		ev.Victim = c.Evicted.Line << m.lineShift
		if c.Evicted.Dirty {
			ev.Flags |= hwevent.VictimDirty
		}
	}
	m.emit(ev)
}

// emit hands e to the observer through the machine's scratch event, so
// reporting allocates nothing.
func (m *Machine) emit(e hwevent.Event) {
	if !m.ob.kinds.Has(e.Kind) {
		return
	}
	m.ob.scratch = e
	m.ob.obs.Event(&m.ob.scratch)
}

// quietHint is what the observer said it would ignore (Quiet): line
// reports of kind, flags, op and writer on lines [lo, lo+n); n 0: none.
type quietHint struct {
	lo, n      uint64
	kind       hwevent.Kind
	flags      hwevent.Flags
	op, writer uint8
}

// Quiet may be called by the observer from its Event, during a Copy,
// Read, Write or DC (elsewhere it is ignored): it says that the core's
// line reports (LineRead, LineWrite, DCOp) of kind k with flags f, DC op
// op (0 for the others) and writer w (Event.Writer) on lines [lo, hi)
// would change nothing the observer keeps, so the machine need not make
// them. A view whose cell spans many lines says it once the cell shows
// what the rest of its lines would set. The word holds until the
// observer gives another (an empty range: none), another agent's step
// runs, the Progress hook is called or the operation returns. So the
// observer must take it back when an event it is given changes what the
// word covers, and may give it only when what it keeps changes through
// its Event alone while an operation runs.
func (m *Machine) Quiet(k hwevent.Kind, f hwevent.Flags, op, w uint8, lo, hi uint64) {
	if !m.ob.inOp || hi <= lo {
		m.ob.quiet.n = 0
		return
	}
	m.ob.quiet = quietHint{lo: lo, n: hi - lo, kind: k, flags: f, op: op, writer: w}
}

// quietAt reports whether the observer said a report of kind k on line
// with flags f and op would change nothing (Quiet); idx is line's version
// index. Inline-sized: the per-line loops ask before they call
// reportLine.
func (m *Machine) quietAt(k hwevent.Kind, line uint64, f hwevent.Flags, op uint8, idx int) bool {
	q := &m.ob.quiet
	return line-q.lo < q.n && k == q.kind && f == q.flags && op == q.op && m.writerAt(idx, k) == q.writer
}

// writerAt is the Writer of a core's line event of kind k on the line of
// version index idx: who wrote its newest data (Nobody when untracked),
// the core for a line it writes that has none.
func (m *Machine) writerAt(idx int, k hwevent.Kind) uint8 {
	w := hwevent.Nobody
	if idx >= 0 {
		w = m.ver.LatestWriter[idx]
	}
	if w == hwevent.Nobody && k == hwevent.LineWrite {
		w = hwevent.Core
	}
	return w
}

// endQuiet closes an operation that took Quiet hints.
func (m *Machine) endQuiet() {
	m.ob.inOp = false
	m.ob.quiet.n = 0
}
