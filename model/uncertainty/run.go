package uncertainty

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sweep"
)

// Options are how the runs go: Workers in parallel (1 in the page),
// Progress after each pair run (done and total, in single runs: two per
// pair), and the sweep's BeforeRun and Pace hooks for a single-threaded
// caller.
type Options struct {
	Workers   int
	Progress  func(done, total int)
	BeforeRun func()
	Pace      func(done float64) error
}

// Band is one figure's value and range.
type Band struct {
	Target
	Value     float64 // at the nominal setting
	Low, High float64
	// Dominant is the parameter (or Rest) whose ends alone moved the
	// figure most; "" when nothing moved it.
	Dominant string
	// Outside says the published value of a prediction, at the setting it
	// was measured at, lies outside [Low, High]: a finding. (A calibrated
	// figure's band holds its fitted parameters at their solved values, so
	// its residual from the fit says nothing.)
	Outside bool
}

// Effect is one knob's (or the rest's) runs: each figure at its low and
// its high end, and why an end did not run.
type Effect struct {
	Path      string // a knob's path, or Rest
	Low, High []float64
	LowErr    string
	HighErr   string
	// None says neither end changed any figure.
	None bool
}

// Result is an uncertainty run.
type Result struct {
	Plan    *Plan
	Bands   []Band
	Effects []Effect
	// Combined notes a combined extreme that did not run.
	Combined []string
	Runs     int
	// Published says the run is at the setting the published figures were
	// measured at (their values apply).
	Published bool
}

// Run runs the plan for the pair a, b of s at params (full, validated)
// and returns each target's band.
func Run(ctx context.Context, s scenario.Scenario, params scenario.Params, a, b string, opt Options) (*Result, error) {
	spec := s.Spec()
	plan, err := NewPlan(spec, params, a, b)
	if err != nil {
		return nil, err
	}
	req := sweep.Request{Scenario: s, Base: params, A: a, B: b, BeforeRun: opt.BeforeRun, Pace: opt.Pace}
	total := 2 * plan.Runs()
	done := 0
	progress := func(d, _ int) {
		if opt.Progress != nil {
			opt.Progress(done+d, total)
		}
	}
	// One batch: nominal, each knob alone at both ends, the rest at both.
	sets := []scenario.Params{{}}
	for i := range plan.Alone {
		k := &plan.Alone[i]
		sets = append(sets, at(k.Low, *k), at(k.High, *k))
	}
	if len(plan.Together) > 0 {
		sets = append(sets, at(math.Inf(-1), plan.Together...), at(math.Inf(1), plan.Together...))
	}
	pts, errs, err := sweep.RunSets(ctx, req, sets, opt.Workers, progress)
	if err != nil {
		return nil, err
	}
	done += 2 * len(sets)
	if errs[0] != nil {
		return nil, fmt.Errorf("the nominal run: %w", errs[0])
	}
	res := &Result{Plan: plan, Runs: len(sets)}
	nominal := values(plan.Targets, spec, &pts[0])
	names := make([]string, 0, len(plan.Alone)+1)
	for _, k := range plan.Alone {
		names = append(names, k.Path)
	}
	if len(plan.Together) > 0 {
		names = append(names, Rest)
	}
	for i, name := range names {
		lo, hi := 1+2*i, 2+2*i
		e := Effect{Path: name, Low: values(plan.Targets, spec, &pts[lo]), High: values(plan.Targets, spec, &pts[hi])}
		e.LowErr, e.HighErr = errText(errs[lo]), errText(errs[hi])
		if errs[lo] != nil {
			e.Low = nil
		}
		if errs[hi] != nil {
			e.High = nil
		}
		e.None = same(e.Low, nominal) && same(e.High, nominal)
		res.Effects = append(res.Effects, e)
	}
	combined, extremes := plan.combined(nominal, res.Effects)
	cpts, cerrs, err := sweep.RunSets(ctx, req, combined, opt.Workers, progress)
	if err != nil {
		return nil, err
	}
	res.Runs += len(combined)
	var cvals [][]float64
	for i := range cpts {
		if cerrs[i] != nil {
			res.Combined = append(res.Combined, extremes[i]+": "+cerrs[i].Error())
			continue
		}
		cvals = append(cvals, values(plan.Targets, spec, &cpts[i]))
	}
	res.Published = spec.AtDefaults(params)
	res.Bands = bands(plan.Targets, nominal, res.Effects, cvals, res.Published)
	return res, nil
}

