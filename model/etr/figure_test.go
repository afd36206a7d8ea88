package etr

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// run runs policy with the defaults changed by kv ("name", "value", ...).
func runWith(t testing.TB, policy string, kv ...string) *scenario.Result {
	t.Helper()
	s := New()
	spec := s.Spec()
	p, err := spec.Defaults()
	require.NoError(t, err)
	for i := 0; i+1 < len(kv); i += 2 {
		require.NoError(t, spec.Set(p, kv[i], kv[i+1]))
	}
	res, err := s.Run(context.Background(), p, policy, nil)
	require.NoError(t, err, "%s %v", policy, kv)
	return res
}

func metric(t testing.TB, r *scenario.Result, name string) float64 {
	t.Helper()
	v, ok := r.Metric(name)
	require.True(t, ok, "%s: no metric %s", r.Policy, name)
	return v
}

// The published figures, from the model with the juno-r2 preset and the
// scenario's defaults (4 MiB buffer filled by the trace, AUX large enough).
// The coherent time is calibrated (juno-r2's dram.latency is fitted to it,
// TestJunoR2DRAMLatencyFit); the cacheable times of the patch (2463.98 us)
// and of the merged driver (2525.42 us) and the ratio are predictions:
// logged with their deviation, never asserted toward the figure.
func TestFigureJunoR2(t *testing.T) {
	spec := New().Spec()
	a := runWith(t, spec.DefaultA)
	b := runWith(t, spec.DefaultB)
	two := runWith(t, string(TwoChunks))
	ua, ub, u2 := metric(t, a, MetricUpdate), metric(t, b, MetricUpdate), metric(t, two, MetricUpdate)
	dev := func(got, want float64) float64 { return 100 * (got - want) / want }
	t.Logf("juno-r2 4 MiB: coherent %.2f us (published %.2f, calibrated); merged %.2f us (published %.2f, %+.1f %%); patch %.2f us (published %.2f, %+.1f %%); ratio %.3f (published %.2f)",
		ua, FigureCoherentUS, ub, FigureMergedUS, dev(ub, FigureMergedUS), u2, FigureCachedUS, dev(u2, FigureCachedUS), ua/ub, FigureRatio)
	t.Logf("B breakdown: stop %.2f us, sync %.2f us, copy %.2f us", metric(t, b, "stop_us"), metric(t, b, "sync_us"), metric(t, b, "copy_us"))
	assert.InDelta(t, ub, metric(t, b, "stop_us")+metric(t, b, "sync_us")+metric(t, b, "barrier_us")+metric(t, b, "copy_us"), 0.01, "B's parts do not add up")
	require.Len(t, spec.References, 4, "%d references, want 4", len(spec.References))
	for _, ref := range spec.References {
		var got float64
		switch ref.Policy {
		case string(Coherent):
			got = ua
			assert.Equal(t, []string{"dram.latency"}, ref.Fitted, "the coherent figure is the calibrated one")
			assert.True(t, ref.Within(got), "calibrated figure %.3f, simulated %.3f", ref.Value, got)
		case string(WholeWhenFull):
			got = ub
			assert.Equal(t, FigureMergedUS, ref.Value)
		case string(TwoChunks):
			got = u2
			assert.Equal(t, FigureCachedUS, ref.Value)
		case "":
			var ok bool
			got, ok = ref.Pair.Of(ua, ub)
			require.True(t, ok, "pair reference %+v", ref)
			require.EqualValues(t, scenario.PairRatio, ref.Pair, "pair reference %+v", ref)
		default:
			require.FailNow(t, fmt.Sprintf("reference for policy %q", ref.Policy))
		}
		if ref.Policy != string(Coherent) {
			assert.Equal(t, scenario.Prediction, ref.Kind(), "%q is a prediction: nothing is fitted to it", ref.Policy)
		}
		assert.Positive(t, got, "reference %+v", ref)
		assert.EqualValues(t, MetricUpdate, ref.Metric, "reference %+v", ref)
		assert.NotEqualValues(t, "", ref.Source, "reference %+v", ref)
		assert.EqualValues(t, 0.10, ref.Tolerance, "reference %+v", ref)
	}
	// The figure is a correct comparison: nothing stale, nothing lost,
	// 4 MiB synced and copied.
	for _, r := range []*scenario.Result{a, b, two} {
		assert.EqualValues(t, 0, metric(t, r, MetricStale), "%s: stale %v lost %v", r.Policy, metric(t, r, MetricStale), metric(t, r, MetricLost))
		assert.EqualValues(t, 0, metric(t, r, MetricLost), "%s: stale %v lost %v", r.Policy, metric(t, r, MetricStale), metric(t, r, MetricLost))
		assert.EqualValues(t, 4<<20, metric(t, r, "copied_bytes"), "%s: copied %v truncated %v", r.Policy, metric(t, r, "copied_bytes"), metric(t, r, MetricTruncated))
		assert.EqualValues(t, 0, metric(t, r, MetricTruncated), "%s: copied %v truncated %v", r.Policy, metric(t, r, "copied_bytes"), metric(t, r, MetricTruncated))
	}
	assert.EqualValues(t, 4<<20, metric(t, b, "synced_bytes"), "B synced %v bytes with %v DC ops and %v DSBs", metric(t, b, "synced_bytes"), metric(t, b, "dc_ops"), metric(t, b, "dsb_count"))
	assert.EqualValues(t, 65536, metric(t, b, "dc_ops"), "B synced %v bytes with %v DC ops and %v DSBs", metric(t, b, "synced_bytes"), metric(t, b, "dc_ops"), metric(t, b, "dsb_count"))
	assert.EqualValues(t, 1, metric(t, b, "dsb_count"), "B synced %v bytes with %v DC ops and %v DSBs", metric(t, b, "synced_bytes"), metric(t, b, "dc_ops"), metric(t, b, "dsb_count"))
	assert.False(t, metric(t, a, "bus_read_nc") < 262144, "A: %v NC reads, %v DC ops", metric(t, a, "bus_read_nc"), metric(t, a, "dc_ops"))
	assert.EqualValues(t, 0, metric(t, a, "dc_ops"), "A: %v NC reads, %v DC ops", metric(t, a, "bus_read_nc"), metric(t, a, "dc_ops"))
}
