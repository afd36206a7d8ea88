package render

import (
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// recentEvents is how many of the latest events count as "just happened"
// (outlined in the cache view, so fills, evictions and maintenance show as
// they occur).
const recentEvents = 24

// cache draws cache window c as sets (rows) x ways (columns): invalid ways
// empty, valid ways in the "cached" colour, dirty ways in the CPU-written
// colour with a D; tags when a way is wide enough to read them; ways changed
// by one of the last recentEvents events before the side's time outlined.
func (st *Stage) cache(s *Scene, side uint8, tl *timeline.Timeline, state *timeline.State, c int, at sim.Time, x, y, w, h float32) {
	ids := &sideIDs[side]
	spec := &tl.Caches[c]
	if c >= len(state.Caches) || spec.Ways <= 0 || spec.Sets <= 0 {
		return
	}
	lines := state.Caches[c]
	sets := st.txt.Join(st.txt.Num(float64(spec.FirstSet)), "..", st.txt.Num(float64(spec.FirstSet+spec.Sets-1)))
	of := st.txt.Join(sets, " of ", st.txt.Num(float64(spec.TotalSets)))
	label := st.txt.FitFirst(w, smallSz, st.txt.Join(spec.Label, " sets ", of), st.txt.Join(spec.Label, " ", of), st.txt.Join(spec.Label, " sets ", sets), st.txt.Join(spec.Label, " ", sets))
	s.TextRef(ids.cacheLabel, x, y+textSz, label, smallSz, Muted, AlignStart,
		Ref{Kind: RefExplain, Side: side, Index: explainCache, Obj: int32(spec.FirstSet), Count: int32(spec.TotalSets)})
	top := y + textSz + 4
	cw := w / float32(spec.Ways)
	rh := min((y+h-top)/float32(spec.Sets), 22)
	if cw < 2 || rh < 1 {
		return
	}
	inset := float32(0)
	if rh >= 4 {
		inset = 0.5
	}
	for set := 0; set < spec.Sets; set++ {
		for way := 0; way < spec.Ways; way++ {
			i := set*spec.Ways + way
			if i >= len(lines) {
				return
			}
			l := lines[i]
			fill := Surface
			switch {
			case l.Valid && l.Dirty:
				fill = CellColor(timeline.CellCPUWritten)
			case l.Valid:
				fill = CellColor(timeline.CellCached)
			}
			lx, ly := x+float32(way)*cw, top+float32(set)*rh
			s.Rect(ids.cache, int32(i), lx+inset, ly+inset, cw-2*inset, rh-2*inset, fill,
				Ref{Kind: RefCacheWay, Side: side, Obj: int32(c), Index: int32(i)})
			if l.Valid && rh >= smallSz+2 && cw >= 80 {
				tag := st.txt.Hex(l.Tag)
				if l.Dirty {
					tag = st.txt.Join(tag, " D", "")
				}
				s.Text(ids.cacheTag, lx+4, ly+rh-3, tag, smallSz-1, Background, AlignStart)
			}
		}
	}
	n := tl.EventsUntil(at)
	for _, e := range tl.Events[max(n-recentEvents, 0):n] {
		if e.Kind != timeline.EvCache || int(e.Obj) != c || e.A < 0 || e.A >= int64(spec.Sets*spec.Ways) {
			continue
		}
		set, way := int(e.A)/spec.Ways, int(e.A)%spec.Ways
		s.Frame(ids.cacheRecent, x+float32(way)*cw, top+float32(set)*rh, cw, rh, Cursor, 1.5)
	}
}

// gauges draws the values that are neither grid pointers nor grid flags:
// gauges as bars of Value/Max, flags as on/off, pointers without a grid as
// numbers.
func (st *Stage) gauges(s *Scene, side uint8, tl *timeline.Timeline, state *timeline.State, x, y, w float32) {
	ids := &sideIDs[side]
	row := 0
	for i, v := range tl.Values {
		if !isGauge(v) || i >= len(state.Values) {
			continue
		}
		if row >= maxGaugeRows {
			return
		}
		val := state.Values[i]
		ry := y + float32(row)*gaugeRow
		s.TextRef(ids.gaugeLabel, x, ry+textSz, st.txt.FitFirst(w, smallSz, v.Label, baseLabel(v.Label)), smallSz, Muted, AlignStart, Ref{Kind: RefValue, Side: side, Obj: int32(i)})
		bx, bw := x+w*0.45, w*0.4
		if gaugeTwoLines(v, w) {
			// The label takes its own line; the bar goes under it.
			row++
			ry += gaugeRow
			bx, bw = x, w*0.8
		}
		ref := Ref{Kind: RefValue, Side: side, Obj: int32(i)}
		switch v.Kind {
		case timeline.ValueFlag:
			fill, word := Surface, "off"
			if val != 0 {
				fill, word = Text, "on"
			}
			s.Rect(ids.gauge, int32(i), bx, ry+3, 28, gaugeRow-6, fill, ref)
			s.Text(ids.gaugeLabel, bx+34, ry+textSz, word, smallSz, Text, AlignStart)
		case timeline.ValueGauge:
			s.Rect(ids.gauge, int32(i), bx, ry+3, bw, gaugeRow-6, Surface, ref)
			if v.Max > 0 && val > 0 {
				s.Rect(ids.gauge, int32(i), bx, ry+3, bw*float32(min(val, v.Max))/float32(v.Max), gaugeRow-6, Accent, ref)
			}
			s.Text(ids.gaugeLabel, bx+bw+6, ry+textSz, st.txt.Num(float64(val)), smallSz, Text, AlignStart)
		default:
			s.Text(ids.gaugeLabel, bx, ry+textSz, st.txt.Num(float64(val)), smallSz, Text, AlignStart)
		}
		row++
	}
}

// maxGaugeRows bounds the rows the gauges take under a side's column.
const maxGaugeRows = 6

// gaugeTwoLines reports whether a gauge's label is too long to share its
// line with the bar and value in a column w wide.
func gaugeTwoLines(v timeline.ValueSpec, w float32) bool {
	return textWidth(v.Label, smallSz)+6 > w*0.45
}

// gaugeRows is how many rows the gauges of tl take in a column w wide.
func gaugeRows(tl *timeline.Timeline, w float32) int {
	n := 0
	for _, v := range tl.Values {
		if !isGauge(v) {
			continue
		}
		n++
		if gaugeTwoLines(v, w) {
			n++
		}
	}
	return min(n, maxGaugeRows)
}
