package render

import (
	"sort"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// transIDs are the stable ids of one side's translation items.
type transIDs struct {
	pmLabel, pmVA, pmSep, pmChunk, pmPointer, pmPointerLabel, pmPA, pmLink, pmLegend, pmLegendLabel, pmNote,
	pmBin, pmBinLabel, pmMark, pmFocus,
	tlbLabel, tlbEntry, tlbOwner, tlbFilled, tlbNote, walkLabel, walkBadge, walkText, walkNow string
}

var transSideIDs = [2]transIDs{
	{"a/pm-label", "a/pm-va", "a/pm-sep", "a/pm-chunk", "a/pm-pointer", "a/pm-pointer-label", "a/pm-pa", "a/pm-link", "a/pm-legend", "a/pm-legend-label", "a/pm-note",
		"a/pm-bin", "a/pm-bin-label", "a/pm-mark", "a/pm-focus",
		"a/tlb-label", "a/tlb-entry", "a/tlb-owner", "a/tlb-filled", "a/tlb-note", "a/walk-label", "a/walk-badge", "a/walk-text", "a/walk-now"},
	{"b/pm-label", "b/pm-va", "b/pm-sep", "b/pm-chunk", "b/pm-pointer", "b/pm-pointer-label", "b/pm-pa", "b/pm-link", "b/pm-legend", "b/pm-legend-label", "b/pm-note",
		"b/pm-bin", "b/pm-bin-label", "b/pm-mark", "b/pm-focus",
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
// them (zoom, in pages, when the buffer has a page grid).
func pageWindow(tl *timeline.Timeline, zoom Zoom) (pmWindow, bool) {
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
			z = zoom.Clamp(min(pages, tl.Grids[g].Cells))
		}
	}
	w.lo = w.base + uint64(z.First)*4096
	w.hi = min(w.lo+uint64(z.Count)*4096, w.end)
	return w, w.hi > w.lo
}

// pageMapView draws the page-mapping view of the first buffer in
// tl.Translation at the side's time (mappings made later are not drawn
// yet): its VA range as a strip coloured by leaf size (the largest share
// of each pixel column), leaf boundaries once a leaf is 5 pixels wide,
// the allocator's chunks outlined, the write pointers above, and below
// the same memory in physical order with the gaps between chunks
// collapsed, joined to the VA strip by lines. Beside other views (no
// TLBs) it carries its own legend of mapping sizes. Work per frame is
// bounded by the width in pixels and the number of mappings in the
// window, so a 1 GiB buffer of 4 KiB pages costs no more than MaxMappings
// runs.
type pageMapView struct {
	txt  *texts
	d    sideData
	zoom Zoom
	win  pmWindow // the window of the last Build
	// bins is scratch for the VA strip (bytes of each leaf class per
	// pixel column), lent by the stage.
	bins *[][4]float64
	// units is the physical strip's units, kept between frames.
	units pmSorted
	// flow is the last Build's bin-to-bin lines, for hover.
	flow pmFlow
	// strip is the VA strip's least height: binStrip when it is drawn
	// in numbered bins, else minStrip.
	strip float32
}

func (v *pageMapView) bind(txt *texts, d sideData, zoom Zoom, bins *[][4]float64) {
	v.txt, v.d, v.zoom, v.bins = txt, d, zoom, bins
	v.strip = minStrip
	if binned(d.tl.Translation) {
		v.strip = binStrip
	}
}

// MinSize is the smallest box the two strips and the lines between them
// are drawn in (their notes need more); in less the view says "nothing
// mapped".
func (v *pageMapView) MinSize() Size {
	return Size{40, textSz + 4 + pointerRow + v.strip + minStrip + minLinks + v.legendRow()}
}

// The strips' least height (the VA strip's binStrip when it is in
// numbered bins: a bin's band, markH(binStrip), holds its number), the
// lines' between them, and the height of the note rows (the VA strip's order
// and chunks, the physical strip's label) shown when there is room for
// them too.
const (
	minStrip = 6
	binStrip = 20
	minLinks = 16
	pmNotesH = 2*smallSz + 10
)

// legendRow is the height of the view's own legend of mapping sizes:
// beside other views (no TLBs), as the stage's legend is the cell states'.
func (v *pageMapView) legendRow() float32 {
	if hasTLBs(v.d.tl) {
		return 0
	}
	return 16
}

func (v *pageMapView) TextSizes() TextSizes {
	return TextSizes{Title: textSz, Body: smallSz, Least: smallSz}
}

func (v *pageMapView) Describe(r Ref) string {
	switch r.Kind {
	case RefLegend:
		return translationLegendHelp(int(r.Index))
	case RefMapping:
		return v.describeMapping(r)
	case RefChunk:
		return v.describeChunk(r)
	case RefFlow:
		return v.describeFlow(r)
	}
	return ""
}

// pmStrips is where the view's parts go: the strips' tops, their heights
// (the VA strip's stripH, the physical strip's paH), the legend row, and
// the VA-to-x mapping of the window.
type pmStrips struct {
	x, w, vaY, paY, stripH, paH, legendRow, rows float32
	span                                         float64
	lo                                           uint64
}

// links is where the lines joining the strips run: between the strips,
// below and above their note rows when shown.
func (p *pmStrips) links() (float32, float32) {
	l0, l1 := p.vaY+p.stripH+2, p.paY-2
	if p.rows > 0 {
		l0, l1 = l0+smallSz+4, l1-smallSz-4
	}
	return l0, l1
}

func (p *pmStrips) xOf(va uint64) float32 {
	return p.x + float32(float64(va-p.lo)/p.span*float64(p.w))
}

func (v *pageMapView) Build(s *Scene, r Rect) {
	ids := &transSideIDs[v.d.side]
	x, y, w, h := r.X, r.Y, r.W, r.H
	tl := v.d.tl
	tr := tl.Translation
	win, ok := pageWindow(tl, v.zoom)
	v.win = win
	if !ok || !(Size{w, h}).Fits(v.MinSize()) {
		s.Text(ids.pmNote, x, y+textSz, "page mappings: nothing mapped", textSz, Muted, AlignStart)
		return
	}
	v.label(s, x, y, w)
	legendRow := v.legendRow()
	top := y + textSz + 4 + pointerRow // title, pointer row
	avail := y + h - legendRow - top - 2
	// Between the strips: the lines joining them, and when there is room
	// the note row under the VA strip and the physical strip's label, one
	// text row each, never on top of each other or of the lines.
	rows := float32(0)
	if avail >= max(v.strip, 10)+10+minLinks+pmNotesH {
		rows = pmNotesH
	}
	// The VA strip keeps the height its bins' numbers need; the physical
	// strip, whose frames carry their bin's colour only, gives way first.
	stripH := max(min(avail*0.25, 24, (avail-rows-minLinks)/2), minStrip)
	vaH := max(stripH, v.strip)
	paH := max(min(stripH, avail-rows-minLinks-vaH), minStrip)
	p := pmStrips{x: x, w: w, vaY: top, paY: y + h - legendRow - paH - 2, stripH: vaH, paH: paH, legendRow: legendRow, rows: rows,
		span: float64(win.hi - win.lo), lo: win.lo}
	i0 := sort.Search(len(tr.Mappings), func(i int) bool { return tr.Mappings[i].VA+tr.Mappings[i].Bytes > win.lo })
	v.vaStrip(s, tr, i0, &p)
	units := v.unitsOf(tr)
	plan, planned := v.plan(units, p.w)
	v.flow.reset(&p, planned && plan.n/plan.k > maxPieceLinks)
	v.focusPages()
	v.leafEdges(s, tr, i0, &p)
	chunkNoteW := v.chunks(s, tr, &p, rows > 0)
	v.binBand(s, &p) // over the leaf edges and chunk outlines: its numbers stay clear
	v.pointers(s, tr, &p)
	if planned {
		v.physical(s, &p, units, &plan)
	}
	v.focusLines(s, &p)
	v.notes(s, &p, chunkNoteW)
	if rows > 0 {
		label := v.txt.FitFirst(w, smallSz, "physical frames (PA order, gaps between runs collapsed)", "physical frames (PA order)", "physical frames")
		switch {
		case v.flow.on && v.flow.skipped > 0: // merged runs: only the recorded pages have places
			label = v.txt.FitFirst(w, smallSz, "physical frames (PA order); recorded pages in their VA bin's colour", "physical frames; recorded pages in their bin's colour", label)
		case v.flow.on:
			label = v.txt.FitFirst(w, smallSz, "physical frames (PA order), each in its VA bin's colour", "physical frames, in their VA bin's colour", label)
		}
		s.Text(ids.pmNote, x, p.paY-3, label, smallSz, Muted, AlignStart)
	}
	if legendRow > 0 {
		v.legend(s, tr, x, y+h-legendRow+3, w)
	}
}

// label says what the strips show: the window's range, else its start,
// else its size, in whole words at any width.
func (v *pageMapView) label(s *Scene, x, y, w float32) {
	win := v.win
	io := win.base>>48 == 0 // a lower-half address: a device's IOVA
	head, space := "Page mappings · ", "VA "
	if io {
		head, space = "IOMMU mappings · ", "IOVA "
	}
	size := v.txt.Join(" (", scenario.FormatBytes(int64(win.hi-win.lo)), ")")
	lo := v.txt.Join(head, space, v.txt.Hex(win.lo))
	label := v.txt.FitFirst(w, textSz, v.txt.Join(lo, "..", v.txt.Join(v.txt.Hex(win.hi), size, "")), v.txt.Join(lo, size, ""),
		v.txt.Join(head[:len(head)-len(" · ")], size, ""))
	s.Text(transSideIDs[v.d.side].pmLabel, x, y+textSz, label, textSz, Muted, AlignStart)
}

// vaStrip draws the window's VA range in bins of at least one pixel, each
// coloured by the leaf size that maps most of it; mappings from i0.
func (v *pageMapView) vaStrip(s *Scene, tr *timeline.Translation, i0 int, p *pmStrips) {
	win, t := v.win, v.d.t
	bins := max(1, min(int(p.w), int((win.hi-win.lo)/4096)))
	if cap(*v.bins) < bins {
		*v.bins = make([][4]float64, bins)
	}
	counts := (*v.bins)[:bins]
	clear(counts)
	binBytes := p.span / float64(bins)
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
				counts[b][c] += float64(hi - lo)
			} else if b0 == b1 {
				counts[b][c] += float64(e - a) // rounding: the run is inside this bin
			}
		}
	}
	for b := 0; b < bins; {
		c := binClass(&counts[b])
		e := b + 1
		for e < bins && binClass(&counts[e]) == c {
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
		s.Rect(transSideIDs[v.d.side].pmVA, int32(b), p.xOf(blo), p.vaY, p.xOf(bhi)-p.xOf(blo), p.stripH, fill,
			Ref{Kind: RefMapping, Side: v.d.side, Obj: int32(win.grid), Index: int32(page), Count: int32(max((bhi-blo)/4096, 1))})
		b = e
	}
}

