package render

import (
	"sort"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// transIDs are the stable ids of one side's translation items.
type transIDs struct {
	pmLabel, pmVA, pmSep, pmChunk, pmPointer, pmPointerLabel, pmPA, pmLink, pmLegend, pmLegendLabel, pmNote,
	tlbLabel, tlbEntry, tlbOwner, tlbFilled, tlbNote, walkLabel, walkBadge, walkText, walkNow string
}

var transSideIDs = [2]transIDs{
	{"a/pm-label", "a/pm-va", "a/pm-sep", "a/pm-chunk", "a/pm-pointer", "a/pm-pointer-label", "a/pm-pa", "a/pm-link", "a/pm-legend", "a/pm-legend-label", "a/pm-note",
		"a/tlb-label", "a/tlb-entry", "a/tlb-owner", "a/tlb-filled", "a/tlb-note", "a/walk-label", "a/walk-badge", "a/walk-text", "a/walk-now"},
	{"b/pm-label", "b/pm-va", "b/pm-sep", "b/pm-chunk", "b/pm-pointer", "b/pm-pointer-label", "b/pm-pa", "b/pm-link", "b/pm-legend", "b/pm-legend-label", "b/pm-note",
		"b/tlb-label", "b/tlb-entry", "b/tlb-owner", "b/tlb-filled", "b/tlb-note", "b/walk-label", "b/walk-badge", "b/walk-text", "b/walk-now"},
}

// leafClass is a mapping size's index in leafLegend (0 4K .. 3 1G), -1
// for nothing mapped.
func leafClass(bytes uint64) int {
	switch {
	case bytes >= timeline.Leaf1G:
		return 3
	case bytes >= timeline.Leaf2M:
		return 2
	case bytes >= timeline.Leaf64K:
		return 1
	case bytes > 0:
		return 0
	}
	return -1
}

// pmWindow is the part of a buffer the page-mapping view shows.
type pmWindow struct {
	buf       string
	base, end uint64 // the buffer's VA range
	lo, hi    uint64 // the window
	grid      int    // the buffer's page grid, -1 if none
	first     int    // first mapping of the buffer
}

// pageWindow finds the first buffer's mappings and the zoom window on
// them (the frame's Zoom, in pages, when the buffer has a page grid).
func (st *Stage) pageWindow(tl *timeline.Timeline) (pmWindow, bool) {
	tr := tl.Translation
	if tr == nil || len(tr.Mappings) == 0 {
		return pmWindow{}, false
	}
	w := pmWindow{buf: tr.Mappings[0].Buffer, base: tr.Mappings[0].VA, grid: -1}
	for _, m := range tr.Mappings {
		if m.Buffer == w.buf {
			w.end = max(w.end, m.VA+m.Bytes)
		}
	}
	pages := int((w.end - w.base + 4095) / 4096)
	z := Zoom{0, pages}
	for g := range tl.Grids {
		if tl.Grids[g].ID == w.buf && tl.Grids[g].Base == w.base && tl.Grids[g].CellBytes == 4096 {
			w.grid = g
			z = st.frame.Zoom.Clamp(min(pages, tl.Grids[g].Cells))
		}
	}
	w.lo = w.base + uint64(z.First)*4096
	w.hi = min(w.lo+uint64(z.Count)*4096, w.end)
	return w, w.hi > w.lo
}

// pageMap draws the page-mapping view of the first buffer in
// tl.Translation into (x, y, w, h) at time t (mappings made later are not
// drawn yet): its VA range as a strip
// coloured by leaf size (the largest share of each pixel column), leaf
// boundaries once a leaf is 5 pixels wide, the allocator's chunks
// outlined, the write pointers above, and below the same memory in
// physical order with the gaps between chunks collapsed, joined to the
// VA strip by lines. Work per frame is bounded by the width in pixels
// and the number of mappings in the window, so a 1 GiB buffer of 4 KiB
// pages costs no more than MaxMappings runs.
func (st *Stage) pageMap(s *Scene, side uint8, tl *timeline.Timeline, t sim.Time, x, y, w, h float32) {
	ids := &transSideIDs[side]
	tr := tl.Translation
	win, ok := st.pageWindow(tl)
	if !ok || w < 40 || h < 60 {
		s.Text(ids.pmNote, x, y+textSz, "page mappings: nothing mapped", textSz, Muted, AlignStart)
		return
	}
	io := win.base>>48 == 0 // a lower-half address: a device's IOVA
	head, space, order, orderShort := "Page mappings · ", "VA ", "virtual (buffer order)", "virtual"
	if io {
		head, space, order, orderShort = "IOMMU mappings · ", "IOVA ", "IOVA order", "IOVA"
	}
	// Whole words at any width: the range, else its start, else its size.
	size := st.txt.Join(" (", scenario.FormatBytes(int64(win.hi-win.lo)), ")")
	lo := st.txt.Join(head, space, st.txt.Hex(win.lo))
	label := st.txt.FitFirst(w, textSz, st.txt.Join(lo, "..", st.txt.Join(st.txt.Hex(win.hi), size, "")), st.txt.Join(lo, size, ""),
		st.txt.Join(head[:len(head)-len(" · ")], size, ""))
	s.Text(ids.pmLabel, x, y+textSz, label, textSz, Muted, AlignStart)
	// Beside other views the band carries its own legend (the stage's is
	// the cell states').
	legendRow := float32(0)
	if !hasTLBs(tl) {
		legendRow = 16
	}
	top := y + textSz + 4 + 14 // title, pointer row
	avail := y + h - legendRow - top
	stripH := min(max(avail*0.25, 10), 24)
	// Between the strips: the note row under the VA strip and the physical
	// strip's label, one text row each, never on top of each other.
	rows := float32(2*smallSz + 10)
	stripH = max(min(stripH, (avail-rows-2)/2), 6)
	vaY := top
	paY := y + h - legendRow - stripH - 2
	span := float64(win.hi - win.lo)
	xOf := func(va uint64) float32 {
		return x + float32(float64(va-win.lo)/span*float64(w))
	}

	// VA strip: bins of at least one pixel.
	bins := max(1, min(int(w), int((win.hi-win.lo)/4096)))
	if cap(st.pmBins) < bins {
		st.pmBins = make([][4]float64, bins)
	}
	st.pmBins = st.pmBins[:bins]
	clear(st.pmBins)
	binBytes := span / float64(bins)
	i0 := sort.Search(len(tr.Mappings), func(i int) bool { return tr.Mappings[i].VA+tr.Mappings[i].Bytes > win.lo })
	for i := i0; i < len(tr.Mappings) && tr.Mappings[i].VA < win.hi; i++ {
		m := &tr.Mappings[i]
		if m.Buffer != win.buf || m.T > t {
			continue
		}
		a, e := max(m.VA, win.lo), min(m.VA+m.Bytes, win.hi)
		c := leafClass(m.Leaf)
		b0 := min(int(float64(a-win.lo)/binBytes), bins-1)
		b1 := min(max(int(float64(e-win.lo-1)/binBytes), b0), bins-1)
		for b := b0; b <= b1; b++ {
			blo := win.lo + uint64(float64(b)*binBytes)
			bhi := win.lo + uint64(float64(b+1)*binBytes)
			if hi, lo := min(e, bhi), max(a, blo); hi > lo {
				st.pmBins[b][c] += float64(hi - lo)
			} else if b0 == b1 {
				st.pmBins[b][c] += float64(e - a) // rounding: the run is inside this bin
			}
		}
	}
	classOf := func(b int) int {
		best, c := 0.0, -1
		for k, v := range st.pmBins[b] {
			if v > best {
				best, c = v, k
			}
		}
		return c
	}
	for b := 0; b < bins; {
		c := classOf(b)
		e := b + 1
		for e < bins && classOf(e) == c {
			e++
		}
		blo := win.lo + uint64(float64(b)*binBytes)
		bhi := win.lo + uint64(float64(e)*binBytes)
		if e == bins {
			bhi = win.hi
		}
		fill := Surface
		if c >= 0 {
			fill = LeafColor(leafLegend[c].bytes)
		}
		page := int((blo - win.base) / 4096)
		s.Rect(ids.pmVA, int32(b), xOf(blo), vaY, xOf(bhi)-xOf(blo), stripH, fill,
			Ref{Kind: RefMapping, Side: side, Obj: int32(win.grid), Index: int32(page), Count: int32(max((bhi-blo)/4096, 1))})
		b = e
	}
	// Leaf boundaries once each leaf is wide enough to see.
	pxPerByte := float64(w) / span
	for i := i0; i < len(tr.Mappings) && tr.Mappings[i].VA < win.hi; i++ {
		m := &tr.Mappings[i]
		if m.Buffer != win.buf || m.T > t || float64(m.Leaf)*pxPerByte < 5 {
			continue
		}
		a := m.VA
		if win.lo > m.VA {
			a += (win.lo - m.VA) / m.Leaf * m.Leaf
		}
		for ; a < min(m.VA+m.Bytes, win.hi); a += m.Leaf {
			if a > win.lo {
				s.Line(ids.pmSep, xOf(a), vaY, xOf(a), vaY+stripH, Background, 1)
			}
		}
	}
	chunkNoteW := st.pmChunks(s, side, tr, win, xOf, vaY, stripH, w, paY-vaY-stripH >= smallSz+6)
	// Write pointers.
	for p := range tr.Pointers {
		va, ok := tr.PointerAt(p, t)
		if !ok || va < win.lo || va > win.hi {
			continue
		}
		px := xOf(va)
		colour := pointerColour(p)
		s.Arrow(ids.pmPointer, px, vaY-13, px, vaY+4, colour, 2, Ref{})
		lx, al := px+3, AlignStart
		if px > x+w-40 {
			lx, al = px-3, AlignEnd
		}
		s.Text(ids.pmPointerLabel, lx, vaY-4, tr.Pointers[p].ID, smallSz, colour, al)
	}
	between := paY - vaY - stripH
	if between >= smallSz+6 {
		if ow := min(w*0.6, w-chunkNoteW-12); ow > 40 {
			s.Text(ids.pmNote, x, vaY+stripH+smallSz+2, st.txt.FitFirst(ow, smallSz, order, orderShort), smallSz, Muted, AlignStart)
		}
	}
	st.pmPhysical(s, side, tr, win, t, xOf, x, vaY+stripH, paY, w, stripH)
	if between >= rows {
		s.Text(ids.pmNote, x, paY-3, st.txt.FitFirst(w, smallSz, "physical frames (PA order, gaps between runs collapsed)", "physical frames (PA order)", "physical frames"), smallSz, Muted, AlignStart)
	}
	if legendRow > 0 {
		lx, ly := x, y+h-legendRow+3
		var sizes [len(leafLegend)]bool
		for i := range tr.Mappings {
			sizes[leafSlot(tr.Mappings[i].Leaf)] = true
		}
		for i, l := range leafLegend {
			if !sizes[i] {
				continue
			}
			if lx+16+textWidth(l.name, smallSz) > x+w {
				break
			}
			ref := Ref{Kind: RefLegend, Obj: 2, Index: int32(tlLeaf + i)}
			s.Rect(ids.pmLegend, int32(i), lx, ly, 11, 11, LeafColor(l.bytes), ref)
			s.TextRef(ids.pmLegendLabel, lx+14, ly+10, l.name, smallSz, Text, AlignStart, ref)
			lx += 14 + textWidth(l.name, smallSz) + 10
		}
	}
}

// pmChunks outlines the allocator chunks in the window (or says how many
// when they are too narrow to outline).
func (st *Stage) pmChunks(s *Scene, side uint8, tr *timeline.Translation, win pmWindow, xOf func(uint64) float32, vaY, stripH, w float32, noteRow bool) float32 {
	ids := &transSideIDs[side]
	if len(tr.Chunks) == 0 {
		return 0
	}
	c0 := sort.Search(len(tr.Chunks), func(i int) bool { return tr.Chunks[i].VA+tr.Chunks[i].Bytes() > win.lo })
	c1 := c0
	for c1 < len(tr.Chunks) && tr.Chunks[c1].VA < win.hi {
		c1++
	}
	n := c1 - c0
	// The count goes right of the note row, in the longest form that
	// leaves the row's left half to the strip order.
	note := func(long bool) float32 {
		txt := st.txt.Join(st.txt.Num(float64(n)), " chunks", "")
		if tr.DroppedChunks > 0 {
			// Only the first MaxChunks are known: say how many there are.
			txt = st.txt.Join(st.txt.Num(float64(len(tr.Chunks)+tr.DroppedChunks)), " chunks", "")
			if l := st.txt.Join(txt, st.txt.Join(", first ", st.txt.Num(float64(len(tr.Chunks))), " outlined"), ""); textWidth(l, smallSz) <= w*0.45 {
				txt = l
			}
			long = false
		}
		if long {
			if l := st.txt.Join(txt, ": zoom in to outline them", ""); textWidth(l, smallSz) <= w*0.45 {
				txt = l
			}
		}
		tw := textWidth(txt, smallSz)
		if !noteRow || tw > w*0.45 {
			return 0
		}
		s.Text(ids.pmNote, xOf(win.hi), vaY+stripH+smallSz+2, txt, smallSz, Muted, AlignEnd)
		return tw
	}
	if float32(n)*4 > w {
		return note(true)
	}
	for c := c0; c < c1; c++ {
		ch := &tr.Chunks[c]
		a, e := max(ch.VA, win.lo), min(ch.VA+ch.Bytes(), win.hi)
		s.Add(Item{Kind: KindRect, ID: ids.pmChunk, Index: int32(c), X: xOf(a) + 0.75, Y: vaY + 0.75, W: xOf(e) - xOf(a) - 1.5, H: stripH - 1.5,
			Fill: None, Stroke: chunkColor, StrokeWidth: 1.5, Ref: Ref{Kind: RefChunk, Side: side, Index: int32(c)}})
	}
	return note(false)
}

// paUnit is one physically contiguous piece of the window (a chunk, or a
// mapping run when there are no chunks) in PA order.
// pmPhysical draws the window's memory in physical order.
func (st *Stage) pmPhysical(s *Scene, side uint8, tr *timeline.Translation, win pmWindow, t sim.Time, xOf func(uint64) float32, x, vaBottom, paY, w, stripH float32) {
	ids := &transSideIDs[side]
	// The cached units are read in place (a 1 GiB buffer has 262144):
	// those not mapped yet at t are skipped, the rest grouped k at a time.
	units := st.pmUnitsOf(side, tr, win)
	// (The tests are written out: the page's code is not inlined.)
	n := 0
	for i := range units {
		if units[i].from <= t || units[i].whole {
			n++
		}
	}
	if n == 0 {
		return
	}
	// Aggregate into at most w/3 drawn pieces.
	k := max(1, (n*3+int(w)-1)/int(w))
	pieces := (n + k - 1) / k
	gaps := 0
	var prev *paUnit
	for i, j := 0, 0; j < len(units); j++ {
		u := &units[j]
		if u.from > t && !u.whole {
			continue
		}
		if i > 0 && i%k == 0 && prev.pa+prev.bytes != u.pa {
			gaps++
		}
		prev, i = u, i+1
	}
	gap := float32(3)
	if float32(gaps)*gap > w/3 {
		gap = 0
	}
	total := float64(win.hi - win.lo)
	scale := float64(w-float32(gaps)*gap) / total
	px := x
	step := max(1, (pieces+maxLinks-1)/maxLinks)
	var first *paUnit
	var bytes uint64
	var by [4]uint64
	p, in := 0, 0
	prev = nil
	for j := range units {
		u := &units[j]
		if u.from > t && !u.whole {
			continue // not mapped yet
		}
		if in == 0 {
			if prev != nil && prev.pa+prev.bytes != u.pa {
				px += gap
			}
			first, bytes, by = u, 0, [4]uint64{}
		}
		bytes += u.bytes
		if u.from <= t && u.kind >= 0 {
			by[u.kind] += u.bytes
		}
		prev = u
		if in++; in < k && p*k+in < n {
			continue
		}
		cls, best := -1, uint64(0)
		for c, v := range by {
			if v > best {
				cls, best = c, v
			}
		}
		pw := float32(float64(bytes) * scale)
		fill := Surface
		if cls >= 0 {
			fill = LeafColor(leafLegend[cls].bytes)
		}
		ref := Ref{Kind: RefMapping, Side: side, Obj: int32(win.grid), Index: int32((first.va - win.base) / 4096), Count: int32(max(first.bytes/4096, 1))}
		if first.chunk >= 0 && in == 1 {
			ref = Ref{Kind: RefChunk, Side: side, Index: int32(first.chunk)}
		}
		s.Rect(ids.pmPA, int32(p), px, paY, max(pw, 1), stripH, fill, ref)
		// Joining lines run between the two text rows (the strip order
		// under the VA strip, the physical strip's label), never across
		// them: none when the rows leave no room.
		if l0, l1 := vaBottom+smallSz+6, paY-smallSz-6; p%step == 0 && l1-l0 >= 4 {
			vx := xOf(first.va) + (xOf(first.va+first.bytes)-xOf(first.va))/2
			s.Line(ids.pmLink, vx, l0, px+pw/2, l1, Muted, 1)
		}
		px += pw
		p, in = p+1, 0
	}
}
