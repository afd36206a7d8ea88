package render

import "github.com/dmaviz/dmaviz/model/timeline"

// column lays out side's run in its column r: the header (and in
// presentation mode the narration step), then either the page-mapping
// and TLB views of a run that records translation, or its buffer views.
func (st *Stage) column(s *Scene, side uint8, sd *Side, f *Frame, r Rect) {
	sv := &st.sides[side]
	ok := sd.Result != nil && sd.Result.Timeline != nil
	narrH := st.header(s, sv, side, sd, ok, columnHeader, f.Narrate, r)
	if !ok {
		return
	}
	x, y, w, h := r.X, r.Y, r.W, r.H
	tl := sd.Result.Timeline
	state := stateOf(sd)
	if state == nil {
		return
	}
	d := sideData{side: side, tl: tl, state: state, t: sd.Time}
	cx, cy, cw := x+8, y+headerH+narrH, w-16
	ch := h - headerH - narrH - 8
	if hasTLBs(tl) {
		st.translationColumn(s, sv, d, f.Zoom, Rect{cx, cy, cw, ch})
		return
	}
	st.bufferColumn(s, sv, d, f, Rect{cx, cy, cw, ch})
}

// header shows the header of side's column r in style (ok: the side has
// a result), and in presentation mode (narrate) the step at its time
// large under the title; it returns the height the step took beyond the
// one-line caption's.
func (st *Stage) header(s *Scene, sv *sideViews, side uint8, sd *Side, ok bool, style headerStyle, narrate bool, r Rect) float32 {
	h := &sv.header
	h.bind(&st.txt, side, sd, ok, style, narrate)
	st.show(s, h, r)
	if !ok || !narrate || h.caption < 0 {
		return 0
	}
	step := &sd.Result.Narration[h.caption]
	sv.narration.bind(&st.txt, side, step, h.stepCaption(), r.H*style.narrLong)
	st.show(s, &sv.narration, Rect{r.X + 8, r.Y + style.title + 8, r.W - 16, r.H * style.narration})
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
// (Timeline.Translation): the page-mapping view above the TLB view. Its
// grids are not drawn (the mapping view shows the same buffer, and one
// colour means one thing on the stage: a grid's cell states and the
// mapping sizes share the palette); they remain the zoom's target.
func (st *Stage) translationColumn(s *Scene, sv *sideViews, d sideData, zoom Zoom, r Rect) {
	x, y, w, h := r.X, r.Y, r.W, r.H
	pmH := h * 0.4
	sv.pageMap.bind(&st.txt, d, zoom, &st.pmBins)
	st.show(s, &sv.pageMap, Rect{x, y, w, pmH - 8})
	sv.tlb.bind(&st.txt, d)
	st.show(s, &sv.tlb, Rect{x, y + pmH, w, h - pmH})
}

// bufferLayout is how a side's content area is shared among its buffer
// views: the grids one above the other; under them a row of rings and
// cache windows (in a narrow column, under 140 px a slot, rings take one
// row and caches another); then the gauges; and, for mappings without
// TLBs (a device's IOVAs), a page-mapping band at the bottom.
type bufferLayout struct {
	x, y, w          float32
	gridsH, gridEach float32
	// The low row(s): rings first, then caches, perRow a row, slot wide.
	lowH, slot, rowH float32
	lowRows, rings   int
	gauges, pageMap  Rect
}

// layoutBuffers lays out the buffer views of tl in r (gauges is their
// height at r's width).
func layoutBuffers(tl *timeline.Timeline, r Rect, gaugesH float32) bufferLayout {
	cx, cy, cw, ch := r.X, r.Y, r.W, r.H
	pmH := float32(0)
	if hasMappings(tl) {
		pmH = min(ch*0.3, 150)
		ch -= pmH
	}
	ch -= gaugesH
	rings, caches := 0, len(tl.Caches)
	for g := range tl.Grids {
		if gridHasPointer(tl, g) {
			rings++
		}
	}
	lowH, lowRows, perRow := float32(0), 1, rings+caches
	if n := rings + caches; n > 0 {
		if rings > 0 && caches > 0 && cw/float32(n) < 140 {
			lowRows, perRow = 2, max(rings, caches)
		}
		lowH = min(ch*0.5, float32(lowRows)*cw/float32(perRow))
	}
	l := bufferLayout{x: cx, y: cy, w: cw, gridsH: ch - lowH, lowH: lowH, lowRows: lowRows, rings: rings}
	if n := len(tl.Grids); n > 0 {
		l.gridEach = l.gridsH / float32(n)
	}
	l.slot = cw / float32(max(perRow, 1))
	l.rowH = lowH / float32(lowRows)
	ly := cy + l.gridsH
	l.gauges = Rect{cx, ly + lowH, cw, gaugesH}
	l.pageMap = Rect{cx, cy + ch + gaugesH, cw, pmH}
	return l
}

// grid is grid g's rectangle.
func (l *bufferLayout) grid(g int) Rect {
	return Rect{l.x, l.y + float32(g)*l.gridEach, l.w, l.gridEach - 6}
}

// low is the top left of the k-th slot of the low row(s): the rings' k
// count from 0, the caches' from the number of rings.
func (l *bufferLayout) low(k int) (float32, float32) {
	col, row := k, 0
	if l.lowRows == 2 && k >= l.rings {
		col, row = k-l.rings, 1
	}
	return l.x + float32(col)*l.slot, l.y + l.gridsH + float32(row)*l.rowH
}

// bufferColumn lays out and builds a side's buffer views in r.
func (st *Stage) bufferColumn(s *Scene, sv *sideViews, d sideData, f *Frame, r Rect) {
	tl := d.tl
	sv.gauges.bind(&st.txt, d)
	l := layoutBuffers(tl, r, sv.gauges.height(r.W))
	sv.grids = resize(sv.grids, len(tl.Grids))
	sv.rings = resize(sv.rings, len(tl.Grids))
	sv.caches = resize(sv.caches, len(tl.Caches))
	for g := range tl.Grids {
		sv.grids[g].bind(&st.txt, d, g, f.Zoom, f.MinCell)
		st.show(s, &sv.grids[g], l.grid(g))
	}
	k := 0
	slot, rowH := l.slot, l.rowH
	for g := range tl.Grids {
		if gridHasPointer(tl, g) {
			lx, y := l.low(k)
			k++
			sv.rings[g].bind(&st.txt, d, g, f.Zoom, max(slot-8, min(slot, rowH)-6))
			st.show(s, &sv.rings[g], Rect{lx, y, min(slot, rowH) - 6, rowH - 6})
		}
	}
	for c := range tl.Caches {
		lx, y := l.low(k)
		k++
		sv.caches[c].bind(&st.txt, d, c)
		st.show(s, &sv.caches[c], Rect{lx, y, slot - 8, rowH - 6})
	}
	st.show(s, &sv.gauges, l.gauges)
	if l.pageMap.H > 0 {
		sv.pageMap.bind(&st.txt, d, f.Zoom, &st.pmBins)
		st.show(s, &sv.pageMap, l.pageMap)
	}
}

// resize returns views with n elements, reusing its array when it can.
func resize[V any](views []V, n int) []V {
	if cap(views) < n {
		return make([]V, n)
	}
	return views[:n]
}
