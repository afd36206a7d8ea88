package render

import "github.com/dmaviz/dmaviz/model/timeline"

// bufferNeeds are the heights a side's buffer views need in a column w
// wide: each grid's least (its label and a row of squares) and a floor
// that shows a small grid whole, the rings' and caches' rows (rings in a
// row of their own above the caches when a slot of one row would be
// under 140 px), the gauges, and the page-mapping band of a device's
// IOVAs.
type bufferNeeds struct {
	w                float32
	grids            []float32 // least height of each grid
	floors           []float32 // each grid's floor: its least, or more for a small grid
	cells            []int     // each grid's cells
	ringed           []bool    // the grid is also drawn as a ring
	rings, caches    int
	ringH, cacheH    float32 // the least height of the rings' and the caches' row
	lowRows, perRow  int
	gauges, pageMap  float32
	pageMapPreferred float32
}

// needs fills the column's needs (reusing sv's scratch) from its bound views.
// In presentation mode (present) each grid's floor keeps squares of
// presentCell in up to presentGridRows rows.
func (sv *sideViews) needs(tl *timeline.Timeline, w float32, present bool) *bufferNeeds {
	n := &sv.need
	*n = bufferNeeds{w: w, grids: n.grids[:0], floors: n.floors[:0], cells: n.cells[:0], ringed: n.ringed[:0]}
	for g := range tl.Grids {
		gv := &sv.grids[g]
		least := gv.MinSize().H
		cells := gv.zoom.Clamp(tl.Grids[g].Cells).Count
		ringed := gridHasPointer(tl, g)
		// A small grid (a ring of a few AUX pages) keeps squares of up to
		// 24 px; a large one at least 30 px of them.
		floor := least + min(naturalHeight(cells, w, 24), 30)
		if present {
			floor = max(floor, least+min(naturalHeight(cells, w, presentCell), presentGridRows*presentCell))
		}
		n.grids, n.floors, n.cells, n.ringed = append(n.grids, least), append(n.floors, max(floor, least)), append(n.cells, cells), append(n.ringed, ringed)
		if ringed {
			n.rings++
			n.ringH = max(n.ringH, sv.rings[g].MinSize().H)
			if present {
				n.ringH = max(n.ringH, textSz+4+2*(presentRing+4))
			}
		}
	}
	for c := range tl.Caches {
		n.caches++
		n.cacheH = max(n.cacheH, sv.caches[c].MinSize().H)
	}
	n.lowRows, n.perRow = 1, n.rings+n.caches
	if k := n.rings + n.caches; n.rings > 0 && n.caches > 0 && w/float32(k) < 140 {
		n.lowRows, n.perRow = 2, max(n.rings, n.caches)
	}
	n.gauges = sv.gauges.height(w)
	if hasMappings(tl) {
		n.pageMap = sv.pageMap.MinSize().H
	}
	return n
}

// naturalHeight is the height n cells take w wide in squares of size.
func naturalHeight(n int, w, size float32) float32 {
	perRow := max(int(w/size), 1)
	return float32((n+perRow-1)/perRow) * size
}

// low is the least height of the rings' and caches' row(s).
func (n *bufferNeeds) low() float32 {
	if n.lowRows == 2 {
		return n.ringH + n.cacheH + 12
	}
	h := float32(0)
	if n.rings > 0 {
		h = n.ringH + 6
	}
	if n.caches > 0 {
		h = max(h, n.cacheH+6)
	}
	return h
}

// least is the height in which every view shows its content (a grid
// that is also drawn as a ring may give way to it).
func (n *bufferNeeds) least() float32 {
	h := n.low() + n.gauges + n.pageMap
	for g, gh := range n.grids {
		if !n.ringed[g] {
			h += gh + 6
		}
	}
	return h
}

// presentLeast is the height in which every view shows its content in
// presentation mode: the largest grid (the buffer the lesson is about) at
// its floor and every other grid that is not also drawn as a ring (a perf
// AUX ring gives way to its dial).
func (n *bufferNeeds) presentLeast() float32 {
	h := n.low() + n.gauges + n.pageMap
	largest := n.largest()
	for g, fh := range n.floors {
		if !n.ringed[g] || g == largest {
			h += fh + 6
		}
	}
	return h
}

// largest is the grid with the most cells (the first of equals), -1 for
// none.
func (n *bufferNeeds) largest() int {
	k := -1
	for g, c := range n.cells {
		if k < 0 || c > n.cells[k] {
			k = g
		}
	}
	return k
}

// bufferLayout is how a side's content area is shared among its buffer
// views: the grids one above the other; under them a row of rings and
// cache windows (or two: rings, then caches); then the gauges; and, for
// mappings without TLBs (a device's IOVAs), a page-mapping band at the
// bottom. A grid with 0 height is not drawn.
type bufferLayout struct {
	x, y, w float32
	gridY   []float32 // each grid's top and height
	gridH   []float32
	drop    []bool // the grid gives way to its ring
	// The low row(s): rings first, then caches, perRow a row, slot wide.
	lowY, lowH, slot, rowH float32
	lowRows, rings         int
	gauges, pageMap        Rect
}

