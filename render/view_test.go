package render

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/auxmap"
	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/demo"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/vmapdemo"
)

// stageSizes are the windows the view tests build every scenario's stage
// in: the panel open at 1024x768, presentation mode at 1024x768 and on a
// 720p projector, the 960x600 embed, and a large window.
var stageSizes = []struct {
	left, w, h, top, bottom float32
	narrate                 bool
}{
	{left: 340, w: 1024, h: 768},
	{w: 1024, h: 768, top: 40, narrate: true},
	{w: 1280, h: 720, top: 40, narrate: true},
	{w: 960, h: 600, bottom: 40},
	{left: 360, w: 1920, h: 1080},
}

// defaultPairs are every scenario's default A and B runs (at
// smallParams), run once for the tests that need them all.
var defaultPairs struct {
	once  sync.Once
	pairs [][2]*scenario.Result
}

// eachStage builds every scenario's default pair at stageSizes, at the
// start, middle and end, and calls check with the stage and its scene.
func eachStage(t *testing.T, check func(name string, st *Stage, s *Scene)) {
	defaultPairs.once.Do(func() {
		for _, sc := range catalog.Registry().All() {
			spec := sc.Spec()
			defaultPairs.pairs = append(defaultPairs.pairs, [2]*scenario.Result{runPolicy(t, sc, spec.DefaultA), runPolicy(t, sc, spec.DefaultB)})
		}
	})
	require.NotEmpty(t, defaultPairs.pairs)
	for _, pair := range defaultPairs.pairs {
		a, b := pair[0], pair[1]
		end := max(a.End, b.End)
		for _, sz := range stageSizes {
			for _, at := range []sim.Time{0, end / 2, end} {
				f := &Frame{A: Side{Result: a, State: stateAt(a, at), Time: min(at, a.End)}, B: Side{Result: b, State: stateAt(b, at), Time: min(at, b.End)},
					Cursor: at, Length: end, Left: sz.left, W: sz.w, H: sz.h, Top: sz.top, Bottom: sz.bottom, Narrate: sz.narrate}
				var s Scene
				st := NewStage()
				st.Build(&s, f)
				check(fmt.Sprintf("%s/%s %.0fx%.0f left %.0f narrate %v at %v", a.Policy, b.Policy, sz.w, sz.h, sz.left, sz.narrate, at), st, &s)
			}
		}
	}
}

// Hover reaches the view that drew the item: every item that points at
// data carries the number of the view whose items it is among, and that
// view describes it.
func TestStageRoutesHoverToTheViewThatDrewTheItem(t *testing.T) {
	eachStage(t, func(name string, st *Stage, s *Scene) {
		require.NotEmpty(t, st.placed, name)
		for k, p := range st.placed {
			for i := p.first; i < p.end; i++ {
				it := &s.Items[i]
				if it.Ref.Kind == RefNone {
					continue
				}
				if !assert.Equal(t, k+1, int(it.Ref.View), "%s: %s (%T) stamped with another view", name, it.ID, p.v) {
					return
				}
				assert.NotEmpty(t, st.Describe(it.Ref), "%s: %s (%T) has no description", name, it.ID, p.v)
			}
		}
	})
}

// Every text a view draws is set in one of the sizes the view reports,
// times the stage's scale: between its least size and the larger of its
// title's and body's.
func TestViewsDrawInTheTextSizesTheyReport(t *testing.T) {
	eachStage(t, func(name string, st *Stage, s *Scene) {
		k := st.Scale()
		for _, p := range st.placed {
			ts := p.v.TextSizes()
			require.Positive(t, ts.Least, "%T", p.v)
			for i := p.first; i < p.end; i++ {
				if it := &s.Items[i]; it.Kind == KindText {
					assert.True(t, it.Size >= ts.Least*k-0.01 && it.Size <= max(ts.Title, ts.Body)*k+0.01,
						"%s: %s %q (%T) is %.1f px, outside %+v times %.3f", name, it.ID, it.Text, p.v, it.Size, ts, k)
				}
			}
		}
	})
}

// The stage gives the views of a column, and the legend and bottom row,
// rectangles that do not overlap, inside the stage's area. (The header
// is the column itself; the narration step may run on into the views,
// which then start under it.)
func TestStageGivesViewsSeparateRectangles(t *testing.T) {
	eachStage(t, func(name string, st *Stage, s *Scene) {
		var rects []placed
		for _, p := range st.placed {
			switch p.v.(type) {
			case *headerView, *narrationView, *messageView:
				continue
			}
			if p.r.W > 0 && p.r.H > 0 {
				rects = append(rects, p)
			}
		}
		require.NotEmpty(t, rects, name)
		for i, p := range rects {
			// (In the stage's layout units: st.frame is the frame as laid out.)
			assert.True(t, p.r.X >= st.frame.Left && p.r.Y >= st.frame.Top && p.r.X+p.r.W <= st.frame.W && p.r.Y+p.r.H <= st.frame.H-st.frame.Bottom,
				"%s: %T at %+v is outside the stage", name, p.v, p.r)
			for _, q := range rects[i+1:] {
				a, b := p.r, q.r
				assert.False(t, a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H,
					"%s: %T at %+v overlaps %T at %+v", name, p.v, a, q.v, b)
			}
		}
	})
}

// minSizeCase is a view bound to data, and an item id that only its
// content (not its label) draws; each, when set, says the content must
// show for each of that many objects (Ref.Obj), e.g. every TLB.
type minSizeCase struct {
	name    string
	v       View
	content string
	each    int
}

