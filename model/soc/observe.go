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

// noteLine reports a line event at the core's time, when the observer
// takes kind k and line is watched. idx is line's version index
// (mem.Versions.Index, -1 when untracked): the callers have it, and a
// copy's lines alternate between two regions, which Index answers by a
// search.
func (m *Machine) noteLine(k hwevent.Kind, line uint64, idx int, f hwevent.Flags) {
	m.ob.reportLine(m.core.now, k, line, idx, f, 0, 0, hwevent.ReasonNone)
}

// reportLine is noteLine with a DC op's completion and op, or a
// write-back's reason.
func (m *Machine) reportLine(k hwevent.Kind, line uint64, idx int, f hwevent.Flags, end sim.Time, op uint8, why hwevent.Reason) {
	m.ob.reportLine(m.core.now, k, line, idx, f, end, op, why)
}

// noteEntry reports what happened to entry e of cache level at the
// core's time (line is the entry's line; for a Fill, the cache's Evicted
// is what left).
func (m *Machine) noteEntry(k hwevent.Kind, level, e int, line uint64) {
	m.ob.noteEntryAt(m.hier.lv[level], m.core.now, k, level, e, line)
}

// noteEntryAt is noteEntry at time t (another agent's).
func (m *Machine) noteEntryAt(t sim.Time, k hwevent.Kind, level, e int, line uint64) {
	m.ob.noteEntryAt(m.hier.lv[level], t, k, level, e, line)
}
