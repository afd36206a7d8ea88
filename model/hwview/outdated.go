package hwview

import (
	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/soc"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// outdatedEvent draws a cached copy outdated when it happens: the line's
// cell shows a stale copy or a doomed line, carrying who made it old, and
// the cache windows mark the line's ways stale; the copy's eviction,
// which no other report shows, turns the cell back to the device's data.
func (rec *Recording) outdatedEvent(e *hwevent.Event) {
	if e.Kind == hwevent.StaleEvicted {
		rec.setCell(e.T, e.Addr, timeline.CellDeviceWritten, e.Writer, timeline.WhyNone, true)
		return
	}
	st := timeline.CellStaleCopy
	if e.Kind == hwevent.Doomed {
		st = timeline.CellDoomed
	}
	why := timeline.WhyDeviceWrite
	switch {
	case e.Has(hwevent.Elsewhere):
		why = timeline.WhyBounceSlot
	case e.Has(hwevent.NC):
		why = timeline.WhyNCWrite
	}
	rec.setCell(e.T, e.Addr, st, e.Writer, why, false)
	live := rec.r.Live()
	line := e.Addr / rec.m.LineBytes()
	for _, w := range rec.caches {
		set := int(line % uint64(w.total))
		if set < w.first || set >= w.first+w.sets || w.obj >= len(live.Caches) {
			continue
		}
		for way := 0; way < w.ways; way++ {
			i := (set-w.first)*w.ways + way
			if l := live.Caches[w.obj][i]; l.Valid && l.Tag == e.Addr {
				rec.r.StaleLine(rec.at(e.T), w.obj, i)
			}
		}
	}
}

// Fates turns the machine's count of outdated copies (soc.Machine.Fates)
// into the contract's.
func Fates(f soc.Fates) scenario.Fates {
	return scenario.Fates{Stale: int64(f.Stale), Doomed: int64(f.Doomed), Read: int64(f.Read), Evicted: int64(f.Evicted),
		Invalidated: int64(f.Invalidated), Lost: int64(f.Lost), Discarded: int64(f.Discarded), Overwritten: int64(f.Overwritten),
		Cached: int64(f.StillHeld)}
}
