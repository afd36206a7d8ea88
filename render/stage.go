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
	// Step is the narration step shown, plus one: the player shows two
	// steps that start at the same time one after the other. 0 shows the
	// step at Time.
	Step int
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
	// Card is set in presentation mode while a lesson card under the
	// stage shows its stop's question or answer: the card takes the
	// narration row's place, so the stage draws none and is laid out for
	// the rest (presentCardLayoutH), which keeps its text at presentSz
	// on a stage the card shortens.
	Card bool
	// MinCell, when above the stage's 3 px, is the smallest square a grid
	// draws: a figure for a document aggregates more cells per square, so
	// its file stays small.
	MinCell float32
	// Masked keeps the counters' values back (a lesson's question before
	// its reveal).
	Masked bool
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

// Stage builds the whole stage from a Frame by composing views: it chooses
// the views a pair of results calls for (for each side, from its
// timeline's specs: grids, rings for grids with pointers, cache windows,
// gauges, the page map and TLBs of a translating run, or the SMMU's; under
// both, the legend, the timeline or the PMU counter chart, and the
// counters), gives each a rectangle, asks it to build, and routes hover
// to the view that drew the item. A new scenario needs no code here. The
// views keep their memoised strings and scratch between frames; reuse one
// Stage per canvas.
type Stage struct {
	txt texts
	// frame is the last frame built; the views read it (hover describes
	// what it showed, whatever the caller's frame is now).
	frame  Frame
	lanes  laneCache
	placed []placed // the views of the last frame, in build order
	// scale is how many times larger than its layout the last frame was
	// drawn (presentScale).
	scale float32
	// placedBuf holds placed for a stage of up to its length in views,
	// so the first frame does not grow it.
	placedBuf [48]placed
	// pmBins is the page maps' scratch for their VA strips, lent to each
	// side's in turn (each fills and reads it within its Build).
	pmBins [][4]float64

	message    messageView
	sides      [2]sideViews
	timeline   timelineView
	countChart counterChartView
	counters   counterView
	cellLegend cellLegendView
	tlLegend   translationLegendView
	smmuLegend smmuLegendView
	smmuHist   smmuHistView
	smmuTput   smmuTputView
	// narrRow sizes the narration row of presentation mode.
	narrRow narrationRow
}

// sideViews are the views of one side's column.
type sideViews struct {
	header    headerView
	narration narrationView
	grids     []gridView  // by grid
	rings     []ringView  // by grid (those with pointers)
	caches    []cacheView // by cache window
	gauges    gaugeView
	pageMap   pageMapView
	tlb       tlbView
	smmuPaths smmuPathsView
	smmuTable smmuTableView
	smmuTLB   smmuTLBView
	// need and layout are the buffer column's layout scratch.
	need   bufferNeeds
	layout bufferLayout
	// ok, d and least are what bindSide found: the side has a result, its
	// data at the cursor, and the least height of its views.
	ok    bool
	d     sideData
	least float32
}

// NewStage returns an empty stage builder.
func NewStage() *Stage { return &Stage{} }

// Build resets s and lays out f into it.
func (st *Stage) Build(s *Scene, f *Frame) {
	if st.placed == nil {
		st.placed = st.placedBuf[:0]
	}
	st.placed = st.placed[:0]
	st.frame = *f
	f = &st.frame
	s.Reset(f.W, f.H)
	s.Describer = st
	k := presentScale(f)
	st.scale, s.Scale = k, k
	if k != 1 {
		// Laid out in a window k times smaller, then drawn k times
		// larger: the stage a projector shows at any resolution.
		f.W, f.H, f.Left, f.Top, f.Bottom = f.W/k, f.H/k, f.Left/k, f.Top/k, f.Bottom/k
		defer s.scaleBy(k)
	}
	x0, x1 := f.Left+pad, f.W-pad
	y0, y1 := pad+f.Top, f.H-pad-f.Bottom
	if x1-x0 < 160 || y1-y0 < 160 {
		s.Text("stage/small", x0, y0+textSz, "window too small", textSz, Muted, AlignStart)
		return
	}
	if f.Message != "" {
		st.message = messageView{msg: f.Message}
		st.show(s, &st.message, Rect{x0, y0, x1 - x0, y1 - y0})
		return
	}
	if smmuOf(f) != nil {
		st.smmuStage(s, f, x0, y0, x1, y1)
		return
	}
	st.lanes.update(f.A.Result, f.B.Result)
	st.counters.bind(&st.txt, f.A.Result, f.B.Result, f.Left > 0, f.Masked)
	translation := translationOnly(f)
	colW := (x1 - x0 - gap) / 2
	st.bindSide(0, &f.A, f, colW-16)
	st.bindSide(1, &f.B, f, colW-16)
	var l runsLayout
	if f.Narrate {
		l = st.layoutPresent(f, x0, y0, x1, y1, translation)
		st.presentColumn(s, 0, &f.A, l.colA)
		st.presentColumn(s, 1, &f.B, l.colB)
		if !f.Card {
			st.presentSteps(s, f, l.narrationR)
		}
	} else {
		l = st.layoutRuns(x0, y0, x1, y1, translation)
		st.column(s, 0, &f.A, l.colA)
		st.column(s, 1, &f.B, l.colB)
	}
	if translation {
		st.tlLegend.bind(st.lanes.translation)
		st.show(s, &st.tlLegend, l.legend)
	} else {
		gap := float32(legendGap)
		if f.Narrate {
			gap = presentLegendGap
		}
		st.cellLegend.bind(st.lanes.states, l.legendRows, gap)
		st.show(s, &st.cellLegend, l.legend)
	}
	if l.timeline.H <= 0 {
		return // presentation mode on a short stage: the narration took the row
	}
	if hasCounterChart(f) {
		// The trace unit's one phase says little; the counters over the
		// same axis say what the translations cost.
		st.countChart.bind(&st.txt, f)
		st.show(s, &st.countChart, l.timeline)
	} else {
		st.timeline.bind(&st.txt, f, &st.lanes)
		st.show(s, &st.timeline, l.timeline)
	}
	st.show(s, &st.counters, l.counters)
}

