package render

import "github.com/dmaviz/dmaviz/model/timeline"

// tlbView draws the TLBs of tl.Translation at the side's time: each TLB's
// entries in index order (set-major), coloured by entry size with a strip
// in the owner's colour, the entry filled last outlined and the entry it
// evicted named; below, the last walk (walkView). It keeps the TLBs'
// state at the cursor, which it replays every frame, for hover.
type tlbView struct {
	txt   *texts
	d     sideData
	state timeline.TLBState
	walk  walkView
}

func (v *tlbView) bind(txt *texts, d sideData) {
	v.txt, v.d = txt, d
	v.walk = walkView{txt: txt, d: d}
}

// MinSize is the smallest box in which every TLB shows its entries under
// its header line, above the walk's title (its levels take the height
// left, up to 112 px). In less than 40 x 40 the view draws nothing.
func (v *tlbView) MinSize() Size {
	tr := v.d.tl.Translation
	if tr == nil || len(tr.TLBs) == 0 {
		return Size{40, 40}
	}
	return Size{40, max(float32(len(tr.TLBs))*tlbRowLeast+walkTitleH, 40)}
}

// tlbRowLeast is the least height of a TLB's row: its header line, a
// pixel of entries and the gap under them.
const tlbRowLeast = smallSz + 3 + 1 + 4

// walkTitleH is the height of the walk's title line.
const walkTitleH = textSz + 8

// walkHeight is the height of the walk under TLBs whose entries need
// need in a view h high: its title and four level rows, from 82 to 112 px
// (38 % of h), or its title only when the TLBs would not keep need.
func walkHeight(h, need float32) float32 {
	full := min(max(h*0.38, walkTitleH+4*walkRow), 6*(textSz+4)+4)
	if h-full < need {
		return max(min(h-need, full), walkTitleH)
	}
	return full
}

func (v *tlbView) TextSizes() TextSizes {
	return TextSizes{Title: textSz, Body: smallSz, Least: smallSz}
}

func (v *tlbView) Describe(r Ref) string {
	switch r.Kind {
	case RefTLBEntry:
		return v.describeEntries(r)
	case RefWalkStep:
		return v.walk.Describe(r)
	}
	return ""
}

func (v *tlbView) Build(s *Scene, r Rect) {
	x, y, w, h := r.X, r.Y, r.W, r.H
	tr := v.d.tl.Translation
	if tr == nil || len(tr.TLBs) == 0 || w < 40 || h < 40 {
		return
	}
	tr.TLBsAt(v.d.t, &v.state)
	walkH := walkHeight(h, v.MinSize().H-walkTitleH)
	tlbH := h - walkH
	// Each TLB its least row, the rest by weight.
	weight := float32(0)
	for _, sp := range tr.TLBs {
		weight += tlbWeight(sp)
	}
	// (Short of every least row, each row is as much shorter: no
	// entries are drawn.)
	least := float32(len(tr.TLBs)) * tlbRowLeast
	spare, short := max(tlbH-least, 0), min(tlbH/least, 1)
	ty := y
	for k, sp := range tr.TLBs {
		th := tlbRowLeast*short + spare*tlbWeight(sp)/weight
		v.row(s, k, x, ty, w, th-4)
		ty += th
	}
	v.walk.Build(s, Rect{x, y + tlbH, w, walkH})
}

// tlbWeight is a TLB's share of the view's height: the shared L2 TLB gets
// more room than an L1 port.
func tlbWeight(sp timeline.TLBSpec) float32 {
	if sp.Entries <= 1 {
		return 0.7
	}
	if sp.Level == 1 {
		return 2
	}
	return 1
}

// row draws TLB k in (x, y, w, h): its header line, then its entries.
func (v *tlbView) row(s *Scene, k int, x, y, w, h float32) {
	v.header(s, k, x, y, w)
	v.entries(s, k, x, y+smallSz+3, w, y+h)
}

// header draws TLB k's header line, flowing left to right: its label and
// valid count, its owners in words, then the last fill's notes
// right-aligned where they fit (nothing overlaps).
func (v *tlbView) header(s *Scene, k int, x, y, w float32) {
	ids := &transSideIDs[v.d.side]
	sp := &v.d.tl.Translation.TLBs[k]
	ents := v.state.Entries[k]
	valid, core := 0, 0
	for _, e := range ents {
		if e.Valid {
			valid++
			if e.Owner <= 1 {
				core++
			}
		}
	}
	label := v.txt.Join(sp.Label, " · ", v.txt.Join(v.txt.Num(float64(valid)), "/", v.txt.Join(v.txt.Num(float64(sp.Entries)), " valid", "")))
	// The label may take the whole row when nothing follows it (no valid
	// entry, no fill yet), three quarters otherwise.
	lim := w * 0.75
	if valid == 0 && v.state.Last[k].Index < 0 {
		lim = w
	}
	s.Text(ids.tlbLabel, x, y+smallSz, v.txt.Fit(label, lim, smallSz), smallSz, Muted, AlignStart)
	used := x + min(textWidth(label, smallSz), lim)
	if valid > 0 {
		used = v.owners(s, x, y, w, used, core, valid-core)
	}
	last := v.state.Last[k]
	if last.Index >= 0 {
		// What the last fill put in and what it pushed out.
		note := v.txt.Join("filled ", v.txt.Hex(last.Entry.VA), v.txt.Join(" (", timeline.LeafName(last.Entry.Bytes), ")"))
		nx := x + w
		if last.Evicted {
			ev := v.txt.Join("evicted ", v.txt.Hex(last.Old.VA), "")
			if nx-textWidth(ev, smallSz) > used+8 {
				s.Text(ids.tlbNote, nx, y+smallSz, ev, smallSz, evictedColor, AlignEnd)
				nx -= textWidth(ev, smallSz) + 8
			}
		}
		if nx-textWidth(note, smallSz) > used+8 {
			s.Text(ids.tlbNote, nx, y+smallSz, note, smallSz, filledColor, AlignEnd)
		}
	}
}

