package render

import (
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// tlbView draws the TLBs of tl.Translation at time t into (x, y, w, h):
// each TLB's entries in index order (set-major), coloured by entry size
// with a strip in the owner's colour, the entry filled last outlined and
// the entry it evicted named; below, the last walk level by level (the
// descriptor's address and value, what it was, a walk-cache hit or a
// memory read), the levels not yet arrived at t dimmed.
func (st *Stage) tlbView(s *Scene, side uint8, tl *timeline.Timeline, t sim.Time, x, y, w, h float32) {
	ids := &transSideIDs[side]
	tr := tl.Translation
	if tr == nil || len(tr.TLBs) == 0 || w < 40 || h < 40 {
		return
	}
	state := &st.tlbState[side]
	tr.TLBsAt(t, state)
	walkH := min(max(h*0.38, 4*textSz+22), 6*(textSz+4)+4)
	tlbH := h - walkH
	weight := float32(0)
	for _, sp := range tr.TLBs {
		weight += tlbWeight(sp)
	}
	ty := y
	for k, sp := range tr.TLBs {
		th := tlbH * tlbWeight(sp) / weight
		st.tlbRow(s, side, tr, state, k, x, ty, w, th-4)
		ty += th
	}
	st.walkPanel(s, side, tr, t, x, y+tlbH, w, walkH)
	_ = ids
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

func (st *Stage) tlbRow(s *Scene, side uint8, tr *timeline.Translation, state *timeline.TLBState, k int, x, y, w, h float32) {
	ids := &transSideIDs[side]
	sp := &tr.TLBs[k]
	ents := state.Entries[k]
	valid, core := 0, 0
	for _, e := range ents {
		if e.Valid {
			valid++
			if e.Owner <= 1 {
				core++
			}
		}
	}
	label := st.txt.Join(sp.Label, " · ", st.txt.Join(st.txt.Num(float64(valid)), "/", st.txt.Join(st.txt.Num(float64(sp.Entries)), " valid", "")))
	// The label may take the whole row when nothing follows it (no valid
	// entry, no fill yet), three quarters otherwise.
	lim := w * 0.75
	if valid == 0 && state.Last[k].Index < 0 {
		lim = w
	}
	s.Text(ids.tlbLabel, x, y+smallSz, st.txt.Fit(label, lim, smallSz), smallSz, Muted, AlignStart)
	// The header row flows left to right: label, owners in words, then the
	// last fill's notes right-aligned where they fit (nothing overlaps).
	used := x + min(textWidth(label, smallSz), lim)
	if valid > 0 {
		// Owners in words too: an entry's owner strip only shows on big cells.
		ox := used + 8
		// Each owner in words, or by its swatch and count alone (the
		// stage legend names the swatch) when the words do not fit.
		fit := func(word string, n int) string {
			if t := st.txt.Join(word, st.txt.Num(float64(n)), ""); ox+12+textWidth(t, smallSz) <= x+w {
				return t
			}
			return st.txt.Num(float64(n))
		}
		if core > 0 {
			t := fit("core ", core)
			if ox+12+textWidth(t, smallSz) <= x+w {
				s.Rect(ids.tlbOwner, -1, ox, y+2, 9, 9, OwnerColor(1), Ref{})
				s.Text(ids.tlbLabel, ox+12, y+smallSz, t, smallSz, Muted, AlignStart)
				used = ox + 12 + textWidth(t, smallSz)
				ox = used + 6
			}
		}
		if valid > core {
			t := fit("trace unit ", valid-core)
			if ox+12+textWidth(t, smallSz) <= x+w {
				s.Rect(ids.tlbOwner, -1, ox, y+2, 9, 9, OwnerColor(2), Ref{})
				s.Text(ids.tlbLabel, ox+12, y+smallSz, t, smallSz, Muted, AlignStart)
				used = ox + 12 + textWidth(t, smallSz)
			}
		}
	}
	last := state.Last[k]
	if last.Index >= 0 {
		// What the last fill put in and what it pushed out.
		note := st.txt.Join("filled ", st.txt.Hex(last.Entry.VA), st.txt.Join(" (", timeline.LeafName(last.Entry.Bytes), ")"))
		nx := x + w
		if last.Evicted {
			ev := st.txt.Join("evicted ", st.txt.Hex(last.Old.VA), "")
			if nx-textWidth(ev, smallSz) > used+8 {
				s.Text(ids.tlbNote, nx, y+smallSz, ev, smallSz, evictedColor, AlignEnd)
				nx -= textWidth(ev, smallSz) + 8
			}
		}
		if nx-textWidth(note, smallSz) > used+8 {
			s.Text(ids.tlbNote, nx, y+smallSz, note, smallSz, filledColor, AlignEnd)
		}
	}
	top := y + smallSz + 3
	lay := layoutGrid(len(ents), w, y+h-top, 1)
	if lay.size <= 0 || len(ents) == 0 {
		return
	}
	if len(ents) == 1 {
		lay = gridLayout{k: 1, drawn: 1, cols: 1, rows: 1, size: y + h - top}
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
		var big uint64
		owner, any := uint8(0), false
		for _, e := range ents[lo:hi] {
			if e.Valid {
				if !any || e.Bytes > big {
					big, owner = e.Bytes, e.Owner
				}
				any = true
			}
		}
		col, row := i%lay.cols, i/lay.cols
		cx, cy := x+float32(col)*cw, top+float32(row)*lay.size
		fill := Surface
		if any {
			fill = LeafColor(big)
		}
		ref := Ref{Kind: RefTLBEntry, Side: side, Obj: int32(k), Index: int32(lo), Count: int32(hi - lo)}
		s.Rect(ids.tlbEntry, int32(i), cx+inset, cy+inset, cw-2*inset, lay.size-2*inset, fill, ref)
		if any && lay.size >= 8 {
			s.Rect(ids.tlbOwner, int32(i), cx+inset, cy+inset, cw-2*inset, max(lay.size/5, 2), OwnerColor(owner), ref)
		}
		if last.Index >= lo && last.Index < hi {
			s.Frame(ids.tlbFilled, cx, cy, cw, lay.size, filledColor, 2)
		}
		if len(ents) == 1 && any && lay.size >= textSz+6 {
			e := ents[0]
			txt := st.txt.Join(st.txt.Hex(e.VA), " → ", st.txt.Join(st.txt.Hex(e.PA), " · ", timeline.LeafName(e.Bytes)))
			s.Text(ids.tlbNote, cx+6, cy+lay.size/2+textSz*0.35+1, st.txt.Fit(txt, cw-12, textSz), textSz, Background, AlignStart)
		}
	}
}

// walkPanel draws the last walk at t level by level.
func (st *Stage) walkPanel(s *Scene, side uint8, tr *timeline.Translation, t sim.Time, x, y, w, h float32) {
	ids := &transSideIDs[side]
	steps, arrived := tr.WalkAt(t)
	if len(steps) == 0 {
		s.Text(ids.walkLabel, x, y+textSz+2, "table walk: none yet", textSz, Muted, AlignStart)
		return
	}
	who := "core"
	for _, p := range tr.Pointers {
		if p.Agent == steps[0].Agent {
			who = p.ID
		}
	}
	va, by := st.txt.Hex(steps[0].VA), st.txt.Join(" by ", who, "")
	title := st.txt.Join("Table walk for VA ", va, by)
	short := st.txt.Join("Walk: VA ", va, by)
	shortest := short
	if tr.WalkStride > 1 {
		// Which walk of how many is shown matters more than the wording:
		// the shorter forms keep it.
		n := st.txt.Num(float64(tr.WalkStride))
		title = st.txt.Join(title, " · 1 walk in ", n)
		short = st.txt.Join(short, " · 1 in ", n)
		shortest = st.txt.Join(st.txt.Join("Walk: ", va, " · 1 in "), n, "")
	}
	s.Text(ids.walkLabel, x, y+textSz+2, st.txt.FitFirst(w, textSz, title, short, shortest), textSz, Text, AlignStart)
	row := min((h-textSz-8)/4, textSz+6)
	first := steps[0].Level
	for l := 0; l < 4; l++ {
		ry := y + textSz + 8 + float32(l)*row
		lvl := st.txt.Join("L", st.txt.Num(float64(l)), "")
		var si = -1
		for i := range steps {
			if steps[i].Level == l {
				si = i
			}
		}
		badge, colour := Surface, Muted
		// Each row has shorter forms for a narrow column (an embed): the
		// level, what it holds and whether the walk cache answered stay,
		// the addresses go first.
		var txt, short, shortest string
		switch {
		case si < 0 && l < first:
			txt = st.txt.Join(lvl, " · not read: the walk cache holds the level-", st.txt.Join(st.txt.Num(float64(first)), " table", ""))
			short = st.txt.Join(lvl, " · not read: walk cache has L", st.txt.Num(float64(first)))
		case si < 0 && len(steps) > 0 && arrived == len(steps) && steps[len(steps)-1].Kind == timeline.DescBlock:
			txt = st.txt.Join(lvl, " · not needed: the level above is a block", "")
			short = st.txt.Join(lvl, " · not needed (block above)", "")
		case si < 0:
			txt = st.txt.Join(lvl, " · —", "")
		case si >= arrived:
			txt = st.txt.Join(lvl, " · reading…", "")
		default:
			sp := &steps[si]
			how, c := " · read from memory", walkReadCol
			if sp.WalkCache {
				how, c = " · walk-cache hit", walkHitCol
			}
			badge, colour = c, Text
			txt = st.txt.Join(st.txt.Join(lvl, " · ", st.txt.Hex(sp.DescAddr)), st.txt.Join(" = ", st.txt.Hex(sp.Desc), " "),
				st.txt.Join(sp.Kind, how, ""))
			short = st.txt.Join(st.txt.Join(lvl, " = ", st.txt.Hex(sp.Desc)), " ", st.txt.Join(sp.Kind, how, ""))
			shortest = st.txt.Join(lvl, " · ", st.txt.Join(sp.Kind, how, ""))
		}
		if short == "" {
			short = txt
		}
		if shortest == "" {
			shortest = short
		}
		ref := Ref{}
		if si >= 0 {
			ref = Ref{Kind: RefWalkStep, Side: side, Obj: int32(l), Index: int32(si)}
		}
		s.Rect(ids.walkBadge, int32(l), x, ry+2, 10, row-4, badge, ref)
		s.Text(ids.walkText, x+16, ry+row/2+smallSz*0.35, st.txt.FitFirst(w-16, smallSz, txt, short, shortest), smallSz, colour, AlignStart)
		if si >= 0 && si == arrived-1 {
			s.Frame(ids.walkNow, x-2, ry, w+2, row, filledColor, 1)
		}
	}
}
