package render

import (
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
)

// Presentation mode (Frame.Narrate, the panel hidden) is read from the
// back of a room, laid out at presentLayoutW x presentLayoutH (a 720p
// projector) and drawn larger. Each column holds its title line and the
// mechanism: the buffer grids with squares of at least presentCell, their
// rings, the cache windows and the gauges; or the page map, the TLBs and
// the table walk. Under the columns, across the stage, the narration row
// holds A's step, then B's (once, for both, when they say the same), as
// tall as the tallest pair of steps the run shows, so that every step
// reads whole and nothing above it moves through the run. Under that the
// legend, then the timeline beside the counters, which take what is left
// up to their usual share and are left out when less than bottomLeast is
// left (the narration says in words what they show, and the panel's
// metrics are one click away).
const (
	// presentCell is the least square of a grid in presentation mode (10
	// px on a 720p projector: a stale or doomed line is seen, not found).
	presentCell = 8
	// presentGridRows is how many rows of presentCell squares a grid
	// keeps at least (a larger buffer aggregates lines into them).
	presentGridRows = 6
	// presentTitleH is the height of a column's title line.
	presentTitleH = titleSz + 14
	// bottomLeast is the least height of the timeline and counters' row.
	bottomLeast = 110
	// narrLeast is the narration's least size (18 px at 720p).
	narrLeast = 14
	// stepGap is the space between A's step and B's in the narration row.
	stepGap = 6
)

// narrationRow remembers, for the last pair of results and width, the
// height of each step (its caption line and its text at narrLeast) and
// of the tallest pair of steps shown at once.
type narrationRow struct {
	a, b    *scenario.Result
	w       float32
	ha, hb  []float32
	tallest float32
}

// stepHeight is the height of a step w wide at narrLeast under its
// caption.
func stepHeight(step *scenario.Step, w float32) float32 {
	return narrateSz*1.25 + float32(len(Wrap(step.Text, w, narrLeast)))*narrLeast*1.25
}

// sameStep reports whether A's step i and B's step j say the same (shown
// once for both).
func sameStep(a, b *scenario.Result, i, j int) bool {
	return i >= 0 && j >= 0 && a.Narration[i].Title == b.Narration[j].Title && a.Narration[i].Text == b.Narration[j].Text
}

// height is the narration row's height for f's pair w wide: the tallest
// pair of steps at any cursor (each side's steps paired by time; with the
// sides aligned on progress, any step of A with any of B).
func (m *narrationRow) height(f *Frame, w float32) float32 {
	a, b := f.A.Result, f.B.Result
	if m.a == a && m.b == b && m.w == w {
		return m.tallest
	}
	*m = narrationRow{a: a, b: b, w: w, ha: m.ha[:0], hb: m.hb[:0]}
	if a != nil {
		for i := range a.Narration {
			m.ha = append(m.ha, stepHeight(&a.Narration[i], w))
		}
	}
	if b != nil {
		for i := range b.Narration {
			m.hb = append(m.hb, stepHeight(&b.Narration[i], w))
		}
	}
	pair := func(i, j int) float32 {
		switch {
		case i < 0 && j < 0:
			return 0
		case i < 0:
			return m.hb[j]
		case j < 0:
			return m.ha[i]
		case sameStep(a, b, i, j):
			return m.ha[i]
		}
		return m.ha[i] + stepGap + m.hb[j]
	}
	if a == nil || b == nil || f.Progress {
		for i := -1; i < len(m.ha); i++ {
			for j := -1; j < len(m.hb); j++ {
				m.tallest = max(m.tallest, pair(i, j))
			}
		}
		return m.tallest
	}
	var times []sim.Time
	for i := range a.Narration {
		times = append(times, a.Narration[i].T)
	}
	for j := range b.Narration {
		times = append(times, b.Narration[j].T)
	}
	for _, t := range times {
		m.tallest = max(m.tallest, pair(captionAt(a.Narration, min(t, a.End)), captionAt(b.Narration, min(t, b.End))))
	}
	return m.tallest
}

