package sgsync

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// simulateWith runs c under pol with and without extrapolation.
func simulateWith(t *testing.T, c config, pol string) (extra, full *scenario.Result, simulated int) {
	t.Helper()
	var res [2]*scenario.Result
	for i, f := range []bool{false, true} {
		c.fullSim = f
		r, err := setup(c, policyOf(pol), true)
		require.NoError(t, err)
		out, err := r.simulate()
		require.NoError(t, err)
		res[i] = r.result(out)
		if !f {
			simulated = out.simulated
		}
	}
	return res[0], res[1], simulated
}

// Iterations whose times wander (the SWIOTLB copies) and iterations capped
// by the work budget are extrapolated to within steadyTolerance of a full
// simulation; counts and checks match exactly, the CPU's cache counters
// within 3 %.
func TestSteadyAndCappedExtrapolationMatchFullSimulation(t *testing.T) {
	spec := New().Spec()
	for _, tc := range []struct {
		kv     []string
		budget int64 // 0: maxRunUnits
		most   int   // simulated at most
	}{
		{[]string{"total", "4MiB", "entry", "2KiB", "path", "swiotlb", "cpu", "writes", "direction", "bidirectional", "entry-offset", "4095", "iterations", "8"}, 0, 4},
		{[]string{"total", "1MiB", "entry", "2KiB", "path", "swiotlb", "iterations", "6"}, 1, 2},
		{[]string{"total", "1MiB", "cpu", "writes", "direction", "bidirectional", "entry-offset", "8", "iterations", "6"}, 1, 2},
		{[]string{"total", "1MiB", "path", "iommu", "mapping", "persistent", "iterations", "5"}, 1, 2},
		{[]string{"total", "1MiB", "path", "coherent", "direction", "to-device", "cpu", "none", "iterations", "5"}, 1, 2},
		{[]string{"total", "1MiB", "entry-mix", "mixed", "cpu", "reads", "direction", "to-device", "iterations", "5"}, 1, 2},
	} {
		for _, pol := range []string{PolicyPerEntry, PolicyBatched, PolicySkipUnmap} {
			c, err := parse(spec, params(t, tc.kv...))
			require.NoError(t, err)
			c.budget = tc.budget
			extra, full, simulated := simulateWith(t, c, pol)
			assert.LessOrEqual(t, simulated, tc.most, "%v %s: simulated iterations", tc.kv, pol)
			for _, m := range full.Metrics {
				got, _ := extra.Metric(m.Name)
				count := m.Group == "check" || strings.HasPrefix(m.Name, "dc_") || strings.HasSuffix(m.Name, "_dc_ops") ||
					strings.HasSuffix(m.Name, "dsb_count") || m.Name == "entries" || m.Name == "list_lines" || m.Name == "iterations"
				switch {
				case m.Name == "simulated_iterations":
				case count:
					assert.Equal(t, m.Value, got, "%v %s: %s", tc.kv, pol, m.Name)
				case m.Group == "time":
					assert.InDelta(t, m.Value, got, steadyTolerance*math.Abs(m.Value)+1e-9, "%v %s: %s", tc.kv, pol, m.Name)
				default: // PMU counters of the CPU's own reads: the prefetcher and L3 wander
					assert.InDelta(t, m.Value, got, 0.03*math.Abs(m.Value)+1, "%v %s: %s", tc.kv, pol, m.Name)
				}
			}
			for _, m := range full.Checks {
				got, _ := extra.Metric(m.Name)
				assert.Equal(t, m.Value, got, "%v %s: check %s", tc.kv, pol, m.Name)
			}
		}
	}
}

// A setting whose smallest simulation is over the budget is refused,
// naming total and a total that fits; that total is accepted.
func TestOverBudgetSettingIsRefusedWithATotalThatFits(t *testing.T) {
	s := New()
	heavy := []string{"total", "64MiB", "entry", "2KiB", "path", "swiotlb", "cpu", "writes", "direction", "bidirectional",
		"iterations", "100000", "entry-offset", "4095"}
	_, err := s.Run(t.Context(), params(t, heavy...), PolicyBatched, nil)
	require.Error(t, err)
	msg := err.Error()
	assert.True(t, strings.HasPrefix(msg, "total: "), msg)
	i := strings.Index(msg, "at most about ")
	require.Greater(t, i, 0, msg)
	fit := strings.Fields(msg[i+len("at most about "):])[0]
	c, err := parse(s.Spec(), params(t, append(heavy, "total", fit)...))
	require.NoError(t, err, "the total the message offers (%s)", fit)
	prior, per := lineOps(c)
	assert.LessOrEqual(t, prior+int64(minSimulated(c))*per, int64(maxRunUnits))
	assert.Greater(t, c.total, uint64(4<<20), "the offered total is not needlessly small")

	// The largest list stays allowed where each line is handled a few
	// times per transfer, and the default a tenth of it.
	for _, kv := range [][]string{{"total", "64MiB", "cpu", "none"}, {"total", "64MiB", "direction", "to-device", "cpu", "none", "entry", "2KiB"}, {"total", "30MiB"}} {
		_, err := parse(s.Spec(), params(t, kv...))
		assert.NoError(t, err, "%v", kv)
	}
}

// Where the two DSB policies do the same thing (SWIOTLB, a coherent device)
// the pair's B side reuses A's simulation; its result equals a run of its
// own.
func TestEquivalentPoliciesShareTheirSimulation(t *testing.T) {
	s := New()
	for _, path := range []string{"swiotlb", "coherent"} {
		p := params(t, "total", "256KiB", "path", path, "cpu", "writes", "iterations", "7")
		a, b, err := scenario.RunPair(t.Context(), s, p, PolicyPerEntry, PolicyBatched, nil, nil)
		require.NoError(t, err)
		assert.Same(t, a.Timeline, b.Timeline, "%s: the batched run was simulated again", path)
		assert.Equal(t, PolicyBatched, b.Policy)
		own, err := s.Run(t.Context(), p, PolicyBatched, nil)
		require.NoError(t, err)
		assert.Equal(t, own, b, "%s: the shared result differs from the policy's own run", path)
	}
	// On the direct path the policies differ: no sharing.
	p := params(t, "total", "256KiB")
	a, b, err := scenario.RunPair(t.Context(), s, p, PolicyPerEntry, PolicyBatched, nil, nil)
	require.NoError(t, err)
	assert.NotSame(t, a.Timeline, b.Timeline)
	assert.NotEqual(t, a.Metrics, b.Metrics)
	// Nor with a policy that changes what the machine does.
	p = params(t, "total", "256KiB", "path", "swiotlb")
	a, b, err = scenario.RunPair(t.Context(), s, p, PolicyBatched, PolicySkipUnmap, nil, nil)
	require.NoError(t, err)
	assert.NotSame(t, a.Timeline, b.Timeline)
	assert.Equal(t, PolicySkipUnmap, b.Policy)
}

// The budget counts what a run does once as well as per iteration: the
// CPU's earlier use and a persistent mapping's map and unmap.
func TestBudgetCountsThePersistentMapping(t *testing.T) {
	spec := New().Spec()
	stream, err := parse(spec, params(t, "total", "1MiB"))
	require.NoError(t, err)
	persist, err := parse(spec, params(t, "total", "1MiB", "mapping", "persistent"))
	require.NoError(t, err)
	ps, is := lineOps(stream)
	pp, ip := lineOps(persist)
	assert.Equal(t, is, ip, "the iterations do the same line operations")
	lines := int64(stream.total / blockBytes)
	assert.GreaterOrEqual(t, pp-ps, 2*lines, "the map's clean and the unmap's invalidate")
}
