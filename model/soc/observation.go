package soc

import (
	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// observation is the observer and what it asked for: the physical lines
// and cache sets it watches, the kinds it wants and what it said it would
// ignore (Quiet). It builds each event it is given from the machine's
// line versions (who wrote a line last).
type observation struct {
	obs     hwevent.Observer
	scratch hwevent.Event   // the event being reported (emit)
	kinds   hwevent.KindSet // the kinds obs wants (WatchKinds)
	watch   []physRange
	quiet   quietHint // line reports the observer would ignore (Quiet)
	inOp    bool      // a Copy, Read, Write or DC is running (Quiet takes effect)
	windows [3][2]int // per level (L1D, L2, L3): the entries [first set*ways, end set*ways) shown to the observer

	lineShift uint
	lineBytes uint64
	ver       *mem.Versions // the machine's line versions (read only here)
}

func (o *observation) watched(line uint64) bool {
	for _, r := range o.watch {
		if line >= r.lo && line < r.hi {
			return true
		}
	}
	return false
}

// watchedRange reports whether any line of [lo, hi) is watched.
func (o *observation) watchedRange(lo, hi uint64) bool {
	for _, r := range o.watch {
		if lo < r.hi && r.lo < hi {
			return true
		}
	}
	return false
}

// writerOf is who wrote line's newest data (Nobody when untracked).
func (o *observation) writerOf(line uint64) uint8 {
	if idx := o.ver.Index(line); idx >= 0 {
		return o.ver.LatestWriter[idx]
	}
	return hwevent.Nobody
}

// reportLine is noteLine for every line event: lineEvent's fields (the
// writer of the line's newest data, the core for a line it wrote that has
// none) plus a DC op's completion and op, or a write-back's reason. The
// event is written into the scratch event (see emit) field by field, in
// this one call: a struct literal goes through the stack and a helper
// would be a second call per line (most of all as WebAssembly).
func (o *observation) reportLine(now sim.Time, k hwevent.Kind, line uint64, idx int, f hwevent.Flags, end sim.Time, op uint8, why hwevent.Reason) {
	if !o.kinds.Has(k) {
		return
	}
	if in := line-o.quiet.lo < o.quiet.n; in { // lines the observer quieted are watched
		if o.quietAt(k, line, f, op, idx) {
			return
		}
	} else if !o.watched(line) {
		return
	}
	w := o.writerAt(idx, k)
	e := &o.scratch
	e.T, e.End, e.Kind, e.Flags, e.Why, e.Op, e.Agent, e.Writer = now, end, k, f, why, op, hwevent.Core, w
	e.Level, e.Set, e.Way, e.Addr, e.Victim, e.Bytes = -1, -1, -1, line<<o.lineShift, 0, o.lineBytes
	o.obs.Event(e)
}

// shown reports whether entry e of cache level is in the watched sets
// (the per-line path checks before it calls noteEntry).
func (o *observation) shown(level, e int) bool {
	w := o.windows[level]
	return e >= w[0] && e < w[1]
}

func (o *observation) noteEntryAt(c *cache.Cache, t sim.Time, k hwevent.Kind, level, e int, line uint64) {
	ways := c.Ways()
	if w := o.windows[level]; e < w[0] || e >= w[1] || !o.kinds.Has(k) { // no division for unwatched sets
		return
	}
	ev := hwevent.Event{T: t, Kind: k, Agent: hwevent.Core, Level: int8(level), Set: int32(e / ways), Way: int32(e % ways),
		Addr: line << o.lineShift, Bytes: o.lineBytes}
	if k != hwevent.Drop && c.Meta[e].Dirty {
		ev.Flags |= hwevent.Dirty
	}
	if k == hwevent.Fill && c.Evicted.Valid {
		ev.Flags |= hwevent.VictimValid
		ev.Victim = c.Evicted.Line << o.lineShift
		if c.Evicted.Dirty {
			ev.Flags |= hwevent.VictimDirty
		}
	}
	o.emit(ev)
}

// emit hands e to the observer through the machine's scratch event, so
// reporting allocates nothing.
func (o *observation) emit(e hwevent.Event) {
	if !o.kinds.Has(e.Kind) {
		return
	}
	o.scratch = e
	o.obs.Event(&o.scratch)
}

// quietAt reports whether the observer said a report of kind k on line
// with flags f and op would change nothing (Quiet); idx is line's version
// index. Inline-sized: the per-line loops ask before they call
// reportLine.
func (o *observation) quietAt(k hwevent.Kind, line uint64, f hwevent.Flags, op uint8, idx int) bool {
	q := &o.quiet
	return line-q.lo < q.n && k == q.kind && f == q.flags && op == q.op && o.writerAt(idx, k) == q.writer
}

// writerAt is the Writer of a core's line event of kind k on the line of
// version index idx: who wrote its newest data (Nobody when untracked),
// the core for a line it writes that has none.
func (o *observation) writerAt(idx int, k hwevent.Kind) uint8 {
	w := hwevent.Nobody
	if idx >= 0 {
		w = o.ver.LatestWriter[idx]
	}
	if w == hwevent.Nobody && k == hwevent.LineWrite {
		w = hwevent.Core
	}
	return w
}

// endQuiet closes an operation that took Quiet hints.
func (o *observation) endQuiet() {
	o.inOp = false
	o.quiet.n = 0
}