// Presentation mode is for the back of a room: no stage text below
// presentSz pixels at presentW x presentH (a 720p projector) or larger.
// The views lay out in their own units, whose smallest text is smallSz,
// so the stage lays the frame out in a window presentScale times smaller
// and draws it that much larger: a projector of any resolution shows the
// same stage, as a slide would. A window smaller than presentW x presentH
// gets the largest scale at which its layout is no smaller than
// presentW x presentH's (which the layout tests cover).
const (
	presentSz       = 18
	presentW        = 1280
	presentH        = 720
	presentMinScale = float32(presentSz) / smallSz
	presentLayoutW  = presentW / presentMinScale
	presentLayoutH  = presentH / presentMinScale
	// presentCardLayoutH is the height a presented stage without its
	// narration row (Frame.Card) is laid out in at least: its columns'
	// title and mechanism, the legend and the bar's inset at every stop
	// of the dma lesson path (TestPresentedLessonWithCardOpen). The page
	// caps the card so that the stage keeps this much at the width's
	// scale (style.css's #lesson in presentation mode).
	presentCardLayoutH = 345
)

// presentScale is how much larger than its layout f is drawn: 1 outside
// presentation mode.
func presentScale(f *Frame) float32 {
	if !f.Narrate {
		return 1
	}
	layoutH := float32(presentLayoutH)
	if f.Card {
		layoutH = presentCardLayoutH
	}
	return max(1, min(f.W/presentLayoutW, f.H/layoutH))
}

// Scale is how many times larger than the views' own units the last
// frame was drawn (above 1 in presentation mode): a view's TextSizes
// times Scale are the sizes its text has on the screen.
func (st *Stage) Scale() float32 { return max(st.scale, 1) }

// runsLayout is where the views of a stage without an SMMU go: the two
// sides' columns, the legend under them (legendRows rows), and a bottom
// row with the timeline (or the counter chart) beside the counters.
type runsLayout struct {
	colA, colB, legend, timeline, counters Rect
	legendRows                             int
	// narrationR is the narration row under the columns (presentation
	// mode).
	narrationR Rect
}

// layoutRuns lays out the stage area (x0, y0)-(x1, y1). The bottom row
// takes 30 % of the height (110 to 260 px); the legend takes a second or
// third row only from columns that keep 160 px; a narrow stage gives the
// counters up to 60 % of the bottom row, so that their names (pmu events,
// tmc_update_etr_buffer's parts) stay whole beside short values and B/A,
// and the timeline keeps the rest.
func (st *Stage) layoutRuns(x0, y0, x1, y1 float32, translation bool) runsLayout {
	bottomH := min(max((y1-y0)*0.3, 110), 260)
	legendRows := 1
	if !translation {
		legendRows = cellLegendRows(st.lanes.states, x1-x0, legendGap)
	}
	for legendRows > 1 && y1-bottomH-legendH*float32(legendRows)-gap-y0 < 160 {
		legendRows--
	}
	legendTall := legendH * float32(legendRows)
	colTop, colBottom := y0, y1-bottomH-legendTall-gap
	colW := (x1 - x0 - gap) / 2
	by := colBottom + gap/2 + legendTall
	tw := (x1 - x0) * 0.58
	if need := min(st.counters.need(y1-by), (x1-x0)*0.6); x1-x0-tw-gap < need {
		tw = x1 - x0 - gap - need
	}
	return runsLayout{
		colA:       Rect{x0, colTop, colW, colBottom - colTop},
		colB:       Rect{x0 + colW + gap, colTop, colW, colBottom - colTop},
		legend:     Rect{x0, colBottom + gap/2, x1 - x0, legendTall},
		legendRows: legendRows,
		timeline:   Rect{x0, by, tw, y1 - by},
		counters:   Rect{x0 + tw + gap, by, x1 - x0 - tw - gap, y1 - by},
	}
}

var sideNames = [2]string{"A", "B"}

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
