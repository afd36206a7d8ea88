package render

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// maxPieceLinks is the most physical pieces joined to the VA strip one
// line each; more (a buffer of order-0 pages) are drawn in bins.
const maxPieceLinks = 16

// maxFlowBins bounds the VA bins (and BinColor's colours).
const maxFlowBins = 8

// minBinW is the least width of a VA bin: room for its number.
const minBinW = 40

// maxFocus bounds the pages joined by a line in bins (one per write
// pointer).
const maxFocus = 4

// pmFlow is the page-mapping view's binning of a buffer of many scattered
// pieces (order-0 pages): the VA strip is cut into bins of equally many
// pages, each with its colour and number, and each physical piece is
// marked with the colour of the bin most of its pages come from, so a
// scattered buffer reads as interleaved colours and a contiguous one as
// colours in order. A line joins only the page each write pointer is on
// (the page whose translation the TLB and walk views show) to its frame;
// 64 lines, or 262144, would cross in one star. Merged runs (past
// timeline.MaxMappings) have no recorded places and no mark (skipped
// counts their pages).
type pmFlow struct {
	on   bool
	bins int
	// pages[vb][pb] counts the pages of VA bin vb in the physical strip's
	// part pb (the strip cut into bins parts of equal width), for hover.
	pages      [maxFlowBins][maxFlowBins]uint64
	paLo, paHi [maxFlowBins]uint64
	skipped    uint64
	// vaLo, vaPages: the VA window's start and its pages.
	vaLo, vaPages uint64
	// cur counts the pages of each VA bin in the piece being built, and
	// unknown its pages of merged runs.
	cur     [maxFlowBins]uint64
	unknown uint64
	// focus are the pages joined by a line: their VA and, once drawn,
	// where their frame is on the physical strip.
	focus  [maxFocus]pmFocus
	nFocus int
}

// pmFocus is a page joined by a line: its VA (page-aligned), its frame's
// PA when known (the walk's leaf, or a mapping recorded page by page),
// and the x and width of its frame on the physical strip once found.
type pmFocus struct {
	va, pa uint64
	hasPA  bool
	px, w  float32
	found  bool
}

// flowBins is how many VA bins a strip w pixels wide of pages pages
// shows: 8, 4 or 2 (so a power-of-two buffer's bins hold equally many
// pages), each at least minBinW wide.
func flowBins(w float32, pages uint64) int {
	b := maxFlowBins
	for b > 2 && (w/float32(b) < minBinW || uint64(b) > pages) {
		b /= 2
	}
	return b
}

func (f *pmFlow) reset(p *pmStrips, on bool) {
	pages := max(uint64(p.span)/4096, 1)
	*f = pmFlow{on: on, bins: flowBins(p.w, pages), vaLo: p.lo, vaPages: pages}
	for b := range f.paLo {
		f.paLo[b] = ^uint64(0)
	}
}

// binOf is the VA bin of the page at va.
func (f *pmFlow) binOf(va uint64) int {
	page := (va - f.vaLo) / 4096
	return min(int(page*uint64(f.bins)/f.vaPages), f.bins-1)
}

// binVA is the first VA of bin b.
func (f *pmFlow) binVA(b int) uint64 {
	return f.vaLo + (uint64(b)*f.vaPages+uint64(f.bins)-1)/uint64(f.bins)*4096
}

// add counts unit u, drawn from px on the physical strip, into the piece
// being built (x is where u starts), and finds the focus pages in it.
func (f *pmFlow) add(p *pmStrips, u *paUnit, px, x float32, scale float64) {
	if !f.on {
		return
	}
	for i := range f.focus[:f.nFocus] {
		if fc := &f.focus[i]; !fc.found {
			fc.find(u, x, scale)
		}
	}
	n := max(u.bytes/4096, 1)
	if u.scattered {
		f.skipped += n
		f.unknown += n
		return
	}
	vb := f.binOf(u.va)
	pb := min(max(int((px-p.x)/p.w*float32(f.bins)), 0), f.bins-1)
	f.cur[vb] += n
	f.pages[vb][pb] += n
	f.paLo[pb] = min(f.paLo[pb], u.pa)
	f.paHi[pb] = max(f.paHi[pb], u.pa+u.bytes)
}

