package sgsync

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
