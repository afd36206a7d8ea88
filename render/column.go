package render

import "github.com/dmaviz/dmaviz/model/timeline"

// bindSide binds side's views for a column w wide (its content's width)
// and keeps what the layout asks of them: whether the side has a result,
// its data at the cursor and the least height its views show their
// content in.
func (st *Stage) bindSide(side uint8, sd *Side, f *Frame, w float32) {
	sv := &st.sides[side]
	sv.ok = sd.Result != nil && sd.Result.Timeline != nil
	sv.d, sv.least = sideData{}, 0
	if !sv.ok {
		return
	}
	sv.d = sideData{side: side, tl: sd.Result.Timeline, state: stateOf(sd), t: sd.Time}
	if sv.d.state != nil {
		sv.least = st.bindColumn(sv, sv.d, f, w)
	}
}

// column lays out side's bound run in its column r: the header and the
// narration step's caption, then either the page-mapping and TLB views of
// a run that records translation, or its buffer views.
func (st *Stage) column(s *Scene, side uint8, sd *Side, r Rect) {
	sv := &st.sides[side]
	st.header(s, sv, side, sd, sv.ok, columnHeader, false, r)
	if !sv.ok || sv.d.state == nil {
		return
	}
	st.columnViews(s, sv, Rect{r.X + 8, r.Y + headerH, r.W - 16, r.H - headerH - 8}, 0)
}

// columnViews lays out a bound side's views in its content area r: the
// page-mapping and TLB views of a run that records translation (the TLB
// view keeping walk more for the walk's levels), or its buffer views.
func (st *Stage) columnViews(s *Scene, sv *sideViews, r Rect, walk float32) {
	if hasTLBs(sv.d.tl) {
		st.translationColumn(s, sv, r, walk)
		return
	}
	st.bufferColumn(s, sv, sv.d, r)
}

// bindColumn binds the views of side d's column, w wide, and returns the
// least height they show their content in; in presentation mode
// (f.Narrate) with grids of presentCell squares and the table walk's
// levels.
func (st *Stage) bindColumn(sv *sideViews, d sideData, f *Frame, w float32) float32 {
	tl := d.tl
	if hasTLBs(tl) {
		sv.pageMap.bind(&st.txt, d, f.Zoom, &st.pmBins)
		sv.tlb.bind(&st.txt, d)
		h := sv.pageMap.MinSize().H + 8 + sv.tlb.MinSize().H
		if f.Narrate {
			h += 4 * walkRow
		}
		return h
	}
	sv.gauges.bind(&st.txt, d)
	sv.grids = resize(sv.grids, len(tl.Grids))
	sv.rings = resize(sv.rings, len(tl.Grids))
	sv.caches = resize(sv.caches, len(tl.Caches))
	for g := range tl.Grids {
		sv.grids[g].bind(&st.txt, d, g, f.Zoom, f.MinCell, f.Narrate)
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
	n := sv.needs(tl, w, f.Narrate)
	if f.Narrate {
		return n.presentLeast()
	}
	return n.least()
}

// header shows the header of side's column r in style (ok: the side has
// a result); in presentation mode (narrate) without the step's one-line
// caption, which the narration shows large.
func (st *Stage) header(s *Scene, sv *sideViews, side uint8, sd *Side, ok bool, style headerStyle, narrate bool, r Rect) {
	sv.header.bind(&st.txt, side, sd, ok, style, narrate)
	st.show(s, &sv.header, r)
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
//
// In presentation mode (walk: the height of the walk's four level rows)
// the TLB view keeps that much more, so that the walk shows its levels.
func (st *Stage) translationColumn(s *Scene, sv *sideViews, r Rect, walk float32) {
	x, y, w, h := r.X, r.Y, r.W, r.H
	pmMin, tlbMin := sv.pageMap.MinSize().H, sv.tlb.MinSize().H+walk
	pmH := min(max(h*0.4, pmMin+8), max(h-tlbMin, pmMin+8))
	st.show(s, &sv.pageMap, Rect{x, y, w, pmH - 8})
	st.show(s, &sv.tlb, Rect{x, y + pmH, w, h - pmH})
}
