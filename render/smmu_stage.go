package render

// smmuStage lays out the SMMU stage in the area (x0, y0)-(x1, y1): the two
// sides' columns, the TLB legend under them, and under that the latency
// histogram beside the forwarding rate, which take 28 % of the height
// (140 to 240 px), 140 px in presentation mode (the narration steps take
// the room).
func (st *Stage) smmuStage(s *Scene, f *Frame, x0, y0, x1, y1 float32) {
	bottomH := min(max((y1-y0)*0.28, 140), 240)
	if f.Narrate {
		bottomH = 140
	}
	colBottom := y1 - bottomH - smmuRow - gap
	colW := (x1 - x0 - gap) / 2
	st.smmuColumn(s, 0, &f.A, f.Narrate, Rect{x0, y0, colW, colBottom - y0})
	st.smmuColumn(s, 1, &f.B, f.Narrate, Rect{x0 + colW + gap, y0, colW, colBottom - y0})
	var shown [3]bool
	for side := range st.sides {
		for k, on := range st.sides[side].smmuTLB.shown {
			shown[k] = shown[k] || on
		}
	}
	st.smmuLegend.bind(&st.txt, smmuOf(f), shown)
	st.show(s, &st.smmuLegend, Rect{x0, colBottom + gap/2, x1 - x0, smmuRow})
	by := colBottom + gap/2 + smmuRow + 4
	hw := (x1 - x0 - gap) / 2
	st.smmuHist.bind(&st.txt, f)
	st.show(s, &st.smmuHist, Rect{x0, by, hw, y1 - by})
	st.smmuTput.bind(&st.txt, f)
	st.show(s, &st.smmuTput, Rect{x0 + hw + gap, by, hw, y1 - by})
}

// smmuColumn lays out one run's SMMU in its column r: the header (and in
// presentation mode the narration step), then the masters' paths, the
// stream-match table and the TBU TLB window, one under the other.
func (st *Stage) smmuColumn(s *Scene, side uint8, sd *Side, narrate bool, r Rect) {
	sv := &st.sides[side]
	sv.smmuTLB.shown = [3]bool{}
	ok := sd.Result != nil && sd.Result.Timeline != nil && sd.Result.Timeline.SMMU != nil
	var d sideData
	need := float32(0)
	if ok {
		d = sideData{side: side, tl: sd.Result.Timeline, state: stateOf(sd), t: sd.Time}
		sv.smmuPaths.bind(&st.txt, d)
		sv.smmuPaths.masked = st.frame.Masked
		sv.smmuTable.bind(&st.txt, d)
		need = sv.smmuPaths.MinSize().H + 6 + sv.smmuTable.MinSize().H + 4
		if d.state != nil {
			sv.smmuTLB.bind(&st.txt, d)
			need += sv.smmuTLB.heightFor(r.W - 16)
		}
	}
	narrH := st.header(s, sv, side, sd, ok, smmuHeader, narrate, r, need)
	if !ok {
		return
	}
	x, y, w, h := r.X, r.Y, r.W, r.H
	cx, cw := x+8, w-16
	cy := y + smmuTitle + 36 + narrH
	st.show(s, &sv.smmuPaths, Rect{cx, cy, cw, sv.smmuPaths.MinSize().H})
	cy = sv.smmuPaths.bottom
	st.show(s, &sv.smmuTable, Rect{cx, cy + 6, cw, sv.smmuTable.MinSize().H})
	cy = sv.smmuTable.bottom
	if d.state != nil {
		st.show(s, &sv.smmuTLB, Rect{cx, cy + 4, cw, y + h - 8 - (cy + 4)})
	}
}