// binClass is the leaf class with the most bytes in a bin, -1 for none.
func binClass(bin *[4]float64) int {
	best, c := 0.0, -1
	for k, val := range bin {
		if val > best {
			best, c = val, k
		}
	}
	return c
}

// leafEdges draws the boundaries between leaves once each leaf is wide
// enough to see.
func (v *pageMapView) leafEdges(s *Scene, tr *timeline.Translation, i0 int, p *pmStrips) {
	win, t := v.win, v.d.t
	pxPerByte := float64(p.w) / p.span
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
				s.Line(transSideIDs[v.d.side].pmSep, p.xOf(a), p.vaY, p.xOf(a), p.vaY+p.stripH, Background, 1)
			}
		}
	}
}

// pointers draws the write pointers above the VA strip.
func (v *pageMapView) pointers(s *Scene, tr *timeline.Translation, p *pmStrips) {
	ids := &transSideIDs[v.d.side]
	win := v.win
	for k := range tr.Pointers {
		va, ok := tr.PointerAt(k, v.d.t)
		if !ok || va < win.lo || va > win.hi {
			continue
		}
		px := p.xOf(va)
		colour := pointerColour(k)
		s.Arrow(ids.pmPointer, px, p.vaY-13, px, p.vaY+4, colour, 2, Ref{})
		lx, al := px+3, AlignStart
		if px > p.x+p.w-40 {
			lx, al = px-3, AlignEnd
		}
		s.Text(ids.pmPointerLabel, lx, p.vaY-4, tr.Pointers[k].ID, smallSz, colour, al)
	}
}

