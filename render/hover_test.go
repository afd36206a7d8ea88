package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/demo"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// Every label a newcomer asks about explains itself on hover, and Hover
// outlines the item and puts the description beside the pointer.
func TestLabelsExplainThemselvesOnHover(t *testing.T) {
	a, b := etrPair(t, "coherent", "cached-no-sync")
	f := frameAt(a, b, max(a.End, b.End), 1024, 768)
	var s Scene
	NewStage().Build(&s, f)
	for _, c := range []struct{ id, text, want string }{
		{"a/pointer-label", "rrp", "read pointer"},
		{"a/pointer-label", "rwp", "write pointer"},
		{"a/ring-label", "head", "perf AUX head"},
		{"a/ring-label", "tail", "perf tool"},
		{"a/ring-label", "STS.FULL", "status flag"},
		{"a/ring-label", "TRUNCATED", "PERF_AUX_FLAG_TRUNCATED"},
		{"a/grid-scale", "", "Each square stands for"},
		{"a/cache-label", "", "one row per set"},
		{"a/gauge-label", "DC ops in flight", "DSB SY"},
		{"legend/label", "stale", "hatched"},
		{"timeline/legend-label", "device DMA", "DMA"},
		{"counters/title", "counters", "filled"},
	} {
		var it *Item
		for i := range s.Items {
			if s.Items[i].ID == c.id && (c.text == "" || s.Items[i].Text == c.text) {
				it = &s.Items[i]
				break
			}
		}
		if !assert.NotNil(t, it, "no %s %q on the stage", c.id, c.text) {
			continue
		}
		x0, w := it.textSpan()
		x, y := x0+w/2, it.Y-it.Size/3
		h, ok := s.HitTest(x, y)
		if assert.True(t, ok, "%s %q does not answer the pointer", c.id, c.text) {
			assert.Contains(t, h.Info, c.want, "%s %q", c.id, c.text)
		}
		var hs Scene
		hs.Items = append(hs.Items, s.Items...)
		hs.W, hs.H, hs.Describer = s.W, s.H, s.Describer
		n := len(hs.Items)
		assert.Contains(t, hs.Hover(x, y, f.Left), c.want)
		assert.NotEmpty(t, find(&hs, "hover/tip-text"), "no description beside the pointer")
		assert.Greater(t, len(hs.Items), n+1, "no outline")
	}
}

// The cell legend and the time line's legend spell a shared meaning the
// same way: the coherent ETR run reads the buffer through a Normal-NC
// mapping, which both call "uncached read", and the CPU is capitalised.
func TestCellAndPhaseLegendsSpellAMeaningAlike(t *testing.T) {
	a, b := etrPair(t, "coherent", "cached-sync-whole-when-full")
	f := frameAt(a, b, max(a.End, b.End), 1440, 900)
	var s Scene
	NewStage().Build(&s, f)
	cells, phases := joinTexts(&s, "legend/label"), joinTexts(&s, "timeline/legend-label")
	assert.Contains(t, phases, "|uncached read|")
	assert.Contains(t, "|"+cells, "|uncached read|", "cell legend: %s", cells)
	assert.NotContains(t, cells, "-read")
	assert.NotContains(t, cells, "cpu-")
	// A 1024 px window beside the panel still names every state the
	// grids show (the sixth, "uncached read", was dropped for lack of room).
	for _, w := range []float32{1024, 900} {
		f.W = w
		NewStage().Build(&s, f)
		cells = joinTexts(&s, "legend/label")
		for _, c := range []timeline.CellState{timeline.CellDeviceWritten, timeline.CellCPUWritten, timeline.CellInvalidated, timeline.CellCached, timeline.CellCopied, timeline.CellUncachedRead} {
			assert.Contains(t, cells, CellLabel(c)+"|", "window %v: cell legend %s", w, cells)
		}
	}
}

