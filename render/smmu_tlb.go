package render

import "github.com/dmaviz/dmaviz/model/timeline"

// smmuTLBView draws the TBU TLB window: sets as rows, ways as columns,
// each valid entry in its stream's colour, a cached bypass crossed by a
// line. It notes which kinds of entry it drew, for the legend.
type smmuTLBView struct {
	smmuCommon
	// shown[m] is set when an entry of master m (m < 2) was drawn,
	// shown[2] when an empty one was, in the last Build.
	shown [3]bool
}

func (v *smmuTLBView) bind(txt *texts, d sideData) { *v = smmuTLBView{smmuCommon: commonOf(txt, d)} }

// MinSize is the label and a 2 x 1 px cell per entry in one column of
// sets.
func (v *smmuTLBView) MinSize() Size {
	if v.sm.TLB < 0 || v.sm.TLB >= len(v.d.tl.Caches) {
		return Size{}
	}
	spec := &v.d.tl.Caches[v.sm.TLB]
	return Size{2 * float32(spec.Ways), smmuSz + 6 + float32(spec.Sets)}
}

// heightFor is the least height the window shows its entries in w wide
// when the column is short: its sets in as many columns as keep a way
// 6 px wide, 3 px a row.
func (v *smmuTLBView) heightFor(w float32) float32 {
	if v.sm.TLB < 0 || v.sm.TLB >= len(v.d.tl.Caches) {
		return 0
	}
	spec := &v.d.tl.Caches[v.sm.TLB]
	cols := 1
	for cols < spec.Sets && (w-float32(cols)*tlbGap)/float32((cols+1)*max(spec.Ways, 1)) >= 6 {
		cols++
	}
	return smmuSz + 6 + float32((spec.Sets+cols-1)/cols)*3
}

// legibleH is the least height the window's cells are legible in (rows
// of 9 px or more, room to see a cross): its label and 36 px, or a row of
// 18 px a set when there are fewer than two.
func (v *smmuTLBView) legibleH() float32 {
	if v.sm.TLB < 0 || v.sm.TLB >= len(v.d.tl.Caches) {
		return 0
	}
	return smmuSz + 6 + min(float32(v.d.tl.Caches[v.sm.TLB].Sets)*18, 36)
}

func (v *smmuTLBView) Build(s *Scene, r Rect) {
	ids := &smmuSideIDs[v.d.side]
	tl, state, sm := v.d.tl, v.d.state, v.sm
	x, y, w, h := r.X, r.Y, r.W, r.H
	v.shown = [3]bool{}
	if sm.TLB < 0 || sm.TLB >= len(tl.Caches) || sm.TLB >= len(state.Caches) {
		return
	}
	spec := &tl.Caches[sm.TLB]
	lines := state.Caches[sm.TLB]
	s.Text(ids.tlbLabel, x, y+smmuSz, v.label(spec, lines, w), smmuSz, Muted, AlignStart)
	top := y + smmuSz + 6
	if spec.Sets <= 0 || spec.Ways <= 0 {
		return
	}
	lay := tlbLayout(spec.Sets, spec.Ways, w, y+h-top)
	if lay.cw < 2 || lay.rh < 1 {
		return
	}
	inset := float32(0)
	if lay.rh >= 4 && lay.cw >= 4 {
		inset = 0.5
	}
	for i, l := range lines {
		set, way := i/spec.Ways, i%spec.Ways
		if set >= spec.Sets {
			break
		}
		fill := Surface
		if !l.Valid {
			v.shown[2] = true
		} else {
			m := masterOfWriter(sm, l.Writer)
			fill = StreamColor(m)
			if m >= 0 && m < 2 {
				v.shown[m] = true
			}
		}
		lx := x + float32(set/lay.rows)*(float32(spec.Ways)*lay.cw+tlbGap) + float32(way)*lay.cw
		ly := top + float32(set%lay.rows)*lay.rh
		s.Rect(ids.tlb, int32(i), lx+inset, ly+inset, lay.cw-2*inset, lay.rh-2*inset, fill, Ref{Kind: RefSMMU, Side: v.d.side, Obj: smmuTLB, Index: int32(i)})
		if l.Valid && l.Dirty { // a cached bypass: crossed, so it does not rely on colour
			s.Line(ids.tlbCross, lx+inset, ly+lay.rh-inset, lx+lay.cw-inset, ly+inset, Background, 1.5)
		}
	}
}

