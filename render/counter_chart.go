package render

import (
	"sort"

	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// counterChartNames are the PMU counters the counter chart draws, one strip
// each, when a run samples them (Timeline.Counters): the translation
// scenarios' l2d_tlb_refill, l1d_tlb_refill and dtlb_walk.
var counterChartNames = [...]string{"l2d_tlb_refill", "l1d_tlb_refill", "dtlb_walk"}

// counterTrack returns side sd's track of the counter named name, or nil.
func counterTrack(sd *Side, name string) *timeline.CounterTrack {
	if sd.Result == nil || sd.Result.Timeline == nil {
		return nil
	}
	for i := range sd.Result.Timeline.Counters {
		if c := &sd.Result.Timeline.Counters[i]; c.Name == name && len(c.T) > 0 {
			return c
		}
	}
	return nil
}

// hasCounterChart reports whether the frame has PMU counter tracks to
// chart (translation scenarios that sample them).
func hasCounterChart(f *Frame) bool {
	return translationOnly(f) && (counterTrack(&f.A, counterChartNames[0]) != nil || counterTrack(&f.B, counterChartNames[0]) != nil)
}

// countAt is the track's value at t: its last sample at or before t.
func countAt(c *timeline.CounterTrack, t sim.Time) float64 {
	i := sort.Search(len(c.T), func(i int) bool { return c.T[i] > t })
	if i == 0 {
		return 0
	}
	return c.V[i-1]
}

// counterChartView draws the PMU counters over the run: one strip per
// counter, A and B cumulative on the player's one time axis (A's line
// wide, B's thin on top, in the sides' colours), each strip scaled to the
// larger final count, the values at the cursor beside the counter's name,
// and the cursor across every strip. Masked (a lesson's question before
// its reveal), each line ends at its side's cursor, the strip is scaled to
// the larger count so far, and the counts read "?" as the stage's counters
// do: the final counts are the answer.
type counterChartView struct {
	txt *texts
	pairData
	masked bool
}

func (v *counterChartView) bind(txt *texts, f *Frame) {
	*v = counterChartView{txt: txt, pairData: pairOf(f), masked: f.Masked}
}

// Counter chart sizes: the strips' plots are at least countChartPlotH
// high and countChartPlotW wide.
const (
	countChartPlotH = 8
	countChartPlotW = 60
	countChartLeft  = 4
)

// countChartLabelH is the height of a strip's name row.
const countChartLabelH = float32(smallSz + 4)

// MinSize is the title, each strip's name and smallest plot, and the axis.
func (v *counterChartView) MinSize() Size {
	strip := countChartLabelH + 6 + countChartPlotH
	return Size{countChartPlotW + countChartLeft + 2, textSz + 8 + float32(len(counterChartNames))*strip + smallSz + 8}
}

func (v *counterChartView) TextSizes() TextSizes {
	return TextSizes{Title: textSz, Body: smallSz, Least: smallSz}
}

func (v *counterChartView) Describe(r Ref) string { return explain(r) }

// stripLayout places the chart's strips: the first n counters'.
type stripLayout struct {
	top, stripH, ph, ax, aw float32
	n                       int
}

func (v *counterChartView) Build(s *Scene, r Rect) {
	x, y, w, h := r.X, r.Y, r.W, r.H
	title := "PMU counters over the run"
	if room := w - sideKeysWidth([2]string{"A", "B"}) - 8; textWidth(title, textSz) > room {
		title = v.txt.Fit("PMU counters", room, textSz)
	}
	s.TextRef("countchart/title", x, y+textSz, title, textSz, Muted, AlignStart, Ref{Kind: RefExplain, Index: explainCounterChart})
	sideKeys(s, "countchart/key", [2]string{"A", "B"}, x+w, y)
	if v.length <= 0 {
		return
	}
	axisH := float32(smallSz + 8)
	top := y + textSz + 8
	// As many strips as keep their least plot, in the list's order (the
	// first, l2d_tlb_refill, is the one perf users read): a short row (a
	// lesson embed's) keeps one or two rather than none.
	room := y + h - axisH - top
	n := min(len(counterChartNames), int(room/(countChartLabelH+6+countChartPlotH)))
	if n < 1 || w-countChartLeft-2 < countChartPlotW {
		return
	}
	stripH := room / float32(n)
	l := stripLayout{top: top, stripH: stripH, ph: stripH - countChartLabelH - 6, ax: x + countChartLeft, aw: w - countChartLeft - 2, n: n}
	for ci, name := range counterChartNames[:n] {
		v.strip(s, ci, name, &l, x, w)
	}
	v.cursorAndAxis(s, &l)
}

func (v *counterChartView) xOf(l *stripLayout, t sim.Time) float32 {
	return l.ax + l.aw*float32(min(float64(t)/float64(v.length), 1))
}

// strip draws counter ci's strip: its name and counts at the cursor, its
// plot, and each side's line.
func (v *counterChartView) strip(s *Scene, ci int, name string, l *stripLayout, x, w float32) {
	sy := l.top + float32(ci)*l.stripH
	py := sy + countChartLabelH
	var tracks [2]*timeline.CounterTrack
	var scale [2]float64
	ymax := 0.0
	for side, sd := range v.sides {
		tracks[side] = counterTrack(sd, name)
		scale[side] = 1
		if c := tracks[side]; c != nil {
			if v.masked {
				ymax = max(ymax, countAt(c, sd.Time))
			} else {
				ymax = max(ymax, c.V[len(c.V)-1])
			}
			if v.progress && sd.Result.Timeline.End > 0 {
				scale[side] = float64(v.length) / float64(sd.Result.Timeline.End)
			}
		}
	}
	// The name, then each side's count at the cursor, right-aligned.
	vals := ""
	for side, sd := range v.sides {
		val := "–"
		if c := tracks[side]; c != nil {
			val = v.txt.Short(countAt(c, sd.Time))
			if v.masked {
				val = "?"
			}
		}
		if side == 1 {
			vals = v.txt.Join(vals, "   B ", val)
		} else {
			vals = v.txt.Join("A ", val, "")
		}
	}
	vw := textWidth(vals, smallSz)
	ref := Ref{Kind: RefExplain, Index: explainCounterChart, Obj: int32(ci + 1)}
	s.TextRef("countchart/name", x, sy+smallSz, v.txt.Fit(name, w-vw-10, smallSz), smallSz, Text, AlignStart, ref)
	s.Text("countchart/values", x+w, sy+smallSz, vals, smallSz, Text, AlignEnd)
	s.Rect("countchart/plot", int32(ci), l.ax, py, l.aw, l.ph, Surface, ref)
	if ymax <= 0 {
		return
	}
	fy := func(val float64) float32 { return py + l.ph - l.ph*float32(val/ymax) }
	for side, c := range tracks {
		if c == nil {
			continue
		}
		width := float32(2)
		if side == 0 { // under B, wider, so A shows where the two coincide
			width = 4
		}
		// One segment per 2 px at most: thousands of samples cost a few
		// hundred items.
		n := len(c.T)
		if v.masked { // only what has happened by the cursor
			n = sort.Search(n, func(i int) bool { return c.T[i] > v.sides[side].Time })
		}
		px0, py0 := v.xOf(l, 0), fy(0)
		for i := range n {
			px1, py1 := v.xOf(l, sim.Time(float64(c.T[i])*scale[side])), fy(c.V[i])
			if px1-px0 < 2 && i < n-1 {
				continue
			}
			s.Add(Item{Kind: KindLine, ID: "countchart/line", Index: int32((ci*2+side)*100000 + i), X: px0, Y: py0, X2: px1, Y2: py1,
				Fill: None, Stroke: SideColor(side), StrokeWidth: width, Ref: ref})
			px0, py0 = px1, py1
		}
	}
}

// cursorAndAxis draws the cursor across each strip's plot, not its name's
// row (at the start of the run it would strike out the names' first
// letters), and the time axis under the strips.
func (v *counterChartView) cursorAndAxis(s *Scene, l *stripLayout) {
	bottom := l.top + float32(l.n)*l.stripH - 6
	cx := v.xOf(l, v.cursor)
	for ci := range l.n {
		py := l.top + float32(ci)*l.stripH + countChartLabelH
		s.Line("countchart/cursor-edge", cx, py-2, cx, py+l.ph+2, Background, 4)
		s.Line("countchart/cursor", cx, py-2, cx, py+l.ph+2, Cursor, 2)
	}
	ax, aw := l.ax, l.aw
	s.Text("countchart/axis-label", ax, bottom+4+smallSz, "0", smallSz, Muted, AlignStart)
	endLabel := v.txt.Time(v.length)
	if v.progress {
		endLabel = "100%"
	}
	s.Text("countchart/axis-label", ax+aw, bottom+4+smallSz, endLabel, smallSz, Muted, AlignEnd)
	// The axis' name between the two ends, as long as fits.
	room := aw - 2*textWidth(endLabel, smallSz) - 24
	for _, name := range [...]string{"time (the last simulated session)", "time (last session)", "time"} {
		if textWidth(name, smallSz) <= room {
			s.Text("countchart/axis-label", ax+aw/2, bottom+4+smallSz, name, smallSz, Muted, AlignMiddle)
			break
		}
	}
}