// In presentation mode at 1024x768 the narration leaves the rings too
// short a row to draw, but their flags (did the ETR buffer wrap, did the
// AUX ring lose data) stay on the stage as words.
func TestRingFlagsStayWhenTheRingIsTooSmall(t *testing.T) {
	a, b := etrPair(t, "coherent", "cached-no-sync")
	for _, cur := range []sim.Time{0, max(a.End, b.End)} {
		f := frameAt(a, b, cur, 1024, 768)
		f.Left, f.Top, f.Narrate = 0, 40, true
		var s Scene
		NewStage().Build(&s, f)
		for _, side := range []string{"a", "b"} {
			labels := joinTexts(&s, side+"/ring-label")
			assert.Contains(t, labels, "STS.FULL", "side %s at %v: %s", side, cur, labels)
			assert.Contains(t, labels, "TRUNCATED", "side %s at %v: %s", side, cur, labels)
		}
	}
}

// A pointer's name sits inside its ring or beside it, never across the
// ring's arc (at 1024x768 beside the panel the rings are small).
func TestRingPointerNamesClearTheArc(t *testing.T) {
	a, b := etrPair(t, "coherent", "cached-sync-whole-when-full")
	for _, w := range []float32{1024, 1440} {
		f := frameAt(a, b, 0, w, w*0.75)
		var s Scene
		NewStage().Build(&s, f)
		type box struct{ x0, x1, y0, y1, thick float32 }
		rings := map[int32]*box{}
		for _, it := range items(&s, "a/ring") {
			bx := rings[it.Ref.Obj]
			if bx == nil {
				bx = &box{it.X, it.X, it.Y, it.Y, it.StrokeWidth}
				rings[it.Ref.Obj] = bx
			}
			bx.x0, bx.x1 = min(bx.x0, it.X, it.X2), max(bx.x1, it.X, it.X2)
			bx.y0, bx.y1 = min(bx.y0, it.Y, it.Y2), max(bx.y1, it.Y, it.Y2)
		}
		require.NotEmpty(t, rings, "window %v: no rings drawn", w)
		names := 0
		for _, it := range items(&s, "a/ring-label") {
			if it.Ref.Kind != RefValue || a.Timeline.Values[it.Ref.Obj].Kind != timeline.ValuePointer {
				continue
			}
			bx := rings[int32(a.Timeline.Values[it.Ref.Obj].Grid)]
			require.NotNil(t, bx)
			x0, tw := it.textSpan()
			arcIn, arcOut := bx.x1-bx.thick, bx.x1+bx.thick/2
			assert.True(t, x0+tw <= arcIn || x0 >= arcOut, "window %v: %q spans x %.0f..%.0f across the ring's arc at %.0f..%.0f", w, it.Text, x0, x0+tw, arcIn, arcOut)
			names++
		}
		assert.Equal(t, 4, names, "window %v: rrp, rwp, head and tail", w)
	}
}

// etrPair runs the ETR scenario's policies pa and pb at smallParams.
func etrPair(t *testing.T, pa, pb string) (*scenario.Result, *scenario.Result) {
	t.Helper()
	sc, err := catalog.Registry().Get("etr")
	require.NoError(t, err)
	return runPolicy(t, sc, pa), runPolicy(t, sc, pb)
}

// frameAt is the stage's frame of the pair at cursor cur in a w x h window
// with the panel open (340 px).
func frameAt(a, b *scenario.Result, cur sim.Time, w, h float32) *Frame {
	return &Frame{A: Side{Result: a, State: stateAt(a, cur), Time: min(cur, a.End)}, B: Side{Result: b, State: stateAt(b, cur), Time: min(cur, b.End)},
		Cursor: cur, Length: max(a.End, b.End), Left: 340, W: w, H: h}
}

// A gauge's name too long for its column drops its parenthesis before it
// is cut: sg-sync's "DC ops not yet waited for (DSB drains)" beside the
// panel in a 1024 px window.
func TestGaugeNamesShortenByWords(t *testing.T) {
	sc, err := catalog.Registry().Get("sg-sync")
	require.NoError(t, err)
	a, b := runPolicy(t, sc, "per-entry-dsb"), runPolicy(t, sc, "batched-dsb")
	var s Scene
	NewStage().Build(&s, frameAt(a, b, 0, 1024, 768))
	labels := joinTexts(&s, "a/gauge-label")
	assert.Contains(t, "|"+labels, "|DC ops not yet waited for|")
	assert.NotContains(t, labels, "…")
}

