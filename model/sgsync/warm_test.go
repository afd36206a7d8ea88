package sgsync

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// The CPU's use of the buffer before the transfer is recorded at the
// stage's resolution, entry by entry: at a tenth of the paper run (inside
// the warm-up, which takes about a quarter of it) the grid already shows
// cached cells, and more of them later; the narration says the CPU reads
// the buffer when the first entry's cells are on the grid, after the step
// that introduces the list.
func TestWarmUpIsRecordedAsItHappens(t *testing.T) {
	res := runP(t, PolicyBatched)
	tl := res.Timeline
	cached := func(frac float64) int {
		var st timeline.State
		tl.StateAt(tl.EventsUntil(sim.Time(float64(tl.End)*frac)), &st)
		n := 0
		for _, c := range st.Cells[0] {
			if c.State == timeline.CellCached {
				n++
			}
		}
		return n
	}
	at5, at10, at20 := cached(0.05), cached(0.10), cached(0.20)
	assert.Positive(t, at5, "cached cells at 5 % of the run")
	assert.Greater(t, at10, at5, "the warm-up fills the grid progressively")
	assert.Greater(t, at20, at10, "the warm-up fills the grid progressively")
	require.GreaterOrEqual(t, len(res.Narration), 2)
	assert.Equal(t, "The scatterlist", res.Narration[0].Title)
	assert.Zero(t, res.Narration[0].T)
	assert.Equal(t, "The CPU reads the buffer first", res.Narration[1].Title)
	var st timeline.State
	tl.StateAt(tl.EventsUntil(res.Narration[1].T), &st)
	n := 0
	for _, c := range st.Cells[0] {
		if c.State == timeline.CellCached {
			n++
		}
	}
	assert.Positive(t, n, "the step saying the CPU reads the buffer is over cached cells")
}

// At the lesson size the CPU L1D window is over the sets the buffer's
// lines fill (the buffer starts at set 256 of 512, not at set 0): from
// the step saying the CPU reads the buffer until the unmap, the window
// shows at least a window's row of the buffer's lines, and under the
// transfer step (after dma_map_sg's DC CVAC) they are valid and clean,
// as its narration says.
func TestLessonCacheWindowShowsTheBuffersLines(t *testing.T) {
	const k = 8 // of the window's 16 sets x 4 ways
	spec := New().Spec()
	p, err := spec.SizeParams(scenario.SizeLesson)
	require.NoError(t, err)
	for _, pol := range []string{PolicyPerEntry, PolicyBatched} {
		res, err := New().Run(context.Background(), p, pol, nil)
		require.NoError(t, err)
		tl := res.Timeline
		require.Len(t, tl.Caches, 1)
		g := tl.Grids[0]
		lo, hi := uint64(g.Base), uint64(g.Base)+uint64(g.Cells)*uint64(g.CellBytes)
		seen := 0
		for _, step := range res.Narration {
			switch step.Title {
			case "The CPU reads the buffer first", "dma_map_sg: clean to the point of coherency", "The device transfers", "Back to the CPU":
			default:
				continue
			}
			seen++
			var st timeline.State
			tl.StateAt(tl.EventsUntil(step.T), &st)
			held, dirty := 0, 0
			for _, l := range st.Caches[0] {
				if l.Valid && l.Tag >= lo && l.Tag < hi {
					held++
					if l.Dirty {
						dirty++
					}
				}
			}
			assert.GreaterOrEqual(t, held, k, "%s, %q at %v: the buffer's lines in the L1D window (sets %d..%d)",
				pol, step.Title, step.T, tl.Caches[0].FirstSet, tl.Caches[0].FirstSet+tl.Caches[0].Sets-1)
			if step.Title == "The device transfers" {
				assert.Zero(t, dirty, "%s: after DC CVAC the window's lines are clean", pol)
			}
		}
		assert.Equal(t, 4, seen, "%s: the steps over cached lines", pol)
	}
}
