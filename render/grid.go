package render

import (
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// gridLayout is how a window of n cells fits an area: k cells per drawn
// cell, cols x rows drawn cells of size pixels.
type gridLayout struct {
	k, drawn, cols, rows int
	size                 float32
}

// layoutGrid fits n cells into w x h with square drawn cells of at least
// least pixels, aggregating k cells into one when they do not fit.
func layoutGrid(n int, w, h, least float32) gridLayout {
	if n <= 0 || w < least || h < least {
		return gridLayout{k: 1}
	}
	capacity := int(w/least) * int(h/least)
	k := max(1, (n+capacity-1)/capacity)
	m := (n + k - 1) / k
	best := gridLayout{k: k, drawn: m, cols: 1, rows: m}
	for cols := 1; cols <= m && float32(cols) <= w; cols++ {
		rows := (m + cols - 1) / cols
		size := min(w/float32(cols), h/float32(rows))
		if size > best.size {
			best.cols, best.rows, best.size = cols, rows, size
		}
	}
	return best
}

// worst returns the most severe state in cells (and its writer).
func worst(cells []timeline.Cell) timeline.Cell {
	var w timeline.Cell
	sev := -1
	for _, c := range cells {
		if s := Severity(c.State); s > sev {
			w, sev = c, s
		}
	}
	return w
}

// sideData is what a side's views show: its run's timeline and the
// state at the side's time.
type sideData struct {
	side  uint8
	tl    *timeline.Timeline
	state *timeline.State
	t     sim.Time
}

// gridView is one buffer grid of a side: a label line, then the cells of
// the zoom window coloured by state (the worst state when aggregated),
// pointers as arrows onto their cell, and spans outlined.
type gridView struct {
	txt  *texts
	d    sideData
	g    int
	zoom Zoom
	// minCell is the frame's MinCell: a figure's smallest square.
	minCell float32
	// present: presentation mode, whose squares are presentCell or more.
	present bool
}

func (v *gridView) bind(txt *texts, d sideData, g int, zoom Zoom, minCell float32, present bool) {
	*v = gridView{txt: txt, d: d, g: g, zoom: zoom, minCell: minCell, present: present}
}

// least is the smallest square the grid draws.
func (v *gridView) least() float32 {
	if v.present {
		return max(v.minCell, presentCell)
	}
	return max(v.minCell, minCell)
}

// labelH is the height of the label line, and of the pointers' row when
// the grid has pointers.
func (v *gridView) labelH() float32 {
	if gridHasPointer(v.d.tl, v.g) {
		return textSz + 4 + pointerRow
	}
	return textSz + 4
}

// pointerRow is the height of the row above a grid where its pointers'
// arrows and names go: names never cover cells.
const pointerRow = smallSz + 4

func (v *gridView) MinSize() Size { return Size{v.least(), v.labelH() + v.least()} }

func (v *gridView) TextSizes() TextSizes {
	return TextSizes{Title: textSz, Body: smallSz, Least: smallSz}
}

func (v *gridView) Describe(r Ref) string { return v.d.describe(r) }

func (v *gridView) Build(s *Scene, r Rect) {
	ids := &sideIDs[v.d.side]
	tl, state, g := v.d.tl, v.d.state, v.g
	x, y, w, h := r.X, r.Y, r.W, r.H
	spec := &tl.Grids[g]
	if g >= len(state.Cells) {
		return
	}
	cells := state.Cells[g]
	z := v.zoom.Clamp(len(cells))
	label := spec.Label
	if z.Count < len(cells) {
		label = v.txt.Join(label, " · zoom from ", v.txt.Hex(spec.Base+uint64(z.First)*uint64(spec.CellBytes)))
	}
	top := y + v.labelH()
	lay := layoutGrid(z.Count, w, y+h-top, v.least())
	if lay.size <= 0 {
		s.Text(ids.gridLabel, x, y+textSz, v.txt.Fit(label, w, textSz), textSz, Muted, AlignStart)
		return
	}
	labelW := w
	if lay.k > 1 {
		// Each square stands for k cells (lines or pages); say which.
		per := v.txt.Join(v.txt.Num(float64(lay.k)), " ", v.txt.Join(unitWord(spec.CellBytes, lay.k), "/square", ""))
		s.Add(Item{Kind: KindText, ID: ids.gridScale, X: x + w, Y: y + textSz, Text: per, Size: smallSz, Fill: Muted, Align: AlignEnd,
			Ref: Ref{Kind: RefExplain, Side: v.d.side, Index: explainScale, Obj: int32(lay.k), Count: int32(spec.CellBytes)}})
		labelW -= textWidth(per, smallSz) + 8
	}
	s.Text(ids.gridLabel, x, y+textSz, v.txt.FitFirst(labelW, textSz, label, baseLabel(label)), textSz, Muted, AlignStart)
	v.cells(s, cells, z, lay, x, top)
	v.spans(s, z, lay, x, top)
	v.pointers(s, z, lay, x, top)
}

// cells draws the zoom window's cells: squares big enough apart (inset),
// touching in a figure (MinCell set), where runs of one colour on a row
// merge into one item so that dense grids stay cheap to paint; hazards
// hatched.
func (v *gridView) cells(s *Scene, cells []timeline.Cell, z Zoom, lay gridLayout, x, top float32) {
	ids := &sideIDs[v.d.side]
	inset := float32(0)
	if lay.size >= 5 && v.minCell == 0 {
		inset = 1
	}
	end := z.First + z.Count
	for i := 0; i < lay.drawn; {
		lo := z.First + i*lay.k
		c := worst(cells[lo:min(lo+lay.k, end)])
		col, row := i%lay.cols, i/lay.cols
		run := 1
		if inset == 0 {
			for col+run < lay.cols && i+run < lay.drawn {
				nlo := z.First + (i+run)*lay.k
				if CellColor(worst(cells[nlo:min(nlo+lay.k, end)]).State) != CellColor(c.State) {
					break
				}
				run++
			}
		}
		hi := min(z.First+(i+run)*lay.k, end)
		cx, cy := x+float32(col)*lay.size, top+float32(row)*lay.size
		s.Rect(ids.grid, int32(i), cx+inset, cy+inset, float32(run)*lay.size-2*inset, lay.size-2*inset, CellColor(c.State),
			Ref{Kind: RefCells, Side: v.d.side, Obj: int32(v.g), Index: int32(lo), Count: int32(hi - lo)})
		markCell(s, ids.gridMark, c.State, cx+inset, cy+inset, float32(run)*lay.size-2*inset, lay.size-2*inset)
		i += run
	}
}

// spans outlines the grid's spans (the synced range), row by row.
func (v *gridView) spans(s *Scene, z Zoom, lay gridLayout, x, top float32) {
	side, tl, state, g := v.d.side, v.d.tl, v.d.state, v.g
	ids := &sideIDs[side]
	for i, sp := range tl.Spans {
		if sp.Grid != g || i >= len(state.Spans) || state.Spans[i].Count <= 0 {
			continue
		}
		r := state.Spans[i]
		lo, hi := max(r.First, z.First), min(r.First+r.Count, z.First+z.Count)
		if hi <= lo {
			continue
		}
		d0, d1 := (lo-z.First)/lay.k, (hi-z.First+lay.k-1)/lay.k
		for row := d0 / lay.cols; row <= (d1-1)/lay.cols; row++ {
			c0, c1 := max(d0-row*lay.cols, 0), min(d1-row*lay.cols, lay.cols)
			s.Add(Item{Kind: KindRect, ID: ids.span, Index: int32(row), X: x + float32(c0)*lay.size, Y: top + float32(row)*lay.size,
				W: float32(c1-c0) * lay.size, H: lay.size, Fill: None, Stroke: Cursor, StrokeWidth: 2,
				Ref: Ref{Kind: RefSpan, Side: side, Obj: int32(i)}})
		}
	}
}

// pointers draws the grid's pointers in the row above the cells: each an
// arrow down at its cell's column, named beside it, and its cell framed
// in the arrow's colour (a cell in a lower row is found by its frame).
func (v *gridView) pointers(s *Scene, z Zoom, lay gridLayout, x, top float32) {
	side, tl, state, g := v.d.side, v.d.tl, v.d.state, v.g
	ids := &sideIDs[side]
	n := 0
	// Pointers on the same or nearby columns (RRP = RWP, head just past
	// tail) would put their names on top of each other: each name takes
	// the first room right of its arrow that no earlier name covers, or,
	// at the right edge, the first room left of it.
	var spans [8]struct{ x0, x1 float32 }
	placed := 0
	covering := func(x0, x1 float32) (lo, hi float32, ok bool) {
		for k := 0; k < placed; k++ {
			if sp := spans[k]; x0 < sp.x1 && sp.x0 < x1 {
				return sp.x0, sp.x1, true
			}
		}
		return 0, 0, false
	}
	right := x + float32(lay.cols)*lay.size
	baseline := top - 4
	for i, val := range tl.Values {
		if val.Kind != timeline.ValuePointer || val.Grid != g || i >= len(state.Values) {
			continue
		}
		p := int(state.Values[i])
		if p < z.First || p > z.First+z.Count {
			continue
		}
		d := (p - z.First) / lay.k
		col, row := d%lay.cols, d/lay.cols
		past := d == lay.drawn && d > 0 && col == 0
		if past {
			// Just past the last cell: point at the end of the last row.
			col, row = lay.cols, row-1
		}
		px := x + float32(col)*lay.size
		colour := pointerColour(n)
		n++
		ref := Ref{Kind: RefValue, Side: side, Obj: int32(i)}
		if !past {
			s.Add(Item{Kind: KindRect, ID: ids.gridMark, Index: int32(i), X: px, Y: top + float32(row)*lay.size, W: lay.size, H: lay.size,
				Fill: None, Stroke: colour, StrokeWidth: 2})
			px += min(lay.size/2, 4)
		}
		s.Arrow(ids.pointer, px, top-pointerRow+2, px, top, colour, 2, ref)
		lw := textWidth(val.ID, smallSz)
		lx := px + 3
		for k := 0; k <= placed; k++ {
			_, hi, ok := covering(lx, lx+lw)
			if !ok {
				break
			}
			lx = hi + smallSz*0.6
		}
		x0, x1 := lx, lx+lw
		if x1 <= right {
			s.TextRef(ids.pointerLabel, lx, baseline, val.ID, smallSz, colour, AlignStart, ref)
		} else {
			// At the right edge: the name goes to the left of the arrow.
			end := px - 3
			for k := 0; k <= placed; k++ {
				lo, _, ok := covering(end-lw, end)
				if !ok {
					break
				}
				end = lo - smallSz*0.6
			}
			s.TextRef(ids.pointerLabel, end, baseline, val.ID, smallSz, colour, AlignEnd, ref)
			x0, x1 = end-lw, end
		}
		if placed < len(spans) {
			spans[placed] = struct{ x0, x1 float32 }{x0, x1}
			placed++
		}
	}
}

func pointerColour(n int) Color {
	if n%2 == 0 {
		return Cursor
	}
	return Accent
}
