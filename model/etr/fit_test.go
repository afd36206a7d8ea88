package etr

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/sim"
)

// coherentAt is the coherent policy's tmc_update_etr_buffer time at the
// scenario's defaults on juno-r2 with dram.latency lat.
func coherentAt(t testing.TB, lat sim.Time) float64 {
	t.Helper()
	spec := New().Spec()
	p, err := spec.Defaults()
	require.NoError(t, err)
	c, err := parse(spec, p)
	require.NoError(t, err)
	require.Equal(t, "juno-r2", c.preset)
	c.hw.DRAM.Latency = lat
	pol, err := LookupPolicy(string(Coherent))
	require.NoError(t, err)
	r, err := newRun(c, pol)
	require.NoError(t, err)
	require.NoError(t, r.simulate())
	return metric(t, r.result(), MetricUpdate)
}

// fitJunoDRAMLatency solves coherentAt(lat) = FigureCoherentUS for lat by
// the secant method (the time is close to linear in the latency: NC reads
// nc.inflight at a time, each a DRAM round trip), to 1 ps.
func fitJunoDRAMLatency(t testing.TB) sim.Time {
	x0, x1 := 100*sim.Nanosecond, 150*sim.Nanosecond
	f0, f1 := coherentAt(t, x0)-FigureCoherentUS, coherentAt(t, x1)-FigureCoherentUS
	for i := 0; i < 8 && math.Abs(f1) > 0.005; i++ {
		x2 := x1 - sim.Time(math.Round(f1*float64(x1-x0)/(f1-f0)))
		if x2 == x1 {
			break
		}
		x0, f0 = x1, f1
		x1, f1 = x2, coherentAt(t, x2)-FigureCoherentUS
	}
	return x1
}

// juno-r2's one fitted parameter, dram.latency, is the solution of its
// own figure: the coherent time 8148.32 us. The test fails when a change
// to the model moves the coherent time; the parameter is then solved
// again (never another one adjusted).
func TestJunoR2DRAMLatencyFit(t *testing.T) {
	hw, err := platform.Lookup("juno-r2")
	require.NoError(t, err)
	lat := fitJunoDRAMLatency(t)
	got := coherentAt(t, hw.DRAM.Latency)
	t.Logf("dram.latency: preset %d ps, solved %d ps; coherent %.3f us (published %.2f)", int64(hw.DRAM.Latency), int64(lat), got, FigureCoherentUS)
	require.InDelta(t, float64(lat), float64(hw.DRAM.Latency), 2, "juno-r2 dram.latency %v is not the fit %v to the coherent figure: solve again", hw.DRAM.Latency, lat)
	require.InDelta(t, FigureCoherentUS, got, 0.2, "coherent time at the preset's dram.latency")
}
