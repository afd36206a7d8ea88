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

// counterChart draws the PMU counters over the run: one strip per counter,
// A and B cumulative on the player's one time axis (A's line wide, B's
// thin on top, in the sides' colours), each strip scaled to the larger
// final count, the values at the cursor beside the counter's name, and
// the cursor across every strip.
func (st *Stage) counterChart(s *Scene, f *Frame, x, y, w, h float32) {
	title := "PMU counters over the run"
	if room := w - sideKeysWidth([2]string{"A", "B"}) - 8; textWidth(title, textSz) > room {
		title = st.txt.Fit("PMU counters", room, textSz)
	}
	s.TextRef("countchart/title", x, y+textSz, title, textSz, Muted, AlignStart, Ref{Kind: RefExplain, Index: explainCounterChart})
	sideKeys(s, "countchart/key", [2]string{"A", "B"}, x+w, y)
	if f.Length <= 0 {
		return
	}
	const left = 4
	axisH := float32(smallSz + 8)
	top := y + textSz + 8
	stripH := (y + h - axisH - top) / float32(len(counterChartNames))
	labelH := float32(smallSz + 4)
	ph := stripH - labelH - 6
	ax, aw := x+left, w-left-2
	if ph < 8 || aw < 60 {
		return
	}
	xOf := func(t sim.Time) float32 { return ax + aw*float32(min(float64(t)/float64(f.Length), 1)) }
	for ci, name := range counterChartNames {
		sy := top + float32(ci)*stripH
		py := sy + labelH
		var tracks [2]*timeline.CounterTrack
		var scale [2]float64
		ymax := 0.0
		for side, sd := range [2]*Side{&f.A, &f.B} {
			tracks[side] = counterTrack(sd, name)
			scale[side] = 1
			if c := tracks[side]; c != nil {
				ymax = max(ymax, c.V[len(c.V)-1])
				if f.Progress && sd.Result.Timeline.End > 0 {
					scale[side] = float64(f.Length) / float64(sd.Result.Timeline.End)
				}
			}
		}
		// The name, then each side's count at the cursor, right-aligned.
		vals := ""
		for side, sd := range [2]*Side{&f.A, &f.B} {
			v := "–"
			if c := tracks[side]; c != nil {
				v = st.txt.Short(countAt(c, sd.Time))
			}
			if side == 1 {
				vals = st.txt.Join(vals, "   B ", v)
			} else {
				vals = st.txt.Join("A ", v, "")
			}
		}
		vw := textWidth(vals, smallSz)
		ref := Ref{Kind: RefExplain, Index: explainCounterChart, Obj: int32(ci + 1)}
		s.TextRef("countchart/name", x, sy+smallSz, st.txt.Fit(name, w-vw-10, smallSz), smallSz, Text, AlignStart, ref)
		s.Text("countchart/values", x+w, sy+smallSz, vals, smallSz, Text, AlignEnd)
		s.Rect("countchart/plot", int32(ci), ax, py, aw, ph, Surface, ref)
		if ymax <= 0 {
			continue
		}
		fy := func(v float64) float32 { return py + ph - ph*float32(v/ymax) }
		for side := range tracks {
			c := tracks[side]
			if c == nil {
				continue
			}
			width := float32(2)
			if side == 0 { // under B, wider, so A shows where the two coincide
				width = 4
			}
			// One segment per 2 px at most: thousands of samples cost a few
			// hundred items.
			px0, py0 := xOf(0), fy(0)
			for i := range c.T {
				px1, py1 := xOf(sim.Time(float64(c.T[i])*scale[side])), fy(c.V[i])
				if px1-px0 < 2 && i < len(c.T)-1 {
					continue
				}
				s.Add(Item{Kind: KindLine, ID: "countchart/line", Index: int32((ci*2+side)*100000 + i), X: px0, Y: py0, X2: px1, Y2: py1,
					Fill: None, Stroke: SideColor(side), StrokeWidth: width, Ref: ref})
				px0, py0 = px1, py1
			}
		}
	}
	bottom := top + float32(len(counterChartNames))*stripH - 6
	// The cursor across each strip's plot, not its name's row: at the
	// start of the run it would strike out the names' first letters.
	cx := xOf(f.Cursor)
	for ci := range counterChartNames {
		py := top + float32(ci)*stripH + labelH
		s.Line("countchart/cursor-edge", cx, py-2, cx, py+ph+2, Background, 4)
		s.Line("countchart/cursor", cx, py-2, cx, py+ph+2, Cursor, 2)
	}
	s.Text("countchart/axis-label", ax, bottom+4+smallSz, "0", smallSz, Muted, AlignStart)
	endLabel := st.txt.Time(f.Length)
	if f.Progress {
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
