package render

// smmuStage lays out the SMMU stage in the area (x0, y0)-(x1, y1): the two
// sides' columns, the TLB legend under them, and under that the latency
// histogram beside the forwarding rate, which take 28 % of the height
// (140 to 240 px) unless the columns need more (smmuShort). In
// presentation mode the narration row goes between the columns and the
// legend, as on the other stages (layoutPresent), and the charts take
// 140 px when that much is left.
func (st *Stage) smmuStage(s *Scene, f *Frame, x0, y0, x1, y1 float32) {
	colW := (x1 - x0 - gap) / 2
	need := max(st.smmuBind(0, &f.A, colW-16), st.smmuBind(1, &f.B, colW-16))
	bottomH := min(max((y1-y0)*0.28, 140), 240)
	colBottom := y1 - bottomH - smmuRow - gap
	var narr Rect
	if f.Narrate {
		colBottom, bottomH, narr = st.smmuPresent(f, x0, y0, x1, y1, need)
	} else {
		colBottom, bottomH = st.smmuShort(y0, y1, colW-16, need, colBottom, bottomH)
	}
	st.smmuColumn(s, 0, &f.A, f.Narrate, Rect{x0, y0, colW, colBottom - y0})
	st.smmuColumn(s, 1, &f.B, f.Narrate, Rect{x0 + colW + gap, y0, colW, colBottom - y0})
	legendY := colBottom + gap/2
	if f.Narrate && !f.Card {
		st.presentSteps(s, f, narr)
		legendY = narr.Y + narr.H + gap/2
	}
	var shown [3]bool
	for side := range st.sides {
		for k, on := range st.sides[side].smmuTLB.shown {
			shown[k] = shown[k] || on
		}
	}
	if legendY+smmuRow <= y1+0.5 {
		st.smmuLegend.bind(&st.txt, smmuOf(f), shown)
		st.show(s, &st.smmuLegend, Rect{x0, legendY, x1 - x0, smmuRow})
	}
	by := legendY + smmuRow + 4
	st.smmuHist.bind(&st.txt, f)
	if bottomH <= 0 {
		if !f.Narrate && !f.Masked && y1-by >= smmuRow {
			// No room for the plots: the histogram's title line, with
			// each side's average, stands in for them.
			st.show(s, &st.smmuHist, Rect{x0, by, x1 - x0, smmuRow})
		}
		return
	}
	hw := (x1 - x0 - gap) / 2
	st.show(s, &st.smmuHist, Rect{x0, by, hw, y1 - by})
	st.smmuTput.bind(&st.txt, f)
	st.show(s, &st.smmuTput, Rect{x0 + hw + gap, by, hw, y1 - by})
}

// smmuShort gives the columns the height their content needs, with the
// TBU TLB's cells legible (smmuTLBView.legibleH), when the charts' share
// leaves them less (a lesson's stage under its card, 330-450 px): the
// charts shrink to what is left; below the least they draw their plots
// in they give way to the histogram's title line, which gives way next,
// then the legend, before the TLB's cells (smmuStage shows each only
// where it fits). It returns the columns' bottom and the charts' height.
func (st *Stage) smmuShort(y0, y1, w, need, colBottom, bottomH float32) (float32, float32) {
	least := float32(0)
	for side := range st.sides {
		if sv := &st.sides[side]; sv.ok {
			least = max(least, need-sv.smmuTLB.heightFor(w)+sv.smmuTLB.legibleH())
		}
	}
	least += y0 + smmuHeader.top + 8
	switch {
	case colBottom >= least:
		return colBottom, bottomH
	case y1-least-smmuRow-gap+4 >= smmuChartMin.H:
		return least, y1 - least - smmuRow - gap
	case y1-least >= 2*smmuRow+gap+4:
		return y1 - 2*smmuRow - gap - 4, 0 // the legend and the title line
	case y1-least >= smmuRow+gap/2:
		return y1 - smmuRow - gap/2, 0 // the legend
	}
	return y1, 0 // the TLB's cells before the legend
}

// smmuPresent is the SMMU stage's presentation layout: the columns'
// bottom (their title and need, and whatever the rest leaves), the
// charts' height (140, or 0 when less is left) and the narration row.
func (st *Stage) smmuPresent(f *Frame, x0, y0, x1, y1, need float32) (float32, float32, Rect) {
	rowW := (x1 - x0 - 16) * 0.58 / 0.6 // as layoutPresent's
	narr := float32(0)
	if !f.Card {
		narr = st.narrRow.height(f, rowW)
	}
	top := smmuTitle + 14 + need + 8
	under := narr + gap/2 + smmuRow + gap/2
	bottomH := float32(140)
	if y1-y0-top-under-4 < bottomH {
		bottomH = 0
	} else {
		under += 4 + bottomH
	}
	colBottom := max(y1-under, y0+top)
	if f.Card {
		return colBottom, bottomH, Rect{x0 + 8, colBottom, rowW, 0}
	}
	narr = max(min(narr, y1-smmuRow-gap-colBottom), narrateSz*2.5)
	return colBottom, bottomH, Rect{x0 + 8, colBottom + gap/2, rowW, narr}
}

// smmuBind binds side's SMMU views for a column w wide (its content's)
// and returns the height they need under the header.
func (st *Stage) smmuBind(side uint8, sd *Side, w float32) float32 {
	sv := &st.sides[side]
	sv.smmuTLB.shown = [3]bool{}
	sv.ok = sd.Result != nil && sd.Result.Timeline != nil && sd.Result.Timeline.SMMU != nil
	sv.d = sideData{}
	if !sv.ok {
		return 0
	}
	sv.d = sideData{side: side, tl: sd.Result.Timeline, state: stateOf(sd), t: sd.Time}
	sv.smmuPaths.bind(&st.txt, sv.d)
	sv.smmuPaths.masked = st.frame.Masked
	sv.smmuTable.bind(&st.txt, sv.d)
	need := sv.smmuPaths.MinSize().H + 6 + sv.smmuTable.MinSize().H + 4
	if sv.d.state != nil {
		sv.smmuTLB.bind(&st.txt, sv.d)
		need += sv.smmuTLB.heightFor(w)
	}
	return need
}

// smmuColumn lays out one run's bound SMMU in its column r: the header
// (with the step's caption, but in presentation mode), then the masters'
// paths, the stream-match table and the TBU TLB window, one under the
// other.
func (st *Stage) smmuColumn(s *Scene, side uint8, sd *Side, narrate bool, r Rect) {
	sv := &st.sides[side]
	st.header(s, sv, side, sd, sv.ok, smmuHeader, narrate, r)
	if !sv.ok {
		return
	}
	x, y, w, h := r.X, r.Y, r.W, r.H
	cx, cw := x+8, w-16
	cy := y + smmuHeader.top
	if narrate {
		cy = y + smmuTitle + 14
	}
	st.show(s, &sv.smmuPaths, Rect{cx, cy, cw, sv.smmuPaths.MinSize().H})
	cy = sv.smmuPaths.bottom
	st.show(s, &sv.smmuTable, Rect{cx, cy + 6, cw, sv.smmuTable.MinSize().H})
	cy = sv.smmuTable.bottom
	if sv.d.state != nil {
		st.show(s, &sv.smmuTLB, Rect{cx, cy + 4, cw, y + h - 8 - (cy + 4)})
	}
}