// find places fc's frame if unit u (drawn from x) holds it: by PA when
// it is known (units come in PA order, so the first unit ending past it
// holds it or, for a frame in a merged run, comes next; a merged run is
// placed by its first frame only), else by VA in a unit recorded page by
// page.
func (fc *pmFocus) find(u *paUnit, x float32, scale float64) {
	var off uint64
	switch {
	case fc.hasPA && u.scattered && u.pa >= fc.pa: // a merged run: its first frame is all that is placed
	case fc.hasPA && !u.scattered && u.pa+u.bytes > fc.pa:
		if fc.pa >= u.pa {
			off = fc.pa - u.pa
		}
	case !fc.hasPA && !u.scattered && fc.va+4095 >= u.va && fc.va < u.va+u.bytes:
		off = max(fc.va, u.va) - u.va
	default:
		return
	}
	fc.px, fc.w, fc.found = x+float32(float64(off)*scale), max(float32(4096*scale), 1), true
}

// mark returns the VA bin most of the built piece's pages come from (-1
// for none, or when more of them are in merged runs, whose places are
// not recorded) and starts the next piece.
func (f *pmFlow) mark() int {
	best, vb := f.unknown, -1
	for b := range f.bins {
		if f.cur[b] > best {
			best, vb = f.cur[b], b
		}
	}
	f.cur, f.unknown = [maxFlowBins]uint64{}, 0
	return vb
}

// markH is the height of the bin marks in a strip stripH high: the rest
// (at least 2 pixels, on the side away from the lines) shows the leaf
// size.
func markH(stripH float32) float32 { return stripH - max(stripH*0.3, 2) }

// focusPages sets the pages joined by a line: the page each write pointer
// is on at the side's time (the walk view's page when the walk is the
// pointer's agent's).
func (v *pageMapView) focusPages() {
	f := &v.flow
	tr, t, win := v.d.tl.Translation, v.d.t, v.win
	walkVA, walkAgent, walked := uint64(0), uint8(0), false
	steps, _ := tr.WalkAt(t)
	if len(steps) > 0 {
		walkVA, walkAgent, walked = steps[0].VA, steps[0].Agent, true
	}
	for k := range tr.Pointers {
		va, ok := tr.PointerAt(k, t)
		if !ok || f.nFocus == maxFocus {
			continue
		}
		if walked && tr.Pointers[k].Agent == walkAgent {
			va = walkVA
		}
		if va >= win.hi && va > win.lo {
			va = win.hi - 1 // a pointer at the end is writing the last page
		}
		if va < win.lo || va >= win.hi {
			continue
		}
		fc := pmFocus{va: va &^ 4095}
		if walked && tr.Pointers[k].Agent == walkAgent {
			fc.pa, fc.hasPA = leafPA(steps, va)
		} else if i := tr.MappingAt(va); i >= 0 && !tr.Mappings[i].Scattered {
			fc.pa, fc.hasPA = tr.Mappings[i].PA+(va-tr.Mappings[i].VA), true
		}
		fc.pa &^= 4095
		f.focus[f.nFocus] = fc
		f.nFocus++
	}
}

// leafPA is the physical address of va by the walk's leaf descriptor
// (output address bits 47:12), false when the walk has no leaf.
func leafPA(steps []timeline.WalkStep, va uint64) (uint64, bool) {
	for _, sp := range steps {
		size := uint64(0)
		switch {
		case sp.Kind == timeline.DescPage:
			size = 4096
		case sp.Kind == timeline.DescBlock && sp.Level >= 1:
			size = 1 << (12 + 9*(3-sp.Level))
		default:
			continue
		}
		return sp.Desc&0x0000_ffff_ffff_f000&^(size-1) | va&(size-1), true
	}
	return 0, false
}

// binBand draws the VA strip's bins: each its colour over the strip's
// lower part, and its number where it fits.
func (v *pageMapView) binBand(s *Scene, p *pmStrips) {
	f := &v.flow
	if !f.on {
		return
	}
	ids := &transSideIDs[v.d.side]
	h := markH(p.stripH)
	y := p.vaY + p.stripH - h
	for b := range f.bins {
		x0, x1 := p.xOf(f.binVA(b)), p.xOf(f.binVA(b+1))
		if b == f.bins-1 {
			x1 = p.x + p.w
		}
		s.Rect(ids.pmBin, int32(b), x0, y, x1-x0, h, BinColor(b), Ref{Kind: RefFlow, Side: v.d.side, Obj: int32(b), Index: -1})
		if num := v.txt.Num(float64(b + 1)); h >= smallSz-2 && x1-x0 >= textWidth(num, smallSz)+6 {
			s.Text(ids.pmBinLabel, (x0+x1)/2, y+h/2+smallSz*0.36, num, smallSz, Background, AlignMiddle)
		}
	}
}

