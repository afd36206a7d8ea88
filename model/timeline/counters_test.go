package timeline

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/sim"
)

// Counter samples keep time order, replace a sample at the same instant,
// and stay bounded however many are taken, keeping the first and the
// latest.
func TestSampleCounters(t *testing.T) {
	r := NewRecorder()
	r.SampleCounters(10, []Counter{{Name: "a", Value: 1}, {Name: "b", Unit: "us", Group: "pmu", Value: 5}})
	r.SampleCounters(10, []Counter{{Name: "a", Value: 2}})
	r.SampleCounters(5, []Counter{{Name: "a", Value: 3}}) // late: kept at 10's time or after
	tl := r.Finish(20)
	require.Len(t, tl.Counters, 2)
	a := tl.Counters[0]
	assert.Equal(t, []sim.Time{10}, a.T)
	assert.Equal(t, []float64{3}, a.V)
	assert.Equal(t, CounterTrack{Name: "b", Unit: "us", Group: "pmu", T: []sim.Time{10}, V: []float64{5}}, tl.Counters[1])

	r = NewRecorder()
	const n = 10 * MaxCounterSamples
	for i := 0; i < n; i++ {
		r.SampleCounters(sim.Time(i), []Counter{{Name: "c", Value: float64(i)}})
	}
	c := r.Finish(n).Counters[0]
	assert.LessOrEqual(t, len(c.T), MaxCounterSamples)
	assert.Greater(t, len(c.T), MaxCounterSamples/4)
	assert.Equal(t, sim.Time(0), c.T[0])
	for i := 1; i < len(c.T); i++ {
		require.Greater(t, c.T[i], c.T[i-1])
		require.Equal(t, float64(c.T[i]), c.V[i])
	}
	assert.Equal(t, sim.Time(n-1), c.T[len(c.T)-1], "the latest sample is kept")
}