// notes says under the VA strip in which order it runs, left of the
// chunks' count (chunkNoteW wide).
func (v *pageMapView) notes(s *Scene, p *pmStrips, chunkNoteW float32) {
	order, orderShort := "virtual (buffer order)", "virtual"
	if v.win.base>>48 == 0 {
		order, orderShort = "IOVA order", "IOVA"
	}
	if p.rows > 0 {
		if ow := min(p.w*0.6, p.w-chunkNoteW-12); ow > 40 {
			text := v.txt.FitFirst(ow, smallSz, order, orderShort)
			if bins := v.flow.binNote(v.txt); bins != "" {
				text = v.txt.FitFirst(ow, smallSz, v.txt.Join(order, " · ", bins), v.txt.Join(orderShort, " · ", bins), bins, order, orderShort)
			}
			s.Text(transSideIDs[v.d.side].pmNote, p.x, p.vaY+p.stripH+smallSz+2, text, smallSz, Muted, AlignStart)
		}
	}
}

// legend names the mapping sizes the buffer uses, from (x, ly).
func (v *pageMapView) legend(s *Scene, tr *timeline.Translation, x, ly, w float32) {
	ids := &transSideIDs[v.d.side]
	lx := x
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
	if name := translationLegendEntry(tlBins).name; v.flow.on && lx+16+textWidth(name, smallSz) <= x+w {
		ref := Ref{Kind: RefLegend, Obj: 2, Index: tlBins}
		binSwatch(s, ids.pmLegend, int32(len(leafLegend)), lx, ly, ref)
		s.TextRef(ids.pmLegendLabel, lx+14, ly+10, name, smallSz, Text, AlignStart, ref)
	}
}