// pieceMark marks physical piece i (px, pw) with the colour of the bin
// most of its pages come from.
func (v *pageMapView) pieceMark(s *Scene, p *pmStrips, i int, px, pw float32) {
	f := &v.flow
	if !f.on {
		return
	}
	if vb := f.mark(); vb >= 0 {
		s.Rect(transSideIDs[v.d.side].pmMark, int32(i), px, p.paY, max(pw, 1), markH(p.paH), BinColor(vb), Ref{})
	}
}

// focusLines joins each focus page to its frame, both outlined.
func (v *pageMapView) focusLines(s *Scene, p *pmStrips) {
	f := &v.flow
	l0, l1 := p.links()
	if !f.on || l1-l0 < 4 {
		return
	}
	ids := &transSideIDs[v.d.side]
	for i := range f.focus[:f.nFocus] {
		fc := &f.focus[i]
		if !fc.found {
			continue
		}
		vx0, vx1 := p.xOf(fc.va), p.xOf(min(fc.va+4096, v.win.hi))
		ref := Ref{Kind: RefMapping, Side: v.d.side, Obj: int32(v.win.grid), Index: int32((fc.va - v.win.base) / 4096), Count: 1}
		s.Add(Item{Kind: KindLine, ID: ids.pmLink, Index: int32(i), X: (vx0 + vx1) / 2, Y: l0, X2: fc.px + fc.w/2, Y2: l1,
			Fill: None, Stroke: filledColor, StrokeWidth: 2, Ref: ref})
		s.Frame(ids.pmFocus, vx0-1, p.vaY-1, max(vx1-vx0, 1)+2, p.stripH+2, filledColor, 2)
		s.Frame(ids.pmFocus, fc.px-1, p.paY-1, fc.w+2, p.paH+2, filledColor, 2)
	}
}

// binNote is the VA strip's note on its bins: "8 bins of 8 pages".
func (f *pmFlow) binNote(txt *texts) string {
	if !f.on {
		return ""
	}
	return txt.Join(txt.Num(float64(f.bins)), " bins of ", txt.Join(txt.Num(float64(f.vaPages/uint64(f.bins))), " pages", ""))
}

// describeFlow says what a VA bin holds and where its frames lie.
func (v *pageMapView) describeFlow(r Ref) string {
	f := &v.flow
	vb := int(r.Obj)
	if !f.on || vb >= f.bins {
		return ""
	}
	lo, hi := f.binVA(vb), f.binVA(vb+1)
	pages, parts := uint64(0), 0
	for pb := range f.bins {
		if n := f.pages[vb][pb]; n > 0 {
			pages += n
			parts++
		}
	}
	out := fmt.Sprintf("%s VA bin %d of %d: VA %#x..%#x, %d pages (%s) · its frames carry this colour on the physical strip, in %d of its %d parts",
		v.d.name(), vb+1, f.bins, lo, hi-1, pages, scenario.FormatBytes(int64(pages)*4096), parts, f.bins)
	if f.skipped > 0 {
		out += fmt.Sprintf(" · %d pages past the record's first mapping runs have no recorded places and no colour", f.skipped)
	}
	return out
}

// binWord says which VA bin the page at va is in, when the view bins.
func (v *pageMapView) binWord(va uint64) string {
	f := &v.flow
	if !f.on || va < f.vaLo || va >= f.vaLo+f.vaPages*4096 {
		return ""
	}
	return fmt.Sprintf(" · VA bin %d of %d", f.binOf(va)+1, f.bins)
}

// binned reports whether the page-mapping view draws tr's first buffer in
// VA bins (at a width that shows each piece): more pieces than are joined
// one line each.
func binned(tr *timeline.Translation) bool {
	if tr == nil || len(tr.Mappings) == 0 {
		return false
	}
	buf, base, end, maps := tr.Mappings[0].Buffer, tr.Mappings[0].VA, uint64(0), 0
	for i := range tr.Mappings {
		if m := &tr.Mappings[i]; m.Buffer == buf {
			end, maps = max(end, m.VA+m.Bytes), maps+1
		}
	}
	if len(tr.Chunks) == 0 || tr.DroppedChunks > 0 {
		return maps > maxPieceLinks // the mappings place the frames (pmSorted.fill)
	}
	chunks := 0
	for i := range tr.Chunks {
		if c := &tr.Chunks[i]; c.VA < end && c.VA+c.Bytes() > base {
			chunks++
		}
	}
	return chunks > maxPieceLinks
}
