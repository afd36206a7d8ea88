package sweep

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// Request is one sweep: a scenario, the fixed parameters, the A and B
// policies and one or two varied parameters.
type Request struct {
	Scenario scenario.Scenario
	// Base holds the fixed parameters (validated; a varied parameter's
	// value here is replaced at every point).
	Base scenario.Params
	A, B string
	Axes []Axis
	// BeforeRun, if set, is called by the worker before each run (two per
	// point, A then B): the page yields its only thread there.
	BeforeRun func()
	// Pace, if set, is the hook of the scenario.Pacer each run gives way
	// through: the page parks the run there so it never holds the event
	// loop long. Cancel the sweep's context to stop it (an error Pace
	// returns stops the run as well).
	Pace func(done float64) error
}

// Side is what one policy produced at one point: its metrics and checks
// (the timeline is dropped, so a sweep's memory is its table).
type Side struct {
	Policy  string
	Metrics []scenario.Metric
	Checks  []scenario.Metric
}

// Point is one grid point: the varied values (one per axis) and both sides.
type Point struct {
	Values []scenario.Value
	Params scenario.Params
	A, B   Side
}

// Table is a finished sweep, points in grid order: the first axis varies
// slowest.
type Table struct {
	Spec   *scenario.Spec
	Base   scenario.Params
	A, B   string
	Axes   []Axis
	Points []Point
}

// Validate checks the request's shape without running anything.
func (r *Request) Validate() error {
	if r.Scenario == nil {
		return fmt.Errorf("sweep: no scenario")
	}
	if len(r.Axes) == 0 || len(r.Axes) > MaxAxes {
		return fmt.Errorf("--vary: give one or two parameters to vary, got %d", len(r.Axes))
	}
	if len(r.Axes) == 2 && r.Axes[0].Param.Name == r.Axes[1].Param.Name {
		return fmt.Errorf("--vary %s: given twice", r.Axes[0].Param.Name)
	}
	n := 1
	for _, ax := range r.Axes {
		if len(ax.Values) == 0 {
			return fmt.Errorf("--vary %s: no values", ax.Param.Name)
		}
		n *= len(ax.Values)
	}
	if n > MaxPoints {
		return fmt.Errorf("--vary: %d points; allowed at most %d", n, MaxPoints)
	}
	return nil
}

// points lists the grid's parameter sets, first axis slowest.
func (r *Request) points() []Point {
	var out []Point
	var rec func(i int, vals []scenario.Value)
	rec = func(i int, vals []scenario.Value) {
		if i == len(r.Axes) {
			p := make(scenario.Params, len(r.Base)+len(r.Axes))
			for k, v := range r.Base {
				p[k] = v
			}
			for j, ax := range r.Axes {
				p[ax.Param.Name] = vals[j]
			}
			out = append(out, Point{Values: append([]scenario.Value(nil), vals...), Params: p})
			return
		}
		for _, v := range r.Axes[i].Values {
			rec(i+1, append(vals, v))
		}
	}
	rec(0, nil)
	return out
}

// Run runs every point's A and B on up to workers goroutines (at least
// one) and returns the table in grid order. Each point is a job of its own
// (its pair runs as scenario.RunPair, so sides that share work share it),
// and jobs start from the end of the grid: a range usually grows in cost
// along the grid, so the longest runs start first and do not trail alone
// at the end. progress, if set, is called after each finished point with
// the count of runs done and the total (two per point), from one
// goroutine at a time. Run returns as soon as ctx is done, with ctx's
// error and no table; runs already started stop at their next pacing
// point and are discarded. The first failing run in grid order is the
// error.
func Run(ctx context.Context, req Request, workers int, progress func(done, total int)) (*Table, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	spec := req.Scenario.Spec()
	pts := req.points()
	errs, err := runPoints(ctx, req, pts, workers, progress)
	if err != nil {
		return nil, err
	}
	for j, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("%s: %w", pointName(req.Axes, pts[j].Values), err)
		}
	}
	return &Table{Spec: spec, Base: req.Base, A: req.A, B: req.B, Axes: req.Axes, Points: pts}, nil
}

// RunSets runs A and B at each parameter set (merged over req.Base;
// req.Axes is not used) as Run runs a grid's points, in parallel on up to
// workers goroutines, and returns the points in the order of sets with
// each one's error (nil when it ran): a set the scenario refuses does not
// stop the others. Only ctx being done is an error of the whole.
func RunSets(ctx context.Context, req Request, sets []scenario.Params, workers int, progress func(done, total int)) ([]Point, []error, error) {
	if req.Scenario == nil {
		return nil, nil, fmt.Errorf("sweep: no scenario")
	}
	pts := make([]Point, len(sets))
	for i, set := range sets {
		p := make(scenario.Params, len(req.Base)+len(set))
		for k, v := range req.Base {
			p[k] = v
		}
		for k, v := range set {
			p[k] = v
		}
		pts[i].Params = p
	}
	errs, err := runPoints(ctx, req, pts, workers, progress)
	if err != nil {
		return nil, nil, err
	}
	return pts, errs, nil
}