// owners says after the label (which ends at used) how many valid entries
// each requester allocated: an entry's owner strip only shows on big
// cells. Each owner is in words, or by its swatch and count alone (the
// stage legend names the swatch) when the words do not fit. It returns
// where the header's text now ends.
func (v *tlbView) owners(s *Scene, x, y, w, used float32, core, unit int) float32 {
	ids := &transSideIDs[v.d.side]
	ox := used + 8
	for _, o := range [2]struct {
		word  string
		n     int
		owner uint8
	}{{"core ", core, 1}, {"trace unit ", unit, 2}} {
		if o.n <= 0 {
			continue
		}
		t := v.txt.Join(o.word, v.txt.Num(float64(o.n)), "")
		if ox+12+textWidth(t, smallSz) > x+w {
			t = v.txt.Num(float64(o.n))
		}
		if ox+12+textWidth(t, smallSz) <= x+w {
			s.Rect(ids.tlbOwner, -1, ox, y+2, 9, 9, OwnerColor(o.owner), Ref{})
			s.Text(ids.tlbLabel, ox+12, y+smallSz, t, smallSz, Muted, AlignStart)
			used = ox + 12 + textWidth(t, smallSz)
			ox = used + 6
		}
	}
	return used
}

// entries draws TLB k's entries from top to bottom, aggregated into drawn
// cells where they do not fit; a one-entry TLB is one wide cell that
// names its translation when tall enough.
func (v *tlbView) entries(s *Scene, k int, x, top, w, bottom float32) {
	ids := &transSideIDs[v.d.side]
	ents := v.state.Entries[k]
	last := v.state.Last[k]
	lay := layoutGrid(len(ents), w, bottom-top, 1)
	if lay.size <= 0 || len(ents) == 0 {
		return
	}
	if len(ents) == 1 {
		lay = gridLayout{k: 1, drawn: 1, cols: 1, rows: 1, size: bottom - top}
	}
	inset := float32(0)
	if lay.size >= 6 {
		inset = 1
	}
	cw := lay.size
	if len(ents) == 1 {
		cw = w
	}
	for i := 0; i < lay.drawn; i++ {
		lo, hi := i*lay.k, min((i+1)*lay.k, len(ents))
		big, owner, any := largest(ents[lo:hi])
		col, row := i%lay.cols, i/lay.cols
		cx, cy := x+float32(col)*cw, top+float32(row)*lay.size
		fill := Surface
		if any {
			fill = LeafColor(big)
		}
		ref := Ref{Kind: RefTLBEntry, Side: v.d.side, Obj: int32(k), Index: int32(lo), Count: int32(hi - lo)}
		s.Rect(ids.tlbEntry, int32(i), cx+inset, cy+inset, cw-2*inset, lay.size-2*inset, fill, ref)
		if any && lay.size >= 8 {
			s.Rect(ids.tlbOwner, int32(i), cx+inset, cy+inset, cw-2*inset, max(lay.size/5, 2), OwnerColor(owner), ref)
		}
		if last.Index >= lo && last.Index < hi {
			s.Frame(ids.tlbFilled, cx, cy, cw, lay.size, filledColor, 2)
		}
		if len(ents) == 1 && any && lay.size >= textSz+6 {
			e := ents[0]
			txt := v.txt.Join(v.txt.Hex(e.VA), " → ", v.txt.Join(v.txt.Hex(e.PA), " · ", timeline.LeafName(e.Bytes)))
			s.Text(ids.tlbNote, cx+6, cy+lay.size/2+textSz*0.35+1, v.txt.Fit(txt, cw-12, textSz), textSz, Background, AlignStart)
		}
	}
}

// largest returns the size and owner of the largest valid entry in ents
// (a drawn cell's colour), and whether any is valid.
func largest(ents []timeline.TLBEntryRec) (bytes uint64, owner uint8, any bool) {
	for _, e := range ents {
		if e.Valid {
			if !any || e.Bytes > bytes {
				bytes, owner = e.Bytes, e.Owner
			}
			any = true
		}
	}
	return bytes, owner, any
}
