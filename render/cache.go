package render

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/timeline"
)

// recentEvents is how many of the latest events count as "just happened"
// (outlined in the cache view, so fills, evictions and maintenance show as
// they occur).
const recentEvents = 24

// cacheMarkIDs are the ids of the stripes on a stale or doomed way.
var cacheMarkIDs = [2]string{"a/cache-mark", "b/cache-mark"}

// cacheView draws cache window c as sets (rows) x ways (columns): invalid
// ways empty, valid ways in the "cached" colour, dirty ways in the
// CPU-written colour with a D; tags when a way is wide enough to read
// them; ways changed by one of the last recentEvents events before the
// side's time outlined.
type cacheView struct {
	txt *texts
	d   sideData
	c   int
}

func (v *cacheView) bind(txt *texts, d sideData, c int) { *v = cacheView{txt: txt, d: d, c: c} }

// minCacheRow is the shortest row a set is drawn in: below it the rows
// run together into one block. A short window shows its first sets only
// (at least minCacheSets), each that high, and its label says which.
const (
	minCacheRow  = 5
	minCacheSets = 4
)

// MinSize gives each way 2 pixels and each of the first minCacheSets sets
// minCacheRow under the label.
func (v *cacheView) MinSize() Size {
	spec := &v.d.tl.Caches[v.c]
	return Size{2 * float32(spec.Ways), textSz + 4 + float32(min(spec.Sets, minCacheSets))*minCacheRow}
}

// setsIn is how many of the window's sets a view h high shows.
func (v *cacheView) setsIn(h float32) int {
	sets := v.d.tl.Caches[v.c].Sets
	return min(sets, int((h-textSz-4)/minCacheRow))
}

func (v *cacheView) TextSizes() TextSizes {
	return TextSizes{Title: smallSz, Body: smallSz, Least: smallSz}
}

func (v *cacheView) Describe(r Ref) string {
	if r.Kind == RefCacheWay {
		return v.describeWay(int(r.Obj), int(r.Index))
	}
	return v.d.describe(r)
}

func (v *cacheView) Build(s *Scene, r Rect) {
	ids := &sideIDs[v.d.side]
	tl, state, c := v.d.tl, v.d.state, v.c
	x, y, w, h := r.X, r.Y, r.W, r.H
	spec := &tl.Caches[c]
	if c >= len(state.Caches) || spec.Ways <= 0 || spec.Sets <= 0 {
		return
	}
	shown := max(v.setsIn(h), 1)
	sets := v.txt.Join(v.txt.Num(float64(spec.FirstSet)), "..", v.txt.Num(float64(spec.FirstSet+shown-1)))
	of := v.txt.Join(sets, " of ", v.txt.Num(float64(spec.TotalSets)))
	label := v.txt.FitFirst(w, smallSz, v.txt.Join(spec.Label, " sets ", of), v.txt.Join(spec.Label, " ", of), v.txt.Join(spec.Label, " sets ", sets), v.txt.Join(spec.Label, " ", sets))
	s.TextRef(ids.cacheLabel, x, y+textSz, label, smallSz, Muted, AlignStart,
		Ref{Kind: RefExplain, Side: v.d.side, Index: explainCache, Obj: int32(spec.FirstSet), Count: int32(spec.TotalSets)})
	top := y + textSz + 4
	cw := w / float32(spec.Ways)
	rh := min((y+h-top)/float32(shown), 22)
	if cw < 2 || v.setsIn(h) < min(spec.Sets, minCacheSets) {
		return
	}
	if !v.ways(s, state.Caches[c], shown, x, top, cw, rh) {
		return
	}
	n := tl.EventsUntil(v.d.t)
	for _, e := range tl.Events[max(n-recentEvents, 0):n] {
		if e.Kind != timeline.EvCache || int(e.Obj) != c || e.A < 0 || e.A >= int64(shown*spec.Ways) {
			continue
		}
		set, way := int(e.A)/spec.Ways, int(e.A)%spec.Ways
		s.Frame(ids.cacheRecent, x+float32(way)*cw, top+float32(set)*rh, cw, rh, Cursor, 1.5)
	}
}

// ways draws the first sets' ways, cw x rh each, from (x, top); false
// when the state holds fewer lines than the window (nothing more is
// drawn).
func (v *cacheView) ways(s *Scene, lines []timeline.CacheLine, sets int, x, top, cw, rh float32) bool {
	ids := &sideIDs[v.d.side]
	spec := &v.d.tl.Caches[v.c]
	inset := float32(0.5)
	for set := 0; set < sets; set++ {
		for way := 0; way < spec.Ways; way++ {
			i := set*spec.Ways + way
			if i >= len(lines) {
				return false
			}
			l := lines[i]
			fill, mark := Surface, timeline.CellEmpty
			switch {
			case l.Valid && l.Stale && l.Dirty:
				mark = timeline.CellDoomed
			case l.Valid && l.Stale:
				mark = timeline.CellStaleCopy
			case l.Valid && l.Dirty:
				fill = CellColor(timeline.CellCPUWritten)
			case l.Valid:
				fill = CellColor(timeline.CellCached)
			}
			if mark != timeline.CellEmpty {
				fill = CellColor(mark)
			}
			lx, ly := x+float32(way)*cw, top+float32(set)*rh
			s.Rect(ids.cache, int32(i), lx+inset, ly+inset, cw-2*inset, rh-2*inset, fill,
				Ref{Kind: RefCacheWay, Side: v.d.side, Obj: int32(v.c), Index: int32(i)})
			if mark != timeline.CellEmpty {
				// One stripe in the colour of the hazard the way turns
				// into, along its bottom (a way is wide and short: the
				// grid's hatching would take a dozen lines each).
				s.Line(cacheMarkIDs[min(v.d.side, 1)], lx+inset, ly+rh-inset-1, lx+cw-inset, ly+rh-inset-1, markColor(mark), min(2, max(rh/4, 1)))
			}
			if l.Valid && rh >= smallSz+4 {
				tag := v.txt.Hex(l.Tag)
				if l.Dirty {
					tag = v.txt.Join(tag, " D", "")
				}
				if textWidth(tag, smallSz) <= cw-8 {
					s.Text(ids.cacheTag, lx+4, ly+rh-4, tag, smallSz, Background, AlignStart)
				}
			}
		}
	}
	return true
}

// describeWay says what way i of cache window c holds.
func (v *cacheView) describeWay(c, i int) string {
	tl, state := v.d.tl, v.d.state
	if c >= len(tl.Caches) || state == nil || c >= len(state.Caches) || i >= len(state.Caches[c]) {
		return ""
	}
	spec := &tl.Caches[c]
	l := state.Caches[c][i]
	where := fmt.Sprintf("%s %s set %d way %d", v.d.name(), spec.Label, spec.FirstSet+i/max(spec.Ways, 1), i%max(spec.Ways, 1))
	switch {
	case !l.Valid:
		return where + " · invalid"
	case l.Stale && l.Dirty:
		return fmt.Sprintf("%s · line PA %#x · valid, dirty, doomed (a device wrote this line after the CPU dirtied it: the write-back will overwrite the new data)", where, l.Tag)
	case l.Stale:
		return fmt.Sprintf("%s · line PA %#x · valid, clean, a stale copy (a device wrote this line after it was cached: memory is newer)", where, l.Tag)
	case l.Dirty:
		return fmt.Sprintf("%s · line PA %#x · valid, dirty (the CPU wrote it; memory is older)", where, l.Tag)
	}
	return fmt.Sprintf("%s · line PA %#x · valid, clean", where, l.Tag)
}