// sg-sync's grid at its default 10 MiB, beside the panel in a 1024 px
// window, keeps its name whole ("physical memory") beside the squares'
// scale and drops only the parenthesis.
func TestGridNamesShortenByWords(t *testing.T) {
	sc, err := catalog.Registry().Get("sg-sync")
	require.NoError(t, err)
	p, err := sc.Spec().Defaults()
	require.NoError(t, err)
	a, err := sc.Run(t.Context(), p, "per-entry-dsb", nil)
	require.NoError(t, err)
	b, err := sc.Run(t.Context(), p, "batched-dsb", nil)
	require.NoError(t, err)
	var s Scene
	NewStage().Build(&s, frameAt(a, b, 0, 1024, 768))
	labels := joinTexts(&s, "a/grid-label")
	assert.Contains(t, "|"+labels, "|physical memory|")
	assert.NotContains(t, labels, "…")
	NewStage().Build(&s, frameAt(a, b, 0, 1600, 900))
	assert.Contains(t, joinTexts(&s, "a/grid-label"), "physical memory (under the SG list)")
}

// On a short stage the columns keep their room and the cell legend keeps
// to the one row it is given: its second row would have been drawn over
// the counters (at 1024x340 both were at y 224).
func TestCellLegendKeepsToItsRows(t *testing.T) {
	a, b := etrPair(t, "coherent", "cached-sync-whole-when-full")
	for _, h := range []float32{768, 360, 340, 320} {
		var s Scene
		NewStage().Build(&s, frameAt(a, b, max(a.End, b.End), 1024, h))
		var lowest float32
		for _, it := range items(&s, "legend/label") {
			lowest = max(lowest, it.Y)
		}
		titles := items(&s, "counters/title")
		require.NotEmpty(t, titles, "height %v", h)
		assert.Less(t, lowest, titles[0].Y-smallSz, "height %v: a legend row at y %.0f reaches the counters' title at %.0f", h, lowest, titles[0].Y)
	}
}

// Hover answers where a teacher points: in the pixel between two cache
// ways (the cells are inset half a pixel each side) the nearer way, and
// anywhere inside a timeline bar, not only on its outline.
func TestHoverBetweenWaysAndInsideBars(t *testing.T) {
	f := endFrame(t, demo.PolicyCacheableSync)
	// At the start: no bar is filled as elapsed yet.
	f.Cursor, f.A.Time, f.B.Time = 0, 0, 0
	f.A.State, f.B.State = stateAt(f.A.Result, 0), stateAt(f.B.Result, 0)
	var s Scene
	NewStage().Build(&s, f)
	ways := find(&s, "b/cache")
	require.Greater(t, len(ways), 2)
	w0, w1 := ways[0], ways[1]
	require.Equal(t, w0.Y, w1.Y, "the first two ways are in one row")
	gap := (w0.X + w0.W + w1.X) / 2
	require.Greater(t, w1.X, w0.X+w0.W, "no gap between the ways to test")
	h, ok := s.HitTest(gap, w0.Y+w0.H/2)
	require.True(t, ok, "nothing answers between two ways")
	assert.Equal(t, "b/cache", h.Item.ID)
	assert.NotEmpty(t, h.Info)
	bars := find(&s, "timeline/phase")
	require.NotEmpty(t, bars)
	wide := bars[0]
	for _, b := range bars {
		if b.W > wide.W {
			wide = b
		}
	}
	require.Greater(t, wide.W, float32(8))
	h, ok = s.HitTest(wide.X+wide.W/2, wide.Y+wide.H/2)
	require.True(t, ok, "nothing answers inside a timeline bar")
	assert.Equal(t, "timeline/phase", h.Item.ID)
	assert.NotEmpty(t, h.Info)
}
