package render

import (
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
)

// laneCache remembers, per pair of results, the lanes of each side and the
// phase kinds in order of first appearance (A then B), so colours are
// stable for a run pair and frames do not recompute them.
type laneCache struct {
	res   [2]*scenario.Result
	lanes [2][]string
	kinds []string
}

func (lc *laneCache) update(a, b *scenario.Result) {
	if lc.res[0] == a && lc.res[1] == b && (a != nil || b != nil) {
		return
	}
	lc.res = [2]*scenario.Result{a, b}
	lc.kinds = lc.kinds[:0]
	for side, r := range lc.res {
		lc.lanes[side] = lc.lanes[side][:0]
		if r == nil || r.Timeline == nil {
			continue
		}
		for _, p := range r.Timeline.Phases {
			lc.lanes[side] = appendNew(lc.lanes[side], p.Lane)
			lc.kinds = appendNew(lc.kinds, p.Kind)
		}
	}
}

func appendNew(list []string, s string) []string {
	for _, o := range list {
		if o == s {
			return list
		}
	}
	return append(list, s)
}

func index(list []string, s string) int {
	for i, o := range list {
		if o == s {
			return i
		}
	}
	return -1
}

// PhaseColor is the colour of a phase kind: fixed for the kinds the
// scenarios share, otherwise by order of first appearance.
func PhaseColor(kind string, order int) Color {
	switch kind {
	case "copy":
		return Green
	case "nc-read":
		return Blue
	case "invalidate", "clean":
		return Sky
	case "dsb-wait":
		return Vermillion
	case "dma-write":
		return Orange
	case "warm", "idle":
		return Grey
	case "walk":
		return Purple
	}
	spare := [...]Color{Yellow, Purple, PaleSky, Orange, Green, Blue}
	return spare[max(order, 0)%len(spare)]
}

// timeline draws both sides' phases on one axis: a row per lane, elapsed
// parts filled and the rest outlined, the cursor as a vertical line, and a
// legend of phase kinds.
func (st *Stage) timeline(s *Scene, f *Frame, x, y, w, h float32) {
	lc := &st.lanes
	lc.update(f.A.Result, f.B.Result)
	rows := len(lc.lanes[0]) + len(lc.lanes[1])
	s.Text("timeline/title", x, y+textSz, "where the time went", textSz, Muted, AlignStart)
	if rows == 0 || f.Length <= 0 {
		return
	}
	labelW := float32(74)
	ax, aw := x+labelW, w-labelW-8
	top := y + textSz + 8
	rowH := min((h-(textSz+8)-2*legendH)/float32(rows), 22)
	if rowH < 4 || aw < 20 {
		return
	}
	xOf := func(t sim.Time) float32 { return ax + aw*float32(float64(t)/float64(f.Length)) }
	row := 0
	for side := 0; side < 2; side++ {
		sd := &f.A
		if side == 1 {
			sd = &f.B
		}
		r := sd.Result
		for li, lane := range lc.lanes[side] {
			ry := top + float32(row+li)*rowH
			s.Text("timeline/lane", x, ry+rowH*0.75, st.txt.Join(sideNames[side], " ", lane), smallSz, Text, AlignStart)
			s.Rect("timeline/track", int32(row+li), ax, ry+1, aw, rowH-2, Surface, Ref{})
		}
		if r == nil || r.Timeline == nil {
			continue
		}
		scale := 1.0
		if f.Progress && r.Timeline.End > 0 {
			scale = float64(f.Length) / float64(r.Timeline.End)
		}
		common := func(t sim.Time) sim.Time { return sim.Time(float64(t) * scale) }
		for pi, p := range r.Timeline.Phases {
			li := index(lc.lanes[side], p.Lane)
			ry := top + float32(row+li)*rowH
			c := PhaseColor(p.Kind, index(lc.kinds, p.Kind))
			x0, x1 := xOf(common(p.Start)), xOf(common(p.End))
			ref := Ref{Kind: RefPhase, Side: uint8(side), Index: int32(pi)}
			s.Add(Item{Kind: KindRect, ID: "timeline/phase", Index: int32(pi), X: x0, Y: ry + 2, W: max(x1-x0, 1), H: rowH - 4,
				Fill: None, Stroke: c, StrokeWidth: 1, Ref: ref})
			if sd.Time > p.Start {
				xe := xOf(common(min(sd.Time, p.End)))
				s.Rect("timeline/elapsed", int32(pi), x0, ry+2, max(xe-x0, 1), rowH-4, c, ref)
			}
		}
		row += len(lc.lanes[side])
	}
	bottom := top + float32(rows)*rowH
	cx := xOf(f.Cursor)
	s.Line("timeline/cursor", cx, top-4, cx, bottom+4, Cursor, 2)
	s.Line("timeline/axis", ax, bottom+4, ax+aw, bottom+4, Muted, 1)
	s.Text("timeline/axis-label", ax, bottom+4+smallSz+2, "0", smallSz, Muted, AlignStart)
	endLabel := st.txt.Time(f.Length)
	if f.Progress {
		endLabel = "100%"
	}
	s.Text("timeline/axis-label", ax+aw, bottom+4+smallSz+2, endLabel, smallSz, Muted, AlignEnd)
	lx := ax
	ly := bottom + 4 + smallSz + 8
	for i, k := range lc.kinds {
		s.Rect("timeline/legend", int32(i), lx, ly, 10, 10, PhaseColor(k, i), Ref{Kind: RefLegend, Index: int32(i), Obj: 1})
		s.Text("timeline/legend-label", lx+14, ly+9, k, smallSz, Text, AlignStart)
		lx += 14 + textWidth(k, smallSz) + 12
	}
}

// textWidth estimates a run's width (the painter and SVG use a sans-serif
// font about 0.6 em wide on average).
func textWidth(s string, size float32) float32 { return float32(len(s)) * size * 0.6 }

// cellLegend draws a swatch and name for every non-empty cell state.
func cellLegend(s *Scene, x, y, w float32) {
	lx := x
	for c := scenario.CellState(1); c < scenario.NumCellStates; c++ {
		name := c.String()
		if lx+14+textWidth(name, smallSz) > x+w {
			return
		}
		s.Rect("legend/swatch", int32(c), lx, y+4, 12, 12, CellColor(c), Ref{Kind: RefLegend, Index: int32(c)})
		s.Text("legend/label", lx+16, y+14, name, smallSz, Text, AlignStart)
		lx += 16 + textWidth(name, smallSz) + 12
	}
}