// label names the window, its shape and how many entries are valid, in
// the longer form when it fits w.
func (v *smmuTLBView) label(spec *timeline.CacheSpec, lines []timeline.CacheLine, w float32) string {
	txt := v.txt
	valid := 0
	for _, l := range lines {
		if l.Valid {
			valid++
		}
	}
	nvalid := txt.Join(" · ", txt.Num(float64(valid)), " valid")
	label := txt.Join(txt.Join(spec.Label, " sets 0..", txt.Num(float64(spec.Sets-1))),
		txt.Join(" of ", txt.Num(float64(spec.TotalSets)), txt.Join(" × ", txt.Num(float64(spec.Ways)), " ways")), nvalid)
	short := txt.Join(txt.Join(spec.Label, " ", txt.Num(float64(spec.Sets))),
		txt.Join("/", txt.Num(float64(spec.TotalSets)), txt.Join(" sets × ", txt.Num(float64(spec.Ways)), "")), nvalid)
	return smmuPick(txt, w, label, short)
}

// tlbGap separates columns of sets in the TLB window.
const tlbGap = 6

// tlbLay places a TLB window's sets in columns of rows sets each (set s in
// column s/rows, row s%rows), cells cw x rh.
type tlbLay struct {
	rows   int
	cw, rh float32
}

// tlbLayout picks the number of set columns that makes the cells closest
// to 3:1 (wide enough to see, tall enough to see a cross) in w x h.
func tlbLayout(sets, ways int, w, h float32) tlbLay {
	best, score := tlbLay{}, float32(-1)
	for cols := 1; cols <= sets; cols++ {
		rows := (sets + cols - 1) / cols
		cw := (w - float32(cols-1)*tlbGap) / float32(cols*ways)
		rh := min(h/float32(rows), 18)
		if cw < 2 {
			break
		}
		if sc := min(cw/3, rh); sc > score {
			best, score = tlbLay{rows: rows, cw: cw, rh: rh}, sc
		}
	}
	return best
}

func masterOfWriter(sm *timeline.SMMUSpec, w uint8) int {
	for m := range sm.Masters {
		if sm.Masters[m].Writer == w {
			return m
		}
	}
	return -1
}

// smmuLegendView lists the TLB entry kinds drawn on either side (empty
// entries, each master's) and what a lit path means.
type smmuLegendView struct {
	smmuCommon
	shown [3]bool
}

func (v *smmuLegendView) bind(txt *texts, sm *timeline.SMMUSpec, shown [3]bool) {
	*v = smmuLegendView{smmuCommon: smmuCommon{txt: txt, sm: sm}, shown: shown}
}

func (v *smmuLegendView) MinSize() Size { return Size{0, smmuRow} }

func (v *smmuLegendView) Build(s *Scene, r Rect) {
	sm, x, y, w := v.sm, r.X, r.Y, r.W
	lx := x
	if v.shown[2] {
		s.Rect("legend/swatch", 2, lx, y+3, 14, 14, Surface, Ref{})
		s.Text("legend/label", lx+18, y+15, "empty TLB entry", smmuSz, Text, AlignStart)
		lx += 18 + textWidth("empty TLB entry", smmuSz) + 16
	}
	for m := range sm.Masters {
		if m >= 2 || !v.shown[m] {
			continue
		}
		kind := "translation"
		if sm.Masters[m].Route != "translate" {
			kind = "cached bypass (crossed)"
		}
		name := v.txt.Join(sm.Masters[m].Name, " entry: ", kind)
		if lx+18+textWidth(name, smmuSz) > x+w {
			return
		}
		s.Rect("legend/swatch", int32(m), lx, y+3, 14, 14, StreamColor(m), Ref{Kind: RefSMMU, Obj: smmuKey, Index: int32(m)})
		if kind != "translation" {
			s.Line("legend/swatch-cross", lx, y+17, lx+14, y+3, Background, 1.5)
		}
		s.Text("legend/label", lx+18, y+15, name, smmuSz, Text, AlignStart)
		lx += 18 + textWidth(name, smmuSz) + 16
	}
	for _, path := range []string{"lit box: the path of each master's transaction at the cursor", "lit: each master's path at the cursor"} {
		if lx+textWidth(path, smmuSz) <= x+w {
			s.Text("legend/label", lx, y+15, path, smmuSz, Muted, AlignStart)
			return
		}
	}
}
