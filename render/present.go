package render

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
// metrics are one click away). With a lesson card open under the stage
// (Frame.Card) there is no narration row: the card holds the stop's
// text, and the stage keeps the width's scale (presentCardLayoutH).
const (
	// presentCell is the least square of a grid in presentation mode (10
	// px on a 720p projector: a stale or doomed line is seen, not found).
	presentCell = 8
	// presentGridRows is how many rows of presentCell squares a grid
	// keeps at least (a larger buffer aggregates lines into them).
	presentGridRows = 5
	// presentRing is the least radius of a ring in presentation mode (26
	// px at 720p).
	presentRing = 20
	// presentTitleH is the height of a column's title line.
	presentTitleH = titleSz + 10
	// bottomLeast is the least height of the timeline and counters' row.
	bottomLeast = 110
	// narrLeast is the narration's least size (18 px at 720p).
	narrLeast = 14
)

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
	narr := float32(0)
	if !f.Card {
		narr = st.narrRow.height(f, rowW)
	}
	h := y1 - y0
	need := presentTitleH + mech + 4 + gap/2 + narr
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
	colBottom := max(y1-under, y0+presentTitleH+mech+4)
	if !f.Card {
		narr = max(min(narr, y1-legendTall-gap-colBottom), narrateSz*2.5)
	}
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
	st.columnViews(s, sv, Rect{r.X + 8, r.Y + presentTitleH, r.W - 16, r.H - presentTitleH - 4}, 4*walkRow)
}
