package trace

import (
	"github.com/dmaviz/dmaviz/model/timeline"
)

// sample is one counter value at a time in nanoseconds.
type sample struct {
	t int64
	v float64
}

// series is one counter track.
type series struct {
	name   string
	cat    string // "value" (a level) or "cumulative" (never decreases)
	points []sample
}

// counterSeries derives the counter tracks from the timeline: each named
// value as it changed (a pointer in bytes from its grid's base); per grid
// and cell state the bytes updated to that state so far (cumulative: each
// cell update adds its cells' bytes); and the machine's PMU and model
// counters where the scenario sampled them. Series are in the timeline's
// declaration order, so the output is deterministic.
func counterSeries(tl *timeline.Timeline) []series {
	var out []series
	valueIdx := make([]int, len(tl.Values))
	for i, v := range tl.Values {
		valueIdx[i] = len(out)
		name := v.Label
		if name == "" {
			name = v.ID
		}
		if v.Kind == timeline.ValuePointer {
			name += " (offset, B)"
		}
		s := series{name: name, cat: "value"}
		if len(tl.Keyframes) > 0 && i < len(tl.Keyframes[0].State.Values) {
			s.points = append(s.points, sample{0, float64(valueScale(tl, i) * tl.Keyframes[0].State.Values[i])})
		}
		out = append(out, s)
	}
	// Cumulative bytes per (grid, state), created on first use in the
	// order of the states' constants.
	cum := make([][timeline.NumCellStates]int, len(tl.Grids))
	totals := make([][timeline.NumCellStates]int64, len(tl.Grids))
	for g := range cum {
		for st := range cum[g] {
			cum[g][st] = -1
		}
	}
	var cumOrder []series
	for _, e := range tl.Events {
		t := ns(e.T)
		switch e.Kind {
		case timeline.EvValue:
			if int(e.Obj) >= 0 && int(e.Obj) < len(tl.Values) {
				s := &out[valueIdx[e.Obj]]
				s.points = appendSample(s.points, sample{t, float64(valueScale(tl, int(e.Obj)) * e.A)})
			}
		case timeline.EvCells:
			g, st := int(e.Obj), int(e.C&0xff)
			if g < 0 || g >= len(tl.Grids) || st >= int(timeline.NumCellStates) || e.B <= 0 {
				continue
			}
			if cum[g][st] < 0 {
				cum[g][st] = len(cumOrder)
				cumOrder = append(cumOrder, series{name: tl.Grids[g].ID + ": bytes " + timeline.CellState(st).String() + " (cumulative)",
					cat: "cumulative", points: []sample{{0, 0}}})
			}
			totals[g][st] += e.B * tl.Grids[g].CellBytes
			s := &cumOrder[cum[g][st]]
			s.points = appendSample(s.points, sample{t, float64(totals[g][st])})
		}
	}
	out = append(out, cumOrder...)
	// The machine's counters as sampled during the run, counted from the
	// first sample (the start of the recorded session).
	for _, c := range tl.Counters {
		if len(c.T) == 0 {
			continue
		}
		name := c.Group + ": " + c.Name
		if c.Unit != "" {
			name += " (" + c.Unit + ")"
		}
		s := series{name: name, cat: "cumulative"}
		for i := range c.T {
			s.points = appendSample(s.points, sample{ns(c.T[i]), c.V[i] - c.V[0]})
		}
		out = append(out, s)
	}
	return out
}

// appendSample adds p, replacing the last sample when it is at the same
// nanosecond (the trace shows one value per instant) and skipping a value
// that did not change.
func appendSample(ps []sample, p sample) []sample {
	if n := len(ps); n > 0 {
		if ps[n-1].t == p.t {
			ps[n-1].v = p.v
			if n > 1 && ps[n-2].v == p.v {
				return ps[:n-1]
			}
			return ps
		}
		if ps[n-1].v == p.v {
			return ps
		}
	}
	return append(ps, p)
}

// valueScale turns a pointer (in cells) into bytes.
func valueScale(tl *timeline.Timeline, i int) int64 {
	v := tl.Values[i]
	if v.Kind == timeline.ValuePointer && v.Grid >= 0 && v.Grid < len(tl.Grids) {
		return tl.Grids[v.Grid].CellBytes
	}
	return 1
}

// thin keeps at most n samples: the last sample of each of n-1 equal time
// buckets over [0, end], plus the first. For a cumulative series the kept
// values still never decrease, and the final value is kept.
func thin(ps []sample, n int, end int64) []sample {
	if len(ps) <= n || n < 2 {
		return ps
	}
	end = max(end, ps[len(ps)-1].t, 1)
	buckets := int64(n - 1)
	out := []sample{ps[0]}
	for i := 1; i < len(ps); i++ {
		b := ps[i].t * buckets / (end + 1)
		last := i == len(ps)-1
		nb := b
		if !last {
			nb = ps[i+1].t * buckets / (end + 1)
		}
		if last || nb != b {
			if out[len(out)-1].t == ps[i].t {
				out[len(out)-1] = ps[i]
			} else {
				out = append(out, ps[i])
			}
		}
	}
	return out
}