// runPoints runs every point's pair (see Run) and returns each point's
// error; the error of the whole is ctx's.
func runPoints(ctx context.Context, req Request, pts []Point, workers int, progress func(done, total int)) ([]error, error) {
	n := len(pts)
	if n == 0 {
		return nil, ctx.Err()
	}
	workers = max(1, min(workers, n))
	errs := make([]error, n)
	jobs := make(chan int)
	finished := make(chan int)
	for w := 0; w < workers; w++ {
		go func() {
			for j := range jobs {
				errs[j] = runPoint(ctx, req, &pts[j])
				select {
				case finished <- j:
				case <-ctx.Done():
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for j := n - 1; j >= 0; j-- {
			select {
			case jobs <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	for done := 0; done < n; done++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		select {
		case <-finished:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if progress != nil {
			progress(2*(done+1), 2*n)
		}
	}
	// Every job has reported, so errs and pts are complete.
	return errs, nil
}

// runPoint runs both sides of point p.
func runPoint(ctx context.Context, req Request, p *Point) error {
	ra, rb, err := scenario.RunPair(ctx, req.Scenario, p.Params, req.A, req.B, req.pacer(true), req.pacer(true))
	if se, ok := errors.AsType[*scenario.SideError](err); ok {
		return fmt.Errorf("%s: %w", se.Policy, se.Err)
	}
	if err != nil {
		return err
	}
	p.A, p.B = side(req.A, ra), side(req.B, rb)
	return nil
}

// runPolicy runs policy at params as the request's runs are run (its
// BeforeRun hook first, its pacer inside).
func runPolicy(ctx context.Context, req Request, params scenario.Params, policy string) (Side, error) {
	if req.BeforeRun != nil {
		req.BeforeRun()
	}
	if err := ctx.Err(); err != nil {
		return Side{}, err
	}
	res, err := req.Scenario.Run(ctx, params, policy, req.pacer(false))
	if err != nil {
		return Side{}, fmt.Errorf("%s: %w", policy, err)
	}
	return side(policy, res), nil
}

// pacer is the pacer of one run: nil when the request sets neither hook,
// else one calling Pace and, when before is set, BeforeRun on its first
// call (RunPair calls a side's pacer before the side starts).
func (r *Request) pacer(before bool) *scenario.Pacer {
	first := r.BeforeRun
	if !before {
		first = nil
	}
	if first == nil && r.Pace == nil {
		return nil
	}
	return scenario.NewPacer(func(done float64) error {
		if first != nil {
			first()
			first = nil
		}
		if r.Pace != nil {
			return r.Pace(done)
		}
		return nil
	})
}

// side keeps what a sweep shows of a run of policy: its metrics and checks.
func side(policy string, res *scenario.Result) Side {
	return Side{Policy: policy, Metrics: res.Metrics, Checks: res.Checks}
}

func pointName(axes []Axis, vals []scenario.Value) string {
	parts := make([]string, len(axes))
	for i, ax := range axes {
		parts[i] = ax.Param.Name + "=" + vals[i].Text
	}
	return strings.Join(parts, " ")
}

// Metric returns the named metric or check of a side.
func (s *Side) Metric(name string) (float64, bool) {
	for _, m := range s.Metrics {
		if m.Name == name {
			return m.Value, true
		}
	}
	for _, m := range s.Checks {
		if m.Name == name {
			return m.Value, true
		}
	}
	return 0, false
}

// columns lists every metric, then every check, that any side reports, in
// the order of first appearance along the grid (A before B).
func (t *Table) columns() (metrics, checks []scenario.Metric) {
	seen := map[string]bool{}
	for _, p := range t.Points {
		for _, s := range []*Side{&p.A, &p.B} {
			for _, m := range s.Metrics {
				if !seen[m.Name] {
					seen[m.Name] = true
					metrics = append(metrics, m)
				}
			}
		}
	}
	for _, p := range t.Points {
		for _, s := range []*Side{&p.A, &p.B} {
			for _, m := range s.Checks {
				if !seen[m.Name] {
					seen[m.Name] = true
					checks = append(checks, m)
				}
			}
		}
	}
	return metrics, checks
}
