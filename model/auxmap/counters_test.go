package auxmap

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// The counter tracks over the recorded session: l2d_tlb_refill,
// l1d_tlb_refill and dtlb_walk, each starting at 0, never falling, and
// ending at the session's own counts, which are one of the iterations
// the reported per-iteration average is the mean of (sessions alternate:
// freed pages come back in an order that repeats every second session, so
// trbe-aux order0 sessions alternate between 150,519 and 177,218).
func TestCounterTracksEndAtTheSessionsCounts(t *testing.T) {
	for _, s := range []*Scenario{NewTRBE(), NewSPE()} {
		for _, pol := range []string{Order0, PreferLarge} {
			r, res := simulated(t, s, scenario.Params{}, pol)
			last := r.iters[r.simulated-1]
			want := map[string]float64{MetricL2Refill: float64(last.l2Refill), MetricL1Refill: float64(last.l1Refill), MetricDTLBWalk: float64(last.dtlbWalk)}
			require.NotNil(t, res.Timeline)
			tracks := res.Timeline.Counters
			require.Len(t, tracks, 3, "%s %s", s.Spec().ID, pol)
			for _, tr := range tracks {
				name := s.Spec().ID + " " + pol + " " + tr.Name
				w, ok := want[tr.Name]
				require.True(t, ok, name)
				require.Greater(t, len(tr.V), 100, "%s: enough samples to draw a curve", name)
				require.Len(t, tr.T, len(tr.V))
				assert.Zero(t, tr.V[0], name)
				for i := 1; i < len(tr.V); i++ {
					require.GreaterOrEqual(t, tr.T[i], tr.T[i-1], "%s: time never goes back", name)
					require.GreaterOrEqual(t, tr.V[i], tr.V[i-1], "%s: a count never falls (sample %d)", name, i)
				}
				assert.Equal(t, w, tr.V[len(tr.V)-1], "%s ends at the session's count", name)
				assert.Equal(t, res.Timeline.End, tr.T[len(tr.T)-1], "%s ends at the session's end", name)
				sum := 0.0
				for _, it := range r.iters {
					sum += map[string]float64{MetricL2Refill: float64(it.l2Refill), MetricL1Refill: float64(it.l1Refill), MetricDTLBWalk: float64(it.dtlbWalk)}[tr.Name]
				}
				assert.InDelta(t, metric(t, res, tr.Name), sum/float64(len(r.iters)), 1e-9, "%s: the reported figure averages the iterations", name)
			}
		}
	}
}
