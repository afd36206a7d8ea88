package timeline

import "github.com/dmaviz/dmaviz/model/sim"

// MaxCounterSamples bounds the samples a Recorder keeps per counter: when a
// track is full it keeps every other sample and from then on keeps samples
// at least twice as far apart (the latest sample is always kept).
const MaxCounterSamples = 4096

// CounterTrack is one counter (a PMU event such as l2d_cache_refill, or a
// model count) sampled during the recorded run, as the machine reports it
// (cumulative since the machine started). Invariant: T never decreases.
type CounterTrack struct {
	Name, Unit, Group string
	T                 []sim.Time
	V                 []float64
	minGap            sim.Time // kept samples are at least this far apart (after thinning)
}

// Counter is one counter's reading as the machine reports it: a PMU
// event under its Linux name or a model count, with its unit and group
// ("pmu", "model"), as the metrics name them.
type Counter struct {
	Name, Unit, Group string
	Value             float64
}

// SampleCounters records the values of ms at t, one track per name (in the
// order first seen). A sample at the same time as the previous one
// replaces it.
func (r *Recorder) SampleCounters(t sim.Time, ms []Counter) {
	for k, m := range ms {
		i := k // the same list every time: its place is its track
		if i >= len(r.tl.Counters) || r.tl.Counters[i].Name != m.Name {
			i = r.counterIndex(m)
		}
		c := &r.tl.Counters[i]
		n := len(c.T)
		if n > 0 && t < c.T[n-1] {
			t = c.T[n-1] // keep the invariant
		}
		if n > 0 && t == c.T[n-1] {
			c.V[n-1] = m.Value
			continue
		}
		if n > 1 && t-c.T[n-2] < c.minGap {
			// Too close to the sample before the last: move the last one
			// here, so the latest value is always kept.
			c.T[n-1], c.V[n-1] = t, m.Value
			continue
		}
		if n == MaxCounterSamples {
			k := 0
			for j := 0; j < n; j += 2 {
				c.T[k], c.V[k] = c.T[j], c.V[j]
				k++
			}
			c.T, c.V = c.T[:k], c.V[:k]
			c.minGap = max(2*c.minGap, (t-c.T[0])/MaxCounterSamples)
		}
		c.T = append(c.T, t)
		c.V = append(c.V, m.Value)
	}
}

func (r *Recorder) counterIndex(m Counter) int {
	if r.counterIdx == nil {
		r.counterIdx = map[string]int{}
	}
	if i, ok := r.counterIdx[m.Name]; ok {
		return i
	}
	r.tl.Counters = append(r.tl.Counters, CounterTrack{Name: m.Name, Unit: m.Unit, Group: m.Group})
	r.counterIdx[m.Name] = len(r.tl.Counters) - 1
	return len(r.tl.Counters) - 1
}
