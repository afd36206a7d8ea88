package render

import "github.com/dmaviz/dmaviz/model/timeline"

// walkView draws the last table walk at the side's time level by level:
// the descriptor's address and value, what it was, a walk-cache hit or a
// memory read, the levels not yet arrived at dimmed.
type walkView struct {
	txt *texts
	d   sideData
}

// walkRow is the least height of a level's row (its text's).
const walkRow = smallSz + 1

// MinSize is the title and four level rows; in less the view draws the
// title only.
func (v *walkView) MinSize() Size { return Size{16, textSz + 8 + 4*walkRow} }

func (v *walkView) TextSizes() TextSizes {
	return TextSizes{Title: textSz, Body: smallSz, Least: smallSz}
}

func (v *walkView) Describe(r Ref) string {
	if r.Kind == RefWalkStep {
		return v.describeStep(int(r.Index))
	}
	return ""
}

func (v *walkView) Build(s *Scene, r Rect) {
	ids := &transSideIDs[v.d.side]
	x, y, w, h := r.X, r.Y, r.W, r.H
	tr := v.d.tl.Translation
	steps, arrived := tr.WalkAt(v.d.t)
	if len(steps) == 0 {
		s.Text(ids.walkLabel, x, y+textSz+2, "table walk: none yet", textSz, Muted, AlignStart)
		return
	}
	s.Text(ids.walkLabel, x, y+textSz+2, v.title(tr, steps, w), textSz, Text, AlignStart)
	row := min((h-textSz-8)/4, textSz+6)
	if row < walkRow {
		return // the levels are in the hover of the TLB entries' walk, and in a taller view
	}
	for l := 0; l < 4; l++ {
		ry := y + textSz + 8 + float32(l)*row
		si := -1
		for i := range steps {
			if steps[i].Level == l {
				si = i
			}
		}
		badge, colour := Surface, Muted
		if si >= 0 && si < arrived {
			badge, colour = walkReadCol, Text
			if steps[si].WalkCache {
				badge = walkHitCol
			}
		}
		ref := Ref{}
		if si >= 0 {
			ref = Ref{Kind: RefWalkStep, Side: v.d.side, Obj: int32(l), Index: int32(si)}
		}
		txt, short, shortest := v.level(steps, arrived, l, si)
		s.Rect(ids.walkBadge, int32(l), x, ry+2, 10, row-4, badge, ref)
		s.Text(ids.walkText, x+16, ry+row/2+smallSz*0.35, v.txt.FitFirst(w-16, smallSz, txt, short, shortest), smallSz, colour, AlignStart)
		if si >= 0 && si == arrived-1 {
			s.Frame(ids.walkNow, x-2, ry, w+2, row, filledColor, 1)
		}
	}
}

// title names the walk: its VA, who walked, and which walk of how many
// is shown, in the longest form that fits w (the shorter forms keep the
// stride: which walk is shown matters more than the wording).
func (v *walkView) title(tr *timeline.Translation, steps []timeline.WalkStep, w float32) string {
	who := "core"
	for _, p := range tr.Pointers {
		if p.Agent == steps[0].Agent {
			who = p.ID
		}
	}
	va, by := v.txt.Hex(steps[0].VA), v.txt.Join(" by ", who, "")
	title := v.txt.Join("Table walk for VA ", va, by)
	short := v.txt.Join("Walk: VA ", va, by)
	shortest := short
	if tr.WalkStride > 1 {
		n := v.txt.Num(float64(tr.WalkStride))
		title = v.txt.Join(title, " · 1 walk in ", n)
		short = v.txt.Join(short, " · 1 in ", n)
		shortest = v.txt.Join(v.txt.Join("Walk: ", va, " · 1 in "), n, "")
	}
	return v.txt.FitFirst(w, textSz, title, short, shortest)
}

// level is what level l's row says (step si of the walk, -1 for none), in
// three forms for a narrow column (an embed): the level, what it holds
// and whether the walk cache answered stay, the addresses go first.
func (v *walkView) level(steps []timeline.WalkStep, arrived, l, si int) (txt, short, shortest string) {
	lvl := v.txt.Join("L", v.txt.Num(float64(l)), "")
	first := steps[0].Level
	switch {
	case si < 0 && l < first:
		txt = v.txt.Join(lvl, " · not read: the walk cache holds the level-", v.txt.Join(v.txt.Num(float64(first)), " table", ""))
		short = v.txt.Join(lvl, " · not read: walk cache has L", v.txt.Num(float64(first)))
	case si < 0 && len(steps) > 0 && arrived == len(steps) && steps[len(steps)-1].Kind == timeline.DescBlock:
		txt = v.txt.Join(lvl, " · not needed: the level above is a block", "")
		short = v.txt.Join(lvl, " · not needed (block above)", "")
	case si < 0:
		txt = v.txt.Join(lvl, " · —", "")
	case si >= arrived:
		txt = v.txt.Join(lvl, " · reading…", "")
	default:
		sp := &steps[si]
		how := " · read from memory"
		if sp.WalkCache {
			how = " · walk-cache hit"
		}
		txt = v.txt.Join(v.txt.Join(lvl, " · ", v.txt.Hex(sp.DescAddr)), v.txt.Join(" = ", v.txt.Hex(sp.Desc), " "),
			v.txt.Join(sp.Kind, how, ""))
		short = v.txt.Join(v.txt.Join(lvl, " = ", v.txt.Hex(sp.Desc)), " ", v.txt.Join(sp.Kind, how, ""))
		shortest = v.txt.Join(lvl, " · ", v.txt.Join(sp.Kind, how, ""))
	}
	if short == "" {
		short = txt
	}
	if shortest == "" {
		shortest = short
	}
	return txt, short, shortest
}
