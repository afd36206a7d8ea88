package render

import "github.com/dmaviz/dmaviz/model/timeline"

// column lays out side's run in its column r: the header (and in
// presentation mode the narration step, which takes no more than the
// views under it leave), then either the page-mapping and TLB views of a
// run that records translation, or its buffer views.
func (st *Stage) column(s *Scene, side uint8, sd *Side, f *Frame, r Rect) {
	sv := &st.sides[side]
	ok := sd.Result != nil && sd.Result.Timeline != nil
	var d sideData
	need := float32(0)
	if ok {
		d = sideData{side: side, tl: sd.Result.Timeline, state: stateOf(sd), t: sd.Time}
		if d.state != nil {
			need = st.bindColumn(sv, d, f, r.W-16)
		}
	}
	narrH := st.header(s, sv, side, sd, ok, columnHeader, f.Narrate, r, need)
	if !ok || d.state == nil {
		return
	}
	content := Rect{r.X + 8, r.Y + headerH + narrH, r.W - 16, r.H - headerH - narrH - 8}
	if hasTLBs(d.tl) {
		st.translationColumn(s, sv, content)
		return
	}
	st.bufferColumn(s, sv, d, content)
}

// bindColumn binds the views of side d's column, w wide, and returns the
// least height they show their content in.
func (st *Stage) bindColumn(sv *sideViews, d sideData, f *Frame, w float32) float32 {
	tl := d.tl
	if hasTLBs(tl) {
		sv.pageMap.bind(&st.txt, d, f.Zoom, &st.pmBins)
		sv.tlb.bind(&st.txt, d)
		return sv.pageMap.MinSize().H + 8 + sv.tlb.MinSize().H
	}
	sv.gauges.bind(&st.txt, d)
	sv.grids = resize(sv.grids, len(tl.Grids))
	sv.rings = resize(sv.rings, len(tl.Grids))
	sv.caches = resize(sv.caches, len(tl.Caches))
	for g := range tl.Grids {
		sv.grids[g].bind(&st.txt, d, g, f.Zoom, f.MinCell)
		if gridHasPointer(tl, g) {
			sv.rings[g].bind(&st.txt, d, g, f.Zoom, 0)
		}
	}
	for c := range tl.Caches {
		sv.caches[c].bind(&st.txt, d, c)
	}
	if hasMappings(tl) {
		sv.pageMap.bind(&st.txt, d, f.Zoom, &st.pmBins)
	}
	n := sv.needs(tl, w)
	return n.least()
}

// header shows the header of side's column r in style (ok: the side has
// a result), and in presentation mode (narrate) the step at its time
// large under the title, in no more height than leaves need for the
// views under it; it returns the height the step took beyond the
// one-line caption's.
func (st *Stage) header(s *Scene, sv *sideViews, side uint8, sd *Side, ok bool, style headerStyle, narrate bool, r Rect, need float32) float32 {
	h := &sv.header
	h.bind(&st.txt, side, sd, ok, style, narrate)
	st.show(s, h, r)
	if !ok || !narrate || h.caption < 0 {
		return 0
	}
	step := &sd.Result.Narration[h.caption]
	// The views start style.top+used down the column and need need above
	// its 8 px bottom margin; the step's height is used+narrationBase.
	room := max(r.H-style.top-8-need+narrationBase, narrateSz*2.5)
	sv.narration.bind(&st.txt, side, step, h.stepCaption(), min(r.H*style.narrLong, room))
	st.show(s, &sv.narration, Rect{r.X + 8, r.Y + style.title + 8, r.W - 16, min(r.H*style.narration, room)})
	return sv.narration.used
}

// stateOf is the side's state at the cursor, or its timeline's first.
func stateOf(sd *Side) *timeline.State {
	if sd.State == nil && len(sd.Result.Timeline.Keyframes) > 0 {
		return &sd.Result.Timeline.Keyframes[0].State
	}
	return sd.State
}

// translationColumn lays out a side whose timeline records translation
// (Timeline.Translation) in r: the page-mapping view above the TLB view,
// each given at least its MinSize. Its grids are not drawn (the mapping
// view shows the same buffer, and one colour means one thing on the
// stage: a grid's cell states and the mapping sizes share the palette);
// they remain the zoom's target.
func (st *Stage) translationColumn(s *Scene, sv *sideViews, r Rect) {
	x, y, w, h := r.X, r.Y, r.W, r.H
	pmMin, tlbMin := sv.pageMap.MinSize().H, sv.tlb.MinSize().H
	pmH := min(max(h*0.4, pmMin+8), max(h-tlbMin, pmMin+8))
	st.show(s, &sv.pageMap, Rect{x, y, w, pmH - 8})
	st.show(s, &sv.tlb, Rect{x, y + pmH, w, h - pmH})
}