// at is a parameter set with each knob at v's end: -Inf its low, +Inf
// its high, else v itself.
func at(v float64, ks ...Knob) scenario.Params {
	p := scenario.Params{}
	for i := range ks {
		x := v
		switch {
		case math.IsInf(v, -1):
			x = ks[i].Low
		case math.IsInf(v, 1):
			x = ks[i].High
		}
		ks[i].set(p, x)
	}
	return p
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func same(a, b []float64) bool {
	if a == nil {
		return true // did not run: no evidence of an effect
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// values reads each target's figure from a point (NaN where the point
// has no such metric).
func values(ts []Target, spec *scenario.Spec, p *sweep.Point) []float64 {
	out := make([]float64, len(ts))
	for i, t := range ts {
		va, okA := p.A.Metric(t.Metric)
		vb, okB := p.B.Metric(t.Metric)
		v, ok := math.NaN(), false
		switch t.Side {
		case "A":
			v, ok = va, okA
		case "B":
			v, ok = vb, okB
		default:
			if p.A.Policy == spec.DefaultB { // the default pair swapped
				va, vb = vb, va
			}
			if okA && okB {
				v, ok = t.Pair.Of(va, vb)
			}
		}
		if !ok {
			v = math.NaN()
		}
		out[i] = v
	}
	return out
}

// member is a knob's (or the rest's) contribution to one figure.
type member struct {
	knob   int // index into Alone, or -1 for the rest
	effect float64
	lo, hi float64 // the figure at the member's low and high end (NaN: did not run)
}

// end is the end of m that moves the figure down (or up) from nominal
// most: -Inf for its low end, +Inf for its high end; ok is false when
// neither does.
func (m *member) end(nominal float64, down bool) (float64, bool) {
	best, end := nominal, 0.0
	for _, c := range []struct{ v, end float64 }{{m.lo, math.Inf(-1)}, {m.hi, math.Inf(1)}} {
		if math.IsNaN(c.v) {
			continue
		}
		if down && c.v < best || !down && c.v > best {
			best, end = c.v, c.end
		}
	}
	return end, end != 0
}

// combined builds, for each figure, the set that moves every member that
// lowered it (the combineTop that moved it most) to its end that lowered
// it, and likewise upward. A set of one member is that member's own run,
// and a set already built is not repeated.
func (p *Plan) combined(nominal []float64, effects []Effect) ([]scenario.Params, []string) {
	var sets []scenario.Params
	var names []string
	seen := map[string]bool{}
	for t := range p.Targets {
		ms := p.members(t, nominal[t], effects)
		for _, down := range []bool{true, false} {
			set, key, n := scenario.Params{}, "", 0
			for _, m := range ms {
				end, ok := m.end(nominal[t], down)
				if !ok {
					continue
				}
				part := at(end, p.Together...)
				if m.knob >= 0 {
					part = at(end, p.Alone[m.knob])
				}
				for k, v := range part {
					set[k] = v
				}
				key += fmt.Sprintf("%d%v ", m.knob, end)
				n++
			}
			if n < 2 || seen[key] {
				continue
			}
			seen[key] = true
			dir := "up"
			if down {
				dir = "down"
			}
			sets = append(sets, set)
			names = append(names, fmt.Sprintf("%s %s %s combined", p.Targets[t].Metric, p.Targets[t].Side, dir))
		}
	}
	return sets, names
}

// members lists the knobs (and the rest) that moved figure t, largest
// effect first, at most combineTop.
func (p *Plan) members(t int, nominal float64, effects []Effect) []member {
	var ms []member
	for i, e := range effects {
		m := member{knob: i, lo: math.NaN(), hi: math.NaN()}
		if i >= len(p.Alone) {
			m.knob = -1
		}
		if e.Low != nil {
			m.lo = e.Low[t]
		}
		if e.High != nil {
			m.hi = e.High[t]
		}
		for _, v := range []float64{m.lo, m.hi} {
			if !math.IsNaN(v) {
				m.effect = math.Max(m.effect, math.Abs(v-nominal))
			}
		}
		if m.effect > 0 {
			ms = append(ms, m)
		}
	}
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].effect > ms[j].effect })
	if len(ms) > combineTop {
		ms = ms[:combineTop]
	}
	return ms
}

// bands takes each figure's range over every run that ran and names the
// parameter whose ends alone spread it most; published figures are
// compared with their band only at the setting they were measured at.
func bands(ts []Target, nominal []float64, effects []Effect, combined [][]float64, published bool) []Band {
	out := make([]Band, len(ts))
	for t := range ts {
		b := Band{Target: ts[t], Value: nominal[t], Low: nominal[t], High: nominal[t]}
		widen := func(v float64) {
			if !math.IsNaN(v) {
				b.Low, b.High = math.Min(b.Low, v), math.Max(b.High, v)
			}
		}
		spread := 0.0
		for _, e := range effects {
			lo, hi := nominal[t], nominal[t]
			for _, vs := range [][]float64{e.Low, e.High} {
				if vs != nil && !math.IsNaN(vs[t]) {
					widen(vs[t])
					lo, hi = math.Min(lo, vs[t]), math.Max(hi, vs[t])
				}
			}
			if hi-lo > spread {
				spread, b.Dominant = hi-lo, e.Path
			}
		}
		for _, vs := range combined {
			widen(vs[t])
		}
		if r := ts[t].Ref; r != nil && published && r.Kind() == scenario.Prediction {
			b.Outside = r.Value < b.Low || r.Value > b.High
		}
		out[t] = b
	}
	return out
}
