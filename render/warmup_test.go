package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
)

// No blank stage: at 10 % of sg-sync's paper run (inside the CPU's
// warm-up, which takes about a quarter of it) both grids on the stage
// already draw cached cells (yellow), as the narration says the CPU is
// reading the buffer.
func TestSGSyncStageIsNotBlankDuringTheWarmUp(t *testing.T) {
	sc, err := catalog.Registry().Get("sg-sync")
	require.NoError(t, err)
	spec := sc.Spec()
	p, err := spec.SizeParams(scenario.SizePaper)
	require.NoError(t, err)
	a, b, err := scenario.RunPair(t.Context(), sc, p, spec.DefaultA, spec.DefaultB, nil, nil)
	require.NoError(t, err)
	cur := sim.Time(float64(max(a.End, b.End)) * 0.10)
	var s Scene
	NewStage().Build(&s, frameAt(a, b, cur, 1440, 900))
	for _, side := range []string{"a", "b"} {
		cells := find(&s, side+"/grid")
		require.NotEmpty(t, cells, "%s: no grid drawn", side)
		yellow := 0
		for _, it := range cells {
			if it.Fill == Yellow {
				yellow++
			}
		}
		assert.Positive(t, yellow, "%s: no cached cell at 10 %% of the run (%v of %d grid items)", side, cur, len(cells))
	}
}