// minSizeCases binds each view that has a size below which it draws no
// content.
func minSizeCases(t *testing.T) []minSizeCase {
	txt := &texts{}
	dm := demoResult(t, demo.PolicyCacheableSync, "16KiB")
	dd := sideData{tl: dm.Timeline, state: stateAt(dm, dm.End), t: dm.End}
	ring := -1
	for g := range dm.Timeline.Grids {
		if gridHasPointer(dm.Timeline, g) {
			ring = g
		}
	}
	require.GreaterOrEqual(t, ring, 0, "the demo has a grid with pointers")
	vm := runPolicyWith(t, vmapdemo.New(), vmapdemo.PolicyPTE, nil)
	vd := sideData{tl: vm.Timeline, state: stateAt(vm, vm.End), t: vm.End}
	tra := runPolicyWith(t, auxmap.NewTRBE(), auxmap.Order0, map[string]string{auxmap.ParamAUX: "64MiB", auxmap.ParamIterations: "2"})
	trb := runPolicyWith(t, auxmap.NewTRBE(), auxmap.PreferLarge, map[string]string{auxmap.ParamAUX: "64MiB", auxmap.ParamIterations: "2"})
	sa, sb := smmuPair(t)
	sd := sideData{tl: sa.Timeline, state: stateAt(sa, sa.End), t: sa.End}
	sg, err := catalog.Registry().Get("sg-sync")
	require.NoError(t, err)
	sgr := runPolicy(t, sg, sg.Spec().DefaultA)
	require.NotEmpty(t, sgr.Charts, "sg-sync has a chart")

	var cases []minSizeCase
	add := func(name string, v View, content string) { cases = append(cases, minSizeCase{name, v, content, 0}) }
	g := &gridView{}
	g.bind(txt, dd, 0, Zoom{}, 0, false)
	add("grid", g, "a/grid")
	fig := &gridView{}
	fig.bind(txt, dd, 0, Zoom{}, 10, false)
	add("grid in a figure", fig, "a/grid")
	pres := &gridView{}
	pres.bind(txt, dd, 0, Zoom{}, 0, true)
	add("grid in presentation mode", pres, "a/grid")
	r := &ringView{}
	r.bind(txt, dd, ring, Zoom{}, 0)
	r.labelW = 200
	add("ring", r, "a/ring")
	c := &cacheView{}
	c.bind(txt, dd, 0)
	add("cache", c, "a/cache")
	pm := &pageMapView{}
	pm.bind(txt, vd, Zoom{}, &[][4]float64{})
	add("page map", pm, "a/pm-va")
	tlb := &tlbView{}
	tlb.bind(txt, vd)
	require.Greater(t, len(vm.Timeline.Translation.TLBs), 1)
	cases = append(cases, minSizeCase{"TLBs", tlb, "a/tlb-entry", len(vm.Timeline.Translation.TLBs)})
	pair := func(a, b *scenario.Result) *Frame {
		end := max(a.End, b.End)
		return &Frame{A: Side{Result: a, State: stateAt(a, end), Time: a.End}, B: Side{Result: b, State: stateAt(b, end), Time: b.End}, Cursor: end, Length: end}
	}
	var lc laneCache
	ef := pair(demoResult(t, demo.PolicyNoncacheable, "16KiB"), dm)
	lc.update(ef.A.Result, ef.B.Result)
	tv := &timelineView{}
	tv.bind(txt, ef, &lc)
	add("timeline", tv, "timeline/track")
	cv := &counterView{}
	cv.bind(txt, ef.A.Result, ef.B.Result, true, false)
	add("counters", cv, "counters/name")
	cc := &counterChartView{}
	cc.bind(txt, pair(tra, trb))
	add("counter chart", cc, "countchart/plot")
	ch := &chartView{c: &sgr.Charts[0]}
	add("chart", ch, "chart/plot")
	st := &smmuTLBView{}
	st.bind(txt, sd)
	add("SMMU TLB", st, "a/smmu-tlb")
	sf := pair(sa, sb)
	hv := &smmuHistView{}
	hv.bind(txt, sf)
	add("latency histogram", hv, "smmu-hist/plot")
	tp := &smmuTputView{}
	tp.bind(txt, sf)
	add("forwarding", tp, "smmu-tput/plot")
	return cases
}

// A view draws its content in a rectangle of its MinSize, and not in one
// a pixel narrower or shorter: the size a layout must keep for it (a
// ring's dial, the page map's strips) is the one it reports.
func TestViewsDrawTheirContentFromTheirMinSize(t *testing.T) {
	for _, c := range minSizeCases(t) {
		drawn := func(v View, w, h float32, id string) bool {
			var s Scene
			s.Reset(2000, 2000)
			v.Build(&s, Rect{0, 0, w, h})
			items := find(&s, id)
			for obj := 0; obj < c.each; obj++ {
				found := false
				for _, it := range items {
					found = found || int(it.Ref.Obj) == obj
				}
				if !found {
					return false
				}
			}
			return len(items) > 0
		}
		m := c.v.MinSize()
		require.Positive(t, m.H, c.name)
		assert.True(t, drawn(c.v, m.W, m.H, c.content), "%s: no %s at its MinSize %+v", c.name, c.content, m)
		assert.True(t, drawn(c.v, m.W+50, m.H+50, c.content), "%s: no %s above its MinSize %+v", c.name, c.content, m)
		if m.W > 1 {
			assert.False(t, drawn(c.v, m.W-1, m.H, c.content), "%s: %s a pixel narrower than its MinSize %+v", c.name, c.content, m)
		}
		assert.False(t, drawn(c.v, m.W, m.H-1, c.content), "%s: %s a pixel shorter than its MinSize %+v", c.name, c.content, m)
	}
}
