package render

import (
	"sort"

	"github.com/dmaviz/dmaviz/model/timeline"
)

// chunks outlines the allocator chunks in the window (or says how many
// when they are too narrow to outline) and returns the width of the
// count's note.
func (v *pageMapView) chunks(s *Scene, tr *timeline.Translation, p *pmStrips, noteRow bool) float32 {
	ids := &transSideIDs[v.d.side]
	win := v.win
	if len(tr.Chunks) == 0 {
		return 0
	}
	c0 := sort.Search(len(tr.Chunks), func(i int) bool { return tr.Chunks[i].VA+tr.Chunks[i].Bytes() > win.lo })
	c1 := c0
	for c1 < len(tr.Chunks) && tr.Chunks[c1].VA < win.hi {
		c1++
	}
	n := c1 - c0
	if float32(n)*4 > p.w {
		return v.chunkNote(s, tr, p, n, true, noteRow)
	}
	for c := c0; c < c1; c++ {
		ch := &tr.Chunks[c]
		a, e := max(ch.VA, win.lo), min(ch.VA+ch.Bytes(), win.hi)
		s.Add(Item{Kind: KindRect, ID: ids.pmChunk, Index: int32(c), X: p.xOf(a) + 0.75, Y: p.vaY + 0.75, W: p.xOf(e) - p.xOf(a) - 1.5, H: p.stripH - 1.5,
			Fill: None, Stroke: chunkColor, StrokeWidth: 1.5, Ref: Ref{Kind: RefChunk, Side: v.d.side, Index: int32(c)}})
	}
	return v.chunkNote(s, tr, p, n, false, noteRow)
}

// chunkNote counts the window's n chunks right of the note row, in the
// longest form that leaves the row's left half to the strip order (long:
// saying to zoom in), and returns its width (0 when it is not drawn).
func (v *pageMapView) chunkNote(s *Scene, tr *timeline.Translation, p *pmStrips, n int, long, noteRow bool) float32 {
	w := p.w
	txt := v.txt.Join(v.txt.Num(float64(n)), " chunks", "")
	if tr.DroppedChunks > 0 {
		// Only the first MaxChunks are known: say how many there are.
		txt = v.txt.Join(v.txt.Num(float64(len(tr.Chunks)+tr.DroppedChunks)), " chunks", "")
		if l := v.txt.Join(txt, v.txt.Join(", first ", v.txt.Num(float64(len(tr.Chunks))), " outlined"), ""); textWidth(l, smallSz) <= w*0.45 {
			txt = l
		}
		long = false
	}
	if long {
		if l := v.txt.Join(txt, ": zoom in to outline them", ""); textWidth(l, smallSz) <= w*0.45 {
			txt = l
		}
	}
	tw := textWidth(txt, smallSz)
	if !noteRow || tw > w*0.45 {
		return 0
	}
	s.Text(transSideIDs[v.d.side].pmNote, p.xOf(v.win.hi), p.vaY+p.stripH+smallSz+2, txt, smallSz, Muted, AlignEnd)
	return tw
}

// paPlan is how the physical strip groups the units mapped at the side's
// time: k units a drawn piece (at most w/3 pieces), a joining line every
// step pieces, gap pixels between pieces whose frames are not contiguous,
// and scale pixels a byte.
type paPlan struct {
	n, k, step int
	gap        float32
	scale      float64
}

// plan groups units for a strip w wide; false when none is shown.
func (v *pageMapView) plan(units []paUnit, w float32) (paPlan, bool) {
	t := v.d.t
	// (The tests are written out: the page's code is not inlined.)
	n := 0
	for i := range units {
		if units[i].from <= t || units[i].whole {
			n++
		}
	}
	if n == 0 {
		return paPlan{}, false
	}
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
	total := float64(v.win.hi - v.win.lo)
	return paPlan{n: n, k: k, step: max(1, (pieces+maxLinks-1)/maxLinks), gap: gap, scale: float64(w-float32(gaps)*gap) / total}, true
}

// physical draws the window's memory in physical order. The cached units
// are read in place (a 1 GiB buffer has 262144): those not mapped yet at
// the side's time are skipped, the rest grouped plan.k at a time.
func (v *pageMapView) physical(s *Scene, p *pmStrips, units []paUnit, plan *paPlan) {
	t := v.d.t
	px := p.x
	var first, prev *paUnit
	var bytes uint64
	var by [4]uint64
	piece, in := 0, 0
	for j := range units {
		u := &units[j]
		if u.from > t && !u.whole {
			continue // not mapped yet
		}
		if in == 0 {
			if prev != nil && prev.pa+prev.bytes != u.pa {
				px += plan.gap
			}
			first, bytes, by = u, 0, [4]uint64{}
		}
		v.flow.add(p, u, px, px+float32(float64(bytes)*plan.scale), plan.scale)
		bytes += u.bytes
		if u.from <= t && u.kind >= 0 {
			by[u.kind] += u.bytes
		}
		prev = u
		if in++; in < plan.k && piece*plan.k+in < plan.n {
			continue
		}
		px += v.piece(s, p, plan, piece, first, in, bytes, &by, px)
		piece, in = piece+1, 0
	}
}

// piece draws physical piece i at px: in units from first, bytes long,
// coloured by the leaf class mapping most of it (by), joined to its place
// on the VA strip; it returns its width.
func (v *pageMapView) piece(s *Scene, p *pmStrips, plan *paPlan, i int, first *paUnit, in int, bytes uint64, by *[4]uint64, px float32) float32 {
	ids := &transSideIDs[v.d.side]
	win := v.win
	cls, best := -1, uint64(0)
	for c, val := range by {
		if val > best {
			cls, best = c, val
		}
	}
	pw := float32(float64(bytes) * plan.scale)
	fill := Surface
	if cls >= 0 {
		fill = LeafColor(leafLegend[cls].bytes)
	}
	ref := Ref{Kind: RefMapping, Side: v.d.side, Obj: int32(win.grid), Index: int32((first.va - win.base) / 4096), Count: int32(max(first.bytes/4096, 1))}
	if first.chunk >= 0 && in == 1 {
		ref = Ref{Kind: RefChunk, Side: v.d.side, Index: int32(first.chunk)}
	}
	s.Rect(ids.pmPA, int32(i), px, p.paY, max(pw, 1), p.paH, fill, ref)
	v.pieceMark(s, p, i, px, pw)
	// Joining lines run between the two text rows (the strip order under
	// the VA strip, the physical strip's label), never across them.
	if l0, l1 := p.links(); !v.flow.on && i%plan.step == 0 && l1-l0 >= 4 {
		vx := p.xOf(first.va) + (p.xOf(first.va+first.bytes)-p.xOf(first.va))/2
		s.Line(ids.pmLink, vx, l0, px+pw/2, l1, Muted, 1)
	}
	return pw
}