// layoutPresent lays out the stage area (x0, y0)-(x1, y1) in presentation
// mode (see presentCell): the columns as tall as their title and
// mechanism need, the narration row under them, the legend (its rows
// beyond the first only while the rest keep their need), and the
// timeline and counters' row in the rest when it is at least bottomLeast;
// the columns take what the row does not. A stage too short for even
// that shortens the narration's row, never the mechanism.
func (st *Stage) layoutPresent(f *Frame, x0, y0, x1, y1 float32, translation bool) runsLayout {
	colW := (x1 - x0 - gap) / 2
	mech := max(st.sides[0].least, st.sides[1].least)
	// Wrap counts 0.58 em a character, the layout 0.6: the row is
	// narrower by the difference, so no line reaches the stage's edge.
	rowW := (x1 - x0 - 16) * 0.58 / 0.6
	narr := st.narrRow.height(f, rowW)
	h := y1 - y0
	need := presentTitleH + mech + 8 + gap/2 + narr
	legendRows := 1
	if !translation {
		legendRows = cellLegendRows(st.lanes.states, x1-x0, presentLegendGap)
	}
	for legendRows > 1 && h-need-legendH*float32(legendRows)-gap/2 < 0 {
		legendRows--
	}
	legendTall := legendH * float32(legendRows)
	rest := h - need - legendTall - gap
	bottomH := float32(0)
	if rest >= bottomLeast {
		bottomH = min(rest, max(h*0.3, bottomLeast), 260)
	}
	under := narr + gap/2 + legendTall + gap/2
	if bottomH > 0 {
		under += gap/2 + bottomH
	}
	colBottom := max(y1-under, y0+presentTitleH+mech+8)
	narr = max(min(narr, y1-legendTall-gap-colBottom), narrateSz*2.5)
	l := runsLayout{
		colA:       Rect{x0, y0, colW, colBottom - y0},
		colB:       Rect{x0 + colW + gap, y0, colW, colBottom - y0},
		narrationR: Rect{x0 + 8, colBottom + gap/2, rowW, narr},
		legendRows: legendRows,
	}
	l.legend = Rect{x0, l.narrationR.Y + narr + gap/2, x1 - x0, legendTall}
	if bottomH > 0 {
		by := l.legend.Y + legendTall + gap/2
		tw := (x1 - x0) * 0.58
		if need := min(st.counters.need(y1-by), (x1-x0)*0.6); x1-x0-tw-gap < need {
			tw = x1 - x0 - gap - need
		}
		l.timeline = Rect{x0, by, tw, y1 - by}
		l.counters = Rect{x0 + tw + gap, by, x1 - x0 - tw - gap, y1 - by}
	}
	return l
}

// presentColumn lays out side's bound column r in presentation mode: the
// title line, then the mechanism.
func (st *Stage) presentColumn(s *Scene, side uint8, sd *Side, r Rect) {
	sv := &st.sides[side]
	st.header(s, sv, side, sd, sv.ok, columnHeader, true, r)
	if !sv.ok || sv.d.state == nil {
		return
	}
	content := Rect{r.X + 8, r.Y + presentTitleH, r.W - 16, r.H - presentTitleH - 8}
	if hasTLBs(sv.d.tl) {
		st.translationColumn(s, sv, content)
		return
	}
	st.bufferColumn(s, sv, sv.d, content)
}

// presentSteps shows the sides' narration steps in the row r: A's, then
// B's under it, each under its caption with the side's letter, or one
// step for both when they say the same. A's may take what B's needs at
// the least size leaves.
func (st *Stage) presentSteps(s *Scene, f *Frame, r Rect) {
	a, b := &st.sides[0], &st.sides[1]
	ia, ib := a.header.caption, b.header.caption
	if !a.ok {
		ia = -1
	}
	if !b.ok {
		ib = -1
	}
	y, bottom := r.Y, r.Y+r.H
	if ia >= 0 {
		who := "A · "
		if ib >= 0 && sameStep(f.A.Result, f.B.Result, ia, ib) {
			who, ib = "A and B · ", -1
		}
		room := r.H
		if ib >= 0 && ib < len(st.narrRow.hb) {
			room -= st.narrRow.hb[ib] + stepGap
		}
		a.narration.bind(&st.txt, 0, &f.A.Result.Narration[ia], st.txt.Join(who, a.header.stepCaption(), ""), 0)
		st.show(s, &a.narration, Rect{r.X, y, r.W, max(room, narrateSz*2.5)})
		y += a.narration.used + narrationBase + stepGap
	}
	if ib >= 0 && bottom-y > narrateSz*1.25 {
		b.narration.bind(&st.txt, 1, &f.B.Result.Narration[ib], st.txt.Join("B · ", b.header.stepCaption(), ""), 0)
		st.show(s, &b.narration, Rect{r.X, y, r.W, bottom - y})
	}
}
