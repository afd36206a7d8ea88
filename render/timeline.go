package render

import (
	"fmt"
	"unicode/utf8"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// laneCache remembers, per pair of results, the lanes of each side, the
// phase meanings, the cell states in order of first appearance (A then
// B) and the translation legend's entries, so legends list only what the
// runs show and frames do not recompute them (the translation entries
// scan every mapping and TLB event: tens of milliseconds a frame in
// WebAssembly on a 1 GiB AUX buffer's record).
type laneCache struct {
	res         [2]*scenario.Result
	lanes       [2][]string
	meanings    []PhaseMeaning
	states      []timeline.CellState
	translation [numTLLegend]bool
}

func (lc *laneCache) update(a, b *scenario.Result) {
	if lc.res[0] == a && lc.res[1] == b && (a != nil || b != nil) {
		return
	}
	lc.res = [2]*scenario.Result{a, b}
	lc.translation = translationShown(a, b)
	lc.meanings = lc.meanings[:0]
	var seen [timeline.NumCellStates]bool
	for side, r := range lc.res {
		lc.lanes[side] = lc.lanes[side][:0]
		if r == nil || r.Timeline == nil {
			continue
		}
		for _, p := range r.Timeline.Phases {
			lc.lanes[side] = appendNew(lc.lanes[side], p.Lane)
			if m := MeaningOf(p.Kind); !hasMeaning(lc.meanings, m) {
				lc.meanings = append(lc.meanings, m)
			}
		}
		markStates(r.Timeline, &seen)
	}
	lc.states = lc.states[:0]
	for c := timeline.CellState(1); c < timeline.NumCellStates; c++ {
		if seen[c] {
			lc.states = append(lc.states, c)
		}
	}
}

func hasMeaning(list []PhaseMeaning, m PhaseMeaning) bool {
	for _, o := range list {
		if o == m {
			return true
		}
	}
	return false
}

// markStates records every cell state a timeline's grids take: in its
// first keyframe or set by an event.
func markStates(tl *timeline.Timeline, seen *[timeline.NumCellStates]bool) {
	if len(tl.Keyframes) > 0 {
		for _, g := range tl.Keyframes[0].State.Cells {
			for _, c := range g {
				if c.State < timeline.NumCellStates {
					seen[c.State] = true
				}
			}
		}
	}
	for _, e := range tl.Events {
		if e.Kind == timeline.EvCells {
			if c := timeline.CellState(e.C & 0xff); c < timeline.NumCellStates {
				seen[c] = true
			}
		}
	}
}

func appendNew(list []string, s string) []string {
	for _, o := range list {
		if o == s {
			return list
		}
	}
	return append(list, s)
}

func index(list []string, s string) int {
	for i, o := range list {
		if o == s {
			return i
		}
	}
	return -1
}

// timelineView draws both sides' phases on one axis: a row per lane,
// elapsed parts filled and the rest outlined, the cursor as a vertical
// line, and a legend of phase kinds. Masked (a lesson's question before
// its reveal), it draws only what has elapsed: the bars still to come
// would show which side finishes first.
type timelineView struct {
	txt *texts
	pairData
	lanes    [2][]string
	meanings []PhaseMeaning
	masked   bool
}

func (v *timelineView) bind(txt *texts, f *Frame, lc *laneCache) {
	*v = timelineView{txt: txt, pairData: pairOf(f), lanes: lc.lanes, meanings: lc.meanings, masked: f.Masked}
}

// timelineLabelW is the width of the lanes' names left of the axis.
func timelineLabelW() float32 { return float32(textWidth("B device", smallSz) + 8) }

// MinSize is the title, 4 px a lane, the axis and a legend row (its rows
// at the minimum width), with an axis 20 px long.
func (v *timelineView) MinSize() Size {
	w := timelineLabelW() + 8 + 20
	rows := len(v.lanes[0]) + len(v.lanes[1])
	return Size{w, (textSz + 8) + (smallSz + 10) + float32(legendRowCount(v.meanings, 0, w))*(smallSz+6) + 4*float32(rows)}
}

func (v *timelineView) TextSizes() TextSizes {
	return TextSizes{Title: textSz, Body: smallSz, Least: smallSz}
}

func (v *timelineView) Describe(r Ref) string {
	switch r.Kind {
	case RefLegend:
		if int(r.Index) < len(v.meanings) {
			m := v.meanings[r.Index]
			return "timeline colour: " + m.Label + " · " + m.Help
		}
	case RefPhase:
		sd := v.sides[min(r.Side, 1)]
		if sd.Result == nil || sd.Result.Timeline == nil || int(r.Index) >= len(sd.Result.Timeline.Phases) {
			return ""
		}
		p := &sd.Result.Timeline.Phases[r.Index]
		return fmt.Sprintf("%s %s · %s (%s: %s) · %v..%v (%v)", sideNames[min(r.Side, 1)], p.Lane, p.Label, p.Kind, MeaningOf(p.Kind).Label, p.Start, p.End, p.End-p.Start)
	}
	return ""
}

// timelineAxis maps times to the axis and places the lanes' rows.
type timelineAxis struct {
	ax, aw, top, rowH float32
	length            sim.Time
}

func (a *timelineAxis) x(t sim.Time) float32 {
	return a.ax + a.aw*float32(float64(t)/float64(a.length))
}

func (v *timelineView) Build(s *Scene, r Rect) {
	x, y, w, h := r.X, r.Y, r.W, r.H
	rows := len(v.lanes[0]) + len(v.lanes[1])
	s.Text("timeline/title", x, y+textSz, "where the time went", textSz, Muted, AlignStart)
	if rows == 0 || v.length <= 0 {
		return
	}
	labelW := timelineLabelW()
	ax, aw := x+labelW, w-labelW-8
	top := y + textSz + 8
	// The legend starts under the axis, or under the lanes' names when
	// that saves a row (a narrow stage).
	legendX := ax
	legendRows := legendRowCount(v.meanings, ax, x+w)
	if n := legendRowCount(v.meanings, x, x+w); n < legendRows {
		legendX, legendRows = x, n
	}
	rowH := min((h-(textSz+8)-(smallSz+10)-float32(legendRows)*(smallSz+6))/float32(rows), 22)
	if rowH < 4 || aw < 20 {
		return
	}
	a := timelineAxis{ax: ax, aw: aw, top: top, rowH: rowH, length: v.length}
	row := 0
	for side := 0; side < 2; side++ {
		lanes := v.lanes[side]
		for li, lane := range lanes {
			ry := top + float32(row+li)*rowH
			if rowH >= smallSz+1 {
				s.Text("timeline/lane", x, ry+rowH*0.75, v.txt.Join(sideNames[side], " ", lane), smallSz, Text, AlignStart)
			}
			s.Rect("timeline/track", int32(row+li), ax, ry+1, aw, rowH-2, Surface, Ref{})
		}
		if groupH := float32(len(lanes)) * rowH; rowH < smallSz+1 && groupH >= smallSz+1 {
			// Rows too short for their names: the side's letter names its
			// lanes together (a bar's hover names its lane).
			s.Text("timeline/lane", x, top+float32(row)*rowH+groupH/2+smallSz*0.35, sideNames[side], smallSz, Text, AlignStart)
		}
		v.phases(s, side, row, &a)
		row += len(lanes)
	}
	bottom := top + float32(rows)*rowH
	v.axis(s, &a, bottom)
	v.legend(s, legendX, bottom+4+smallSz+6, x+w)
}

// phases draws side's phases on its lanes, which start at row.
func (v *timelineView) phases(s *Scene, side, row int, a *timelineAxis) {
	sd := v.sides[side]
	r := sd.Result
	if r == nil || r.Timeline == nil {
		return
	}
	scale := 1.0
	if v.progress && r.Timeline.End > 0 {
		scale = float64(v.length) / float64(r.Timeline.End)
	}
	common := func(t sim.Time) sim.Time { return sim.Time(float64(t) * scale) }
	rowH := a.rowH
	// Phases narrower than a pixel share it: the first one in a pixel
	// column of a lane is drawn and the rest skipped, so thousands of
	// per-entry phases cost one item per pixel (an exported figure of
	// sg-sync stays small).
	var pixel, elapsedPixel [maxLanes]int
	for i := range pixel {
		pixel[i], elapsedPixel[i] = -1, -1
	}
	for pi, p := range r.Timeline.Phases {
		if v.masked && p.Start >= sd.Time {
			continue
		}
		li := index(v.lanes[side], p.Lane)
		ry := a.top + float32(row+li)*rowH
		c := PhaseColor(p.Kind)
		x0, x1 := a.x(common(p.Start)), a.x(common(p.End))
		if v.masked {
			x1 = a.x(common(min(p.End, sd.Time)))
		}
		ref := Ref{Kind: RefPhase, Side: uint8(side), Index: int32(pi)}
		thin, px := x1-x0 < 1 && li < maxLanes, int(x0)
		if !thin || pixel[li] != px {
			// Filled with the track's colour, so that the whole bar, not
			// only its outline, answers the pointer.
			s.Add(Item{Kind: KindRect, ID: "timeline/phase", Index: int32(pi), X: x0, Y: ry + 2, W: max(x1-x0, 1), H: rowH - 4,
				Fill: Surface, Stroke: c, StrokeWidth: 1, Ref: ref})
			if thin {
				pixel[li] = px
			}
		}
		if sd.Time > p.Start && (!thin || elapsedPixel[li] != px) {
			xe := a.x(common(min(sd.Time, p.End)))
			s.Rect("timeline/elapsed", int32(pi), x0, ry+2, max(xe-x0, 1), rowH-4, c, ref)
			if thin {
				elapsedPixel[li] = px
			}
		}
		if namedOnBar(p.Kind) && x1-x0 > textWidth(p.Kind, smallSz)+6 && rowH >= smallSz+2 {
			s.Text("timeline/phase-name", x0+3, ry+rowH/2+smallSz*0.35, p.Kind, smallSz, Text, AlignStart)
		}
	}
}

// axis draws the cursor across the lanes, which end at bottom, and the
// axis under them.
func (v *timelineView) axis(s *Scene, a *timelineAxis, bottom float32) {
	cx := a.x(v.cursor)
	// Outlined, so it shows over a bar of any colour.
	s.Line("timeline/cursor-edge", cx, a.top-4, cx, bottom+4, Background, 4)
	s.Line("timeline/cursor", cx, a.top-4, cx, bottom+4, Cursor, 2)
	s.Line("timeline/axis", a.ax, bottom+4, a.ax+a.aw, bottom+4, Muted, 1)
	s.Text("timeline/axis-label", a.ax, bottom+4+smallSz+2, "0", smallSz, Muted, AlignStart)
	endLabel := v.txt.Time(v.length)
	if v.progress {
		endLabel = "100%"
	}
	s.Text("timeline/axis-label", a.ax+a.aw, bottom+4+smallSz+2, endLabel, smallSz, Muted, AlignEnd)
}

// legend names the phase kinds from (legendX, ly), wrapping at right.
func (v *timelineView) legend(s *Scene, legendX, ly, right float32) {
	lx := legendX
	for i, m := range v.meanings {
		// Wrap onto a second row rather than run into the counters.
		if ew := 14 + textWidth(m.Label, smallSz); lx > legendX && lx+ew > right {
			lx, ly = legendX, ly+smallSz+6
		}
		s.Rect("timeline/legend", int32(i), lx, ly+1, 11, 11, m.Color, Ref{Kind: RefLegend, Index: int32(i), Obj: 1})
		s.TextRef("timeline/legend-label", lx+14, ly+11, m.Label, smallSz, Text, AlignStart, Ref{Kind: RefLegend, Index: int32(i), Obj: 1})
		lx += 14 + textWidth(m.Label, smallSz) + 12
	}
}

// maxLanes bounds the lanes per side whose sub-pixel phases are merged.
const maxLanes = 16

// legendRowCount is how many rows the phase legend takes from x0 to x1.
func legendRowCount(ms []PhaseMeaning, x0, x1 float32) int {
	rows, lx := 1, x0
	for _, m := range ms {
		ew := 14 + textWidth(m.Label, smallSz)
		if lx > x0 && lx+ew > x1 {
			rows, lx = rows+1, x0
		}
		lx += ew + 12
	}
	return rows
}

// textWidth estimates a run's width (the painter and SVG use a sans-serif
// font about 0.6 em wide on average).
func textWidth(s string, size float32) float32 {
	return float32(utf8.RuneCountInString(s)) * size * 0.6
}