// layoutBuffers lays out the views whose needs are n in r. Every view
// gets at least its least height while the area allows, in this order of
// giving way when it does not: the page-mapping band, grids that are also
// drawn as rings (their ring shows the same cells), the gauges. Beyond
// that the page-mapping band takes up to 30 % (150 px), and the grids
// their floors (a ring grid that cannot have its floor gives way to its
// ring, the smallest first); the rings and caches then take up to half
// the height in square slots, and the grids the rest, shared by their
// number of cells (an AUX ring of 4 pages beside a buffer of 256 lines
// takes a row, not half).
func layoutBuffers(n *bufferNeeds, r Rect, l *bufferLayout) {
	*l = bufferLayout{x: r.X, y: r.Y, w: r.W, gridY: l.gridY[:0], gridH: l.gridH[:0], drop: l.drop[:0], lowRows: n.lowRows, rings: n.rings}
	for range n.grids {
		l.drop = append(l.drop, false)
	}
	ch := r.H
	pm, gauges, low := n.pageMap, n.gauges, n.low()
	if ch < low+gauges+pm+l.gridsNeed(n, n.grids) && pm > 0 {
		pm = 0
	}
	for ch < low+gauges+pm+l.gridsNeed(n, n.grids) && l.dropRing(n) {
	}
	if ch < low+gauges+pm+l.gridsNeed(n, n.grids) {
		gauges = 0
	}
	if pm > 0 {
		pm = max(pm, min(ch*0.3, 150, ch-low-gauges-l.gridsNeed(n, n.floors)))
	}
	avail := ch - pm - gauges
	for avail-low < l.gridsNeed(n, n.floors) && l.dropRing(n) {
	}
	lowH := low
	if n.rings+n.caches > 0 {
		pref := min(ch*0.5, float32(n.lowRows)*n.w/float32(n.perRow))
		lowH = max(low, min(pref, avail-l.gridsNeed(n, n.floors)))
	}
	gridsH := max(avail-lowH, 0)
	l.shareGrids(n, gridsH)
	l.lowY, l.lowH = r.Y+gridsH, lowH
	l.slot = n.w / float32(max(n.perRow, 1))
	l.rowH = lowH / float32(n.lowRows)
	if n.lowRows == 2 {
		l.rowH = n.ringH + 6 + (lowH-low)/2
	}
	l.gauges = Rect{r.X, l.lowY + lowH, r.W, gauges}
	l.pageMap = Rect{r.X, l.lowY + lowH + gauges, r.W, pm}
}

// gridsNeed is the height the grids not dropped need, each its height
// in heights (their least or their floors) and the gap under it.
func (l *bufferLayout) gridsNeed(n *bufferNeeds, heights []float32) float32 {
	h := float32(0)
	for g := range n.grids {
		if !l.drop[g] {
			h += heights[g] + 6
		}
	}
	return h
}

// dropRing drops the grid drawn as a ring with the fewest cells; false
// when there is none left.
func (l *bufferLayout) dropRing(n *bufferNeeds) bool {
	k := -1
	for g := range n.grids {
		if n.ringed[g] && !l.drop[g] && (k < 0 || n.cells[g] < n.cells[k]) {
			k = g
		}
	}
	if k < 0 {
		return false
	}
	l.drop[k] = true
	return true
}

// shareGrids gives the grids not dropped h: each its floor (or its least,
// when the floors do not fit), the rest by cells.
func (l *bufferLayout) shareGrids(n *bufferNeeds, h float32) {
	floors := n.floors
	if l.gridsNeed(n, floors) > h {
		floors = n.grids
	}
	cells := 0
	for g := range n.grids {
		if !l.drop[g] {
			cells += n.cells[g]
		}
	}
	spare := max(h-l.gridsNeed(n, floors), 0)
	y := l.y
	for g := range n.grids {
		gh := float32(0)
		if !l.drop[g] {
			gh = floors[g] + 6
			if cells > 0 {
				gh += spare * float32(n.cells[g]) / float32(cells)
			}
		}
		l.gridY, l.gridH = append(l.gridY, y), append(l.gridH, gh)
		y += gh
	}
}

// grid is grid g's rectangle.
func (l *bufferLayout) grid(g int) Rect {
	return Rect{l.x, l.gridY[g], l.w, max(l.gridH[g]-6, 0)}
}

// low is the top left of the k-th slot of the low row(s): the rings' k
// count from 0, the caches' from the number of rings.
func (l *bufferLayout) low(k int) (float32, float32) {
	col, row := k, 0
	if l.lowRows == 2 && k >= l.rings {
		col, row = k-l.rings, 1
	}
	return l.x + float32(col)*l.slot, l.lowY + float32(row)*l.rowH
}

// lowH is the height of the k-th slot's row.
func (l *bufferLayout) lowRowH(k int) float32 {
	if l.lowRows == 2 && k >= l.rings {
		return l.lowH - l.rowH
	}
	return l.rowH
}

// bufferColumn lays out and builds a side's bound buffer views in r.
func (st *Stage) bufferColumn(s *Scene, sv *sideViews, d sideData, r Rect) {
	tl := d.tl
	n := &sv.need // bound by bindColumn for this column's width
	l := &sv.layout
	layoutBuffers(n, r, l)
	for g := range tl.Grids {
		if gr := l.grid(g); gr.H > 0 {
			st.show(s, &sv.grids[g], gr)
		}
	}
	k := 0
	slot := l.slot
	for g := range tl.Grids {
		if gridHasPointer(tl, g) {
			lx, y := l.low(k)
			rowH := l.lowRowH(k)
			k++
			sv.rings[g].labelW = max(slot-8, min(slot, rowH)-6)
			st.show(s, &sv.rings[g], Rect{lx, y, min(slot, rowH) - 6, rowH - 6})
		}
	}
	for c := range tl.Caches {
		lx, y := l.low(k)
		rowH := l.lowRowH(k)
		k++
		st.show(s, &sv.caches[c], Rect{lx, y, slot - 8, rowH - 6})
	}
	if l.gauges.H > 0 {
		st.show(s, &sv.gauges, l.gauges)
	}
	if l.pageMap.H > 0 {
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
