package render

import (
	"unicode/utf8"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// laneCache remembers, per pair of results, the lanes of each side, the
// phase meanings, the cell states in order of first appearance (A then
// B) and the translation legend's entries, so legends list only what the
// runs show and frames do not recompute them (the translation entries
// scan every mapping and TLB event: tens of milliseconds a frame in
// WebAssembly on a 1 GiB AUX buffer's record).
type laneCache struct {
	res         [2]*scenario.Result
	lanes       [2][]string
	meanings    []PhaseMeaning
	states      []timeline.CellState
	translation [numTLLegend]bool
}

func (lc *laneCache) update(a, b *scenario.Result) {
	if lc.res[0] == a && lc.res[1] == b && (a != nil || b != nil) {
		return
	}
	lc.res = [2]*scenario.Result{a, b}
	lc.translation = translationShown(a, b)
	lc.meanings = lc.meanings[:0]
	var seen [timeline.NumCellStates]bool
	for side, r := range lc.res {
		lc.lanes[side] = lc.lanes[side][:0]
		if r == nil || r.Timeline == nil {
			continue
		}
		for _, p := range r.Timeline.Phases {
			lc.lanes[side] = appendNew(lc.lanes[side], p.Lane)
			if m := MeaningOf(p.Kind); !hasMeaning(lc.meanings, m) {
				lc.meanings = append(lc.meanings, m)
			}
		}
		markStates(r.Timeline, &seen)
	}
	lc.states = lc.states[:0]
	for c := timeline.CellState(1); c < timeline.NumCellStates; c++ {
		if seen[c] {
			lc.states = append(lc.states, c)
		}
	}
}

func hasMeaning(list []PhaseMeaning, m PhaseMeaning) bool {
	for _, o := range list {
		if o == m {
			return true
		}
	}
	return false
}

// markStates records every cell state a timeline's grids take: in its
// first keyframe or set by an event.
func markStates(tl *timeline.Timeline, seen *[timeline.NumCellStates]bool) {
	if len(tl.Keyframes) > 0 {
		for _, g := range tl.Keyframes[0].State.Cells {
			for _, c := range g {
				if c.State < timeline.NumCellStates {
					seen[c.State] = true
				}
			}
		}
	}
	for _, e := range tl.Events {
		if e.Kind == timeline.EvCells {
			if c := timeline.CellState(e.C & 0xff); c < timeline.NumCellStates {
				seen[c] = true
			}
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
	labelW := float32(textWidth("B device", smallSz) + 8)
	ax, aw := x+labelW, w-labelW-8
	top := y + textSz + 8
	// The legend starts under the axis, or under the lanes' names when
	// that saves a row (a narrow stage).
	legendX := ax
	legendRows := legendRowCount(lc.meanings, ax, x+w)
	if n := legendRowCount(lc.meanings, x, x+w); n < legendRows {
		legendX, legendRows = x, n
	}
	rowH := min((h-(textSz+8)-(smallSz+10)-float32(legendRows)*(smallSz+6))/float32(rows), 22)
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
		// Phases narrower than a pixel share it: the first one in a pixel
		// column of a lane is drawn and the rest skipped, so thousands of
		// per-entry phases cost one item per pixel (an exported figure of
		// sg-sync stays small).
		var pixel, elapsedPixel [maxLanes]int
		for i := range pixel {
			pixel[i], elapsedPixel[i] = -1, -1
		}
		for pi, p := range r.Timeline.Phases {
			li := index(lc.lanes[side], p.Lane)
			ry := top + float32(row+li)*rowH
			c := PhaseColor(p.Kind)
			x0, x1 := xOf(common(p.Start)), xOf(common(p.End))
			ref := Ref{Kind: RefPhase, Side: uint8(side), Index: int32(pi)}
			thin, px := x1-x0 < 1 && li < maxLanes, int(x0)
			if !thin || pixel[li] != px {
				s.Add(Item{Kind: KindRect, ID: "timeline/phase", Index: int32(pi), X: x0, Y: ry + 2, W: max(x1-x0, 1), H: rowH - 4,
					Fill: None, Stroke: c, StrokeWidth: 1, Ref: ref})
				if thin {
					pixel[li] = px
				}
			}
			if sd.Time > p.Start && (!thin || elapsedPixel[li] != px) {
				xe := xOf(common(min(sd.Time, p.End)))
				s.Rect("timeline/elapsed", int32(pi), x0, ry+2, max(xe-x0, 1), rowH-4, c, ref)
				if thin {
					elapsedPixel[li] = px
				}
			}
			if namedOnBar(p.Kind) && x1-x0 > textWidth(p.Kind, smallSz)+6 && rowH >= smallSz+2 {
				s.Text("timeline/phase-name", x0+3, ry+rowH/2+smallSz*0.35, p.Kind, smallSz, Text, AlignStart)
			}
		}
		row += len(lc.lanes[side])
	}
	bottom := top + float32(rows)*rowH
	cx := xOf(f.Cursor)
	// Outlined, so it shows over a bar of any colour.
	s.Line("timeline/cursor-edge", cx, top-4, cx, bottom+4, Background, 4)
	s.Line("timeline/cursor", cx, top-4, cx, bottom+4, Cursor, 2)
	s.Line("timeline/axis", ax, bottom+4, ax+aw, bottom+4, Muted, 1)
	s.Text("timeline/axis-label", ax, bottom+4+smallSz+2, "0", smallSz, Muted, AlignStart)
	endLabel := st.txt.Time(f.Length)
	if f.Progress {
		endLabel = "100%"
	}
	s.Text("timeline/axis-label", ax+aw, bottom+4+smallSz+2, endLabel, smallSz, Muted, AlignEnd)
	lx := legendX
	ly := bottom + 4 + smallSz + 6
	for i, m := range lc.meanings {
		// Wrap onto a second row rather than run into the counters.
		if ew := 14 + textWidth(m.Label, smallSz); lx > legendX && lx+ew > x+w {
			lx, ly = legendX, ly+smallSz+6
		}
		s.Rect("timeline/legend", int32(i), lx, ly+1, 11, 11, m.Color, Ref{Kind: RefLegend, Index: int32(i), Obj: 1})
		s.TextRef("timeline/legend-label", lx+14, ly+11, m.Label, smallSz, Text, AlignStart, Ref{Kind: RefLegend, Index: int32(i), Obj: 1})
		lx += 14 + textWidth(m.Label, smallSz) + 12
	}
}

// maxLanes bounds the lanes per side whose sub-pixel phases are merged.
const maxLanes = 16

// legendRowCount is how many rows the phase legend takes from x0 to x1.
func legendRowCount(ms []PhaseMeaning, x0, x1 float32) int {
	rows, lx := 1, x0
	for _, m := range ms {
		ew := 14 + textWidth(m.Label, smallSz)
		if lx > x0 && lx+ew > x1 {
			rows, lx = rows+1, x0
		}
		lx += ew + 12
	}
	return rows
}

// textWidth estimates a run's width (the painter and SVG use a sans-serif
// font about 0.6 em wide on average).
func textWidth(s string, size float32) float32 {
	return float32(utf8.RuneCountInString(s)) * size * 0.6
}

// cellLegend draws a swatch and name for every cell state the runs show,
// wrapping onto at most rows rows (cellLegendRows, fewer where the columns
// need the room), so that no colour on the grids goes unexplained on a
// narrow stage.
func cellLegend(s *Scene, states []timeline.CellState, x, y, w float32, rows int) {
	cellLegendFlow(states, w, rows, func(c timeline.CellState, name string, dx float32, row int) {
		lx, ry := x+dx, y+float32(row)*legendH
		s.Rect("legend/swatch", int32(c), lx, ry+4, 12, 12, CellColor(c), Ref{Kind: RefLegend, Index: int32(c)})
		s.TextRef("legend/label", lx+16, ry+14, name, smallSz, Text, AlignStart, Ref{Kind: RefLegend, Index: int32(c)})
	})
}

// maxCellLegendRows bounds the rows the cell legend takes from the columns.
const maxCellLegendRows = 3

// cellLegendRows is the number of rows cellLegend needs for states in a
// width of w: one on a wide stage, two for ETR's seven states beside the
// panel in a 1024 px window.
func cellLegendRows(states []timeline.CellState, w float32) int {
	return cellLegendFlow(states, w, maxCellLegendRows, nil)
}

// cellLegendFlow lays the legend's entries out in reading order, wrapping
// at width w, and calls at (when not nil) with each entry's offset and row;
// it stops at an entry that would start row maxRows or does not fit a row
// of its own, and returns the rows used (at least one, the row the layout
// always keeps).
func cellLegendFlow(states []timeline.CellState, w float32, maxRows int, at func(c timeline.CellState, name string, dx float32, row int)) int {
	dx, row := float32(0), 0
	for _, c := range states {
		name := CellLabel(c)
		ew := 16 + textWidth(name, smallSz)
		if dx > 0 && dx+ew > w {
			row, dx = row+1, 0
		}
		if row >= maxRows || ew > w {
			return max(min(row, maxRows), 1)
		}
		if at != nil {
			at(c, name, dx, row)
		}
		dx += ew + 12
	}
	return row + 1
}
