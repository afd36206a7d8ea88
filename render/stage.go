package render

import (
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// Side is one run as the stage shows it.
type Side struct {
	Result *scenario.Result
	State  *timeline.State // state at the cursor; nil draws the initial state
	Time   sim.Time        // this side's simulated time at the cursor
	// PolicyTitle labels the side, e.g. "cacheable + sync"; "" uses the id.
	PolicyTitle string
}

// Zoom is a window onto every grid: cells [First, First+Count). Count 0
// shows the whole grid.
type Zoom struct{ First, Count int }

// Clamp fits z to a grid of n cells.
func (z Zoom) Clamp(n int) Zoom {
	if z.Count <= 0 || z.Count >= n {
		return Zoom{0, n}
	}
	z.First = min(max(z.First, 0), n-z.Count)
	return z
}

// In zooms in by factor around cell c (kept at the same place on screen)
// of a grid of n cells, down to one cell.
func (z Zoom) In(c, n int, factor float64) Zoom {
	z = z.Clamp(n)
	if factor <= 1 {
		return z
	}
	c = min(max(c, z.First), z.First+z.Count-1)
	count := max(int(float64(z.Count)/factor), 1)
	rel := float64(c-z.First) / float64(max(z.Count, 1))
	return Zoom{First: c - int(rel*float64(count)), Count: count}.Clamp(n)
}

// Out zooms out by factor around cell c, up to the whole grid.
func (z Zoom) Out(c, n int, factor float64) Zoom {
	z = z.Clamp(n)
	if factor <= 1 {
		return z
	}
	count := int(float64(z.Count)*factor + 0.5)
	if count >= n {
		return Zoom{0, n}
	}
	rel := float64(c-z.First) / float64(max(z.Count, 1))
	return Zoom{First: c - int(rel*float64(count)), Count: count}.Clamp(n)
}

// Frame is everything one stage frame depends on.
type Frame struct {
	A, B Side
	// Cursor is the position on the player's common axis [0, Length].
	Cursor, Length sim.Time
	// Progress is set when the player aligns on progress: each side's
	// timeline is stretched over the whole axis.
	Progress bool
	// Left is where the stage starts: the panel covers [0, Left).
	Left float32
	// W, H are the window size.
	W, H float32
	Zoom Zoom
	// Message, when set, says why there is nothing to show (the latest run
	// failed); the stage shows it in place of the runs.
	Message string
	// Top and Bottom are edges an overlay covers (the presentation bar,
	// the embed bar); the stage keeps its content clear of them.
	Top, Bottom float32
	// Narrate shows each side's narration step large in its column
	// (presentation mode, where the panel is hidden).
	Narrate bool
	// MinCell, when above the stage's 3 px, is the smallest square a grid
	// draws: a figure for a document aggregates more cells per square, so
	// its file stays small.
	MinCell float32
}

// Layout constants, in CSS pixels.
const (
	pad      = 12
	gap      = 16
	titleSz  = 17
	textSz   = 14
	smallSz  = 14
	minCell  = 3
	legendH  = 24
	headerH  = 44
	gaugeRow = 20
)

// Stage builds the whole stage from a Frame: both sides laid out from their
// timelines' specs (grids, rings for grids with pointers, cache windows,
// gauges), then the shared timeline bars, counter bars and legend. A new
// scenario needs no code here. A Stage keeps only memoised strings and the
// last frame (for Describe); reuse one per canvas.
type Stage struct {
	txt   texts
	frame Frame
	lanes laneCache
	rows  []counterRow

	wrap [2]wrapMemo
	// Translation views' scratch (pagemap.go, tlbview.go).
	pmBins   [][4]float64
	pmCache  [2]pmSorted
	tlbState [2]timeline.TLBState
}

// NewStage returns an empty stage builder.
func NewStage() *Stage { return &Stage{} }

// Build resets s and lays out f into it.
func (st *Stage) Build(s *Scene, f *Frame) {
	st.frame = *f
	s.Reset(f.W, f.H)
	s.Describer = st
	x0, x1 := f.Left+pad, f.W-pad
	y0, y1 := pad+f.Top, f.H-pad-f.Bottom
	if x1-x0 < 160 || y1-y0 < 160 {
		s.Text("stage/small", x0, y0+textSz, "window too small", textSz, Muted, AlignStart)
		return
	}
	if f.Message != "" {
		st.message(s, f.Message, x0, y0, x1-x0)
		return
	}
	if smmuOf(f) != nil {
		st.smmuStage(s, f, x0, y0, x1, y1)
		return
	}
	bottomH := min(max((y1-y0)*0.3, 110), 260)
	st.lanes.update(f.A.Result, f.B.Result)
	legendRows := 1
	if !translationOnly(f) {
		legendRows = cellLegendRows(st.lanes.states, x1-x0)
	}
	// A second or third row is taken only from columns that keep room.
	for legendRows > 1 && y1-bottomH-legendH*float32(legendRows)-gap-y0 < 160 {
		legendRows--
	}
	legendTall := legendH * float32(legendRows)
	colTop, colBottom := y0, y1-bottomH-legendTall-gap
	colW := (x1 - x0 - gap) / 2
	st.side(s, 0, &f.A, x0, colTop, colW, colBottom-colTop)
	st.side(s, 1, &f.B, x0+colW+gap, colTop, colW, colBottom-colTop)
	if translationOnly(f) {
		translationLegend(s, st.lanes.translation, x0, colBottom+gap/2, x1-x0)
	} else {
		cellLegend(s, st.lanes.states, x0, colBottom+gap/2, x1-x0, legendRows)
	}
	by := colBottom + gap/2 + legendTall
	tw := (x1 - x0) * 0.58
	chart := hasCounterChart(f)
	// A narrow stage gives the counters up to 60 % of the row, so that
	// their names (pmu events, tmc_update_etr_buffer's parts) stay whole
	// beside short values and B/A; the timeline keeps the rest.
	if need := min(st.countersNeed(f, y1-by), (x1-x0)*0.6); x1-x0-tw-gap < need {
		tw = x1 - x0 - gap - need
	}
	if chart {
		// The trace unit's one phase says little; the counters over the
		// same axis say what the translations cost.
		st.counterChart(s, f, x0, by, tw, y1-by)
	} else {
		st.timeline(s, f, x0, by, tw, y1-by)
	}
	st.counters(s, f, x0+tw+gap, by, x1-x0-tw-gap, y1-by)
}

var sideNames = [2]string{"A", "B"}

// side lays out one run in the column (x, y, w, h).
func (st *Stage) side(s *Scene, side uint8, sd *Side, x, y, w, h float32) {
	ids := &sideIDs[side]
	s.Add(Item{Kind: KindRect, ID: ids.column, X: x, Y: y, W: w, H: h, Fill: None, Stroke: Surface, StrokeWidth: 1})
	if sd.Result == nil || sd.Result.Timeline == nil {
		s.Text(ids.header, x+8, y+titleSz+4, st.txt.Join(sideNames[side], " · ", "no result"), titleSz, Muted, AlignStart)
		return
	}
	r := sd.Result
	tl := r.Timeline
	title := sd.PolicyTitle
	if title == "" {
		title = r.Policy
	}
	clock := st.txt.Time(sd.Time)
	s.Text(ids.header, x+8, y+titleSz+4, st.txt.Fit(st.txt.Join(sideNames[side], " · ", title), w-24-textWidth(clock, textSz), titleSz), titleSz, Text, AlignStart)
	s.Text(ids.clock, x+w-8, y+titleSz+4, clock, textSz, Muted, AlignEnd)
	narrH := float32(0)
	if i := captionAt(r.Narration, sd.Time); i >= 0 {
		caption := st.txt.Join(st.txt.Num(float64(i+1)), ". ", r.Narration[i].Title)
		if st.frame.Narrate {
			narrH = st.narration(s, side, &r.Narration[i], caption, x+8, y+titleSz+8, w-16, h*0.38, h*0.6)
		} else {
			s.Text(ids.caption, x+8, y+titleSz+22, st.txt.Fit(caption, w-16, textSz), textSz, Muted, AlignStart)
		}
	}
	state := sd.State
	if state == nil && len(tl.Keyframes) > 0 {
		state = &tl.Keyframes[0].State
	}
	if state == nil {
		return
	}
	cx, cy, cw := x+8, y+headerH+narrH, w-16
	ch := h - headerH - narrH - 8
	if hasTLBs(tl) {
		st.translationSide(s, side, tl, state, sd.Time, cx, cy, cw, ch)
		return
	}
	pmH := float32(0)
	if hasMappings(tl) {
		// Mappings without TLBs (a device's IOVAs): a page-mapping band
		// under the usual views.
		pmH = min(ch*0.3, 150)
		ch -= pmH
	}

	gaugesH := float32(gaugeRows(tl, cw)) * gaugeRow
	ch -= gaugesH

	rings, caches := 0, len(tl.Caches)
	for g := range tl.Grids {
		if gridHasPointer(tl, g) {
			rings++
		}
	}
	// Rings and cache windows share a row under the grids; in a narrow
	// column (under 140 px a slot) rings take one row and caches another.
	lowH, lowRows, perRow := float32(0), 1, rings+caches
	if n := rings + caches; n > 0 {
		if rings > 0 && caches > 0 && cw/float32(n) < 140 {
			lowRows, perRow = 2, max(rings, caches)
		}
		lowH = min(ch*0.5, float32(lowRows)*cw/float32(perRow))
	}
	gridsH := ch - lowH
	if n := len(tl.Grids); n > 0 {
		each := gridsH / float32(n)
		for g := range tl.Grids {
			st.grid(s, side, tl, state, g, cx, cy+float32(g)*each, cw, each-6)
		}
	}
	ly := cy + gridsH
	slot := cw / float32(max(perRow, 1))
	rowH := lowH / float32(lowRows)
	k := 0
	place := func() (float32, float32) {
		col, row := k, 0
		if lowRows == 2 {
			col, row = k, 0
			if k >= rings {
				col, row = k-rings, 1
			}
		}
		k++
		return cx + float32(col)*slot, ly + float32(row)*rowH
	}
	for g := range tl.Grids {
		if gridHasPointer(tl, g) {
			lx, y := place()
			st.ring(s, side, tl, state, g, lx, y, min(slot, rowH)-6, rowH-6, max(slot-8, min(slot, rowH)-6))
		}
	}
	for c := range tl.Caches {
		lx, y := place()
		st.cache(s, side, tl, state, c, sd.Time, lx, y, slot-8, rowH-6)
	}
	st.gauges(s, side, tl, state, cx, ly+lowH, cw)
	if pmH > 0 {
		st.pageMap(s, side, tl, sd.Time, cx, cy+ch+gaugesH, cw, pmH)
	}
}

// isGauge reports whether a value is drawn in the gauge rows rather than on
// its grid (pointers and flags that belong to a grid are drawn there).
func isGauge(v timeline.ValueSpec) bool {
	return v.Grid < 0 || (v.Kind != timeline.ValuePointer && v.Kind != timeline.ValueFlag)
}

func gridHasPointer(tl *timeline.Timeline, g int) bool {
	for _, v := range tl.Values {
		if v.Kind == timeline.ValuePointer && v.Grid == g {
			return true
		}
	}
	return false
}

func captionAt(steps []scenario.Step, t sim.Time) int {
	i := -1
	for k := range steps {
		if steps[k].T > t {
			break
		}
		i = k
	}
	return i
}

// itemIDs are the stable ids of one side's items; constants, so building a
// frame does not allocate them.
type itemIDs struct {
	column, header, clock, caption, grid, gridLabel, gridScale, gridMark, pointer, pointerLabel,
	span, ring, ringPointer, ringLabel, ringSpan, cache, cacheLabel, cacheTag, cacheRecent, gauge, gaugeLabel, narration string
}

var sideIDs = [2]itemIDs{
	{"a/column", "a/header", "a/clock", "a/caption", "a/grid", "a/grid-label", "a/grid-scale", "a/grid-mark", "a/pointer", "a/pointer-label",
		"a/span", "a/ring", "a/ring-pointer", "a/ring-label", "a/ring-span", "a/cache", "a/cache-label", "a/cache-tag", "a/cache-recent", "a/gauge", "a/gauge-label", "a/narration"},
	{"b/column", "b/header", "b/clock", "b/caption", "b/grid", "b/grid-label", "b/grid-scale", "b/grid-mark", "b/pointer", "b/pointer-label",
		"b/span", "b/ring", "b/ring-pointer", "b/ring-label", "b/ring-span", "b/cache", "b/cache-label", "b/cache-tag", "b/cache-recent", "b/gauge", "b/gauge-label", "b/narration"},
}
