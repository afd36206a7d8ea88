package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
)

// pairFrame is scenario id's default pair at frac of the run in a w x h
// window with the given insets and panel.
func pairFrame(t *testing.T, id string, frac float64, w, h, left, top, bottom float32, narrate bool) *Frame {
	t.Helper()
	sc, err := catalog.Registry().Get(id)
	require.NoError(t, err, id)
	spec := sc.Spec()
	a, b := runPolicy(t, sc, spec.DefaultA), runPolicy(t, sc, spec.DefaultB)
	return frameOf(a, b, frac, w, h, left, top, bottom, narrate)
}

func frameOf(a, b *scenario.Result, frac float64, w, h, left, top, bottom float32, narrate bool) *Frame {
	end := max(a.End, b.End)
	at := sim.Time(float64(end) * frac)
	return &Frame{A: Side{Result: a, State: stateAt(a, at), Time: min(at, a.End)}, B: Side{Result: b, State: stateAt(b, at), Time: min(at, b.End)},
		Cursor: at, Length: end, W: w, H: h, Left: left, Top: top, Bottom: bottom, Narrate: narrate}
}

// An embed (960x600, its bar over the bottom 40 px, no panel) keeps the
// mechanism each scenario teaches: etr's ring dials with their pointers,
// the lines joining VA to PA in the page map of trbe-aux, spe-aux and
// vmap, and cache windows of at least four sets in rows of 5 px or more.
func TestEmbedKeepsTheMechanism(t *testing.T) {
	for _, c := range []struct {
		id, item   string
		cacheRows  bool
		leastItems int
	}{
		{"etr", "ring-pointer", true, 2},
		{"demo", "cache", true, 4},
		{"sg-sync", "cache", true, 4},
		{"trbe-aux", "pm-link", false, 1},
		{"spe-aux", "pm-link", false, 1},
		{"vmap", "pm-link", false, 1},
	} {
		for _, frac := range []float64{0.3, 0.8} {
			f := pairFrame(t, c.id, frac, 960, 600, 0, 0, 40, false)
			var s Scene
			NewStage().Build(&s, f)
			for _, side := range []string{"a/", "b/"} {
				assert.GreaterOrEqual(t, len(find(&s, side+c.item)), c.leastItems, "%s at %.0f %%: %s%s", c.id, frac*100, side, c.item)
				if c.cacheRows {
					rows := map[float32]bool{}
					for _, it := range find(&s, side+"cache") {
						require.GreaterOrEqual(t, it.H, float32(minCacheRow-1)-0.01, "%s: %s cache row", c.id, side)
						rows[it.Y] = true
					}
					assert.GreaterOrEqual(t, len(rows), minCacheSets, "%s at %.0f %%: %s cache rows", c.id, frac*100, side)
				}
			}
		}
	}
}

// The counters' last line counts what did not fit and says where it is:
// the panel's metrics table beside the panel, the full view where there
// is none (an embed, an exported figure).
func TestCountersPointAtThePanelOnlyWhereThereIsOne(t *testing.T) {
	for _, c := range []struct {
		left, w, h, bottom float32
		want, not          string
	}{
		{340, 1024, 768, 0, "the panel's metrics table", "full view"},
		{0, 960, 600, 40, "more in the full view", "panel"},
	} {
		f := pairFrame(t, "etr", 0.5, c.w, c.h, c.left, 0, c.bottom, false)
		var s Scene
		st := NewStage()
		st.Build(&s, f)
		more := find(&s, "counters/more")
		require.Len(t, more, 1, "%.0fx%.0f: the counters all fit; the test needs a window they overflow", c.w, c.h)
		assert.Contains(t, more[0].Text, c.want)
		assert.NotContains(t, more[0].Text, c.not)
		info := st.Describe(more[0].Ref)
		assert.Contains(t, info, strings.Fields(c.want)[len(strings.Fields(c.want))-1])
		assert.NotContains(t, info, c.not)
	}
}

// Pointer names never cover cells: a grid's pointers are named in the row
// above its squares, and a ring's inside its hole or beside it, never on
// its arcs.
func TestPointerNamesAreClearOfCells(t *testing.T) {
	for _, size := range []struct {
		w, h, left, top, bottom float32
		narrate                 bool
	}{{1440, 900, 340, 0, 0, false}, {1024, 768, 340, 0, 0, false}, {1280, 720, 0, 40, 0, true}, {960, 600, 0, 0, 40, false}} {
		for _, frac := range []float64{0, 0.2, 0.5, 0.9} {
			f := pairFrame(t, "etr", frac, size.w, size.h, size.left, size.top, size.bottom, size.narrate)
			var s Scene
			NewStage().Build(&s, f)
			where := fmt.Sprintf("%.0fx%.0f at %.0f %%", size.w, size.h, frac*100)
			for _, side := range []string{"a/", "b/"} {
				labels := append(find(&s, side+"pointer-label"), find(&s, side+"ring-label")...)
				require.NotEmpty(t, labels, where)
				cells := append(find(&s, side+"grid"), find(&s, side+"ring")...)
				for _, l := range labels {
					x0, y0, x1, y1 := textBox(&l)
					for _, c := range cells {
						assert.False(t, covers(x0, y0, x1, y1, &c),
							"%s: %s %q [%.0f..%.0f]x[%.0f..%.0f] covers %s %d", where, l.ID, l.Text, x0, x1, y0, y1, c.ID, c.Index)
					}
				}
			}
		}
	}
}

// covers reports whether the box (x0, y0)-(x1, y1), less half a pixel
// each side, meets item c: a rectangle, or a line as wide as its stroke
// (a ring's arc segment).
func covers(x0, y0, x1, y1 float32, c *Item) bool {
	x0, y0, x1, y1 = x0+0.5, y0+0.5, x1-0.5, y1-0.5
	if c.Kind == KindRect {
		return x0 < c.X+c.W && c.X < x1 && y0 < c.Y+c.H && c.Y < y1
	}
	hw := c.StrokeWidth / 2
	for k := 0; k <= 16; k++ {
		f := float32(k) / 16
		px, py := c.X+(c.X2-c.X)*f, c.Y+(c.Y2-c.Y)*f
		if px > x0-hw && px < x1+hw && py > y0-hw && py < y1+hw {
			return true
		}
	}
	return false
}

// A buffer of order-0 pages at the published size (262,144 pages) is
// drawn in VA bins, not joined by crossing lines: a line for the page
// being written only, the bins numbered and named in the note, and a
// bin's hover says where its frames lie.
func TestOrder0PageMapIsDrawnInBins(t *testing.T) {
	f := pairFrame(t, "trbe-aux", 0.9, 1440, 900, 340, 0, 0, false)
	var s Scene
	st := NewStage()
	st.Build(&s, f)
	assert.LessOrEqual(t, len(find(&s, "a/pm-link")), 1, "one line: the page the trace unit writes")
	bins := find(&s, "a/pm-bin")
	require.Len(t, bins, maxFlowBins)
	for i, b := range bins {
		assert.Equal(t, BinColor(i), b.Fill)
	}
	info := st.Describe(bins[0].Ref)
	assert.Regexp(t, `VA bin 1 of 8: VA 0x[0-9a-f]+\.\.0x[0-9a-f]+, 32768 pages \(128MiB\) · its frames carry this colour`, info)
	notes := find(&s, "a/pm-note")
	found := false
	for _, n := range notes {
		found = found || strings.Contains(n.Text, "8 bins of 32768 pages")
	}
	assert.True(t, found, "the VA strip's note names the bins")
}
