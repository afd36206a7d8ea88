package app

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// Request is the run the current setting needs: the scenario, the
// parameters (a private copy) and both policies, with the results it can
// keep. A side whose key (RunKey: scenario, policy, parameters and board)
// matches a result already shown keeps that result and is not simulated
// again, so a change to B alone re-runs B only and swapping A and B re-runs
// nothing.
type Request struct {
	Scenario scenario.Scenario
	Params   scenario.Params
	Policy   [2]string
	Key      [2]string
	// Keep holds the result kept for a side, nil for a side to simulate.
	Keep [2]*scenario.Result
}

// Sides says which sides the request simulates.
func (r Request) Sides() [2]bool { return [2]bool{r.Keep[0] == nil, r.Keep[1] == nil} }

// RunKey is what a side's result depends on: the scenario, the policy and
// every parameter (the board is the "preset" parameter and the hw.* keys),
// in name order.
func RunKey(scenarioID, policy string, p scenario.Params) string {
	names := make([]string, 0, len(p))
	for n := range p {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(scenarioID + "&" + policy)
	for _, n := range names {
		b.WriteString("&" + n + "=" + p[n].Text)
	}
	return b.String()
}

// Plan returns the run the current setting needs.
func (a *App) Plan() (Request, error) {
	s, p, err := a.setting()
	if err != nil {
		return Request{}, err
	}
	r := Request{Scenario: s, Params: p, Policy: [2]string{a.State.A, a.State.B}}
	have := [2]*scenario.Result{a.A, a.B}
	for side, pol := range r.Policy {
		r.Key[side] = RunKey(s.Spec().ID, pol, p)
		for i, k := range a.keys {
			if k != "" && k == r.Key[side] && have[i] != nil {
				r.Keep[side] = have[i]
			}
		}
	}
	return r, nil
}

// Run simulates the sides the request does not keep, under ctx (canceling
// it stops the run with scenario.ErrCanceled); both sides together go
// through scenario.RunPair (a scenario may share work between them). hook,
// if not nil, hears the side (0 = A, 1 = B) and the fraction of it done, at
// least once before each side it simulates; it is where the page gives way
// and shows the progress.
func (r Request) Run(ctx context.Context, hook func(side int, done float64) error) (ra, rb *scenario.Result, err error) {
	// A model bug must not take the page down with it (a panic in
	// WebAssembly ends the program): report it as a failed run.
	defer func() {
		if p := recover(); p != nil {
			ra, rb, err = nil, nil, fmt.Errorf("internal error in scenario %s: %v", r.Scenario.Spec().ID, p)
		}
	}()
	pacer := func(i int) *scenario.Pacer {
		if hook == nil {
			return nil
		}
		return scenario.NewPacer(func(done float64) error { return hook(i, done) })
	}
	switch sides := r.Sides(); {
	case sides[0] && sides[1]:
		return scenario.RunPair(ctx, r.Scenario, r.Params, r.Policy[0], r.Policy[1], pacer(0), pacer(1))
	case sides[0]:
		ra, err = scenario.RunSide(ctx, r.Scenario, r.Params, 0, r.Policy[0], pacer(0))
		rb = r.Keep[1]
	case sides[1]:
		rb, err = scenario.RunSide(ctx, r.Scenario, r.Params, 1, r.Policy[1], pacer(1))
		ra = r.Keep[0]
	default:
		ra, rb = r.Keep[0], r.Keep[1]
	}
	if err != nil {
		return nil, nil, err
	}
	return ra, rb, nil
}

// SetResults takes the outcome of a run of req (the runner has dropped a
// superseded one). A failure clears the earlier results (the metrics,
// hazards and stage then agree that there is nothing current to show) and
// the field the message names, if any, shows it too; success clears that.
func (a *App) SetResults(req Request, ra, rb *scenario.Result, err error) {
	if a.runErrParam != "" {
		delete(a.Errors, a.runErrParam)
		a.runErrParam = ""
	}
	if err != nil {
		a.A, a.B, a.keys = nil, nil, [2]string{}
		a.fieldError(err.Error())
		return
	}
	a.A, a.B, a.keys = ra, rb, req.Key
}

// fieldError shows a run error beside the field it names. Model errors
// name their parameter first ("buffer: ..."), after the side prefix
// Request.Run adds.
func (a *App) fieldError(msg string) {
	if a.Spec == nil {
		return
	}
	for _, d := range a.Spec.Params {
		if i := strings.Index(msg, d.Name+": "); i >= 0 && (i == 0 || msg[i-1] == ' ') {
			a.Errors[d.Name] = msg[i:]
			a.runErrParam = d.Name
			return
		}
	}
	// A board the machine refused: the value the user set that it names
	// ("l2.size: ..." or "hw.l2.size: ...").
	for _, k := range a.hardwareKeys() {
		path := strings.TrimPrefix(k, scenario.HardwarePrefix)
		if i := strings.Index(msg, path+": "); i >= 0 && (i == 0 || msg[i-1] == ' ' || msg[i-1] == '.') {
			a.Errors[k] = k + msg[i+len(path):]
			a.runErrParam = k
			return
		}
	}
}

// setting is the current scenario and a private copy of its parameters
// (a run reads them in another goroutine while the panel edits its own).
func (a *App) setting() (scenario.Scenario, scenario.Params, error) {
	s, err := a.Registry.Get(a.State.Scenario)
	if err != nil {
		return nil, nil, err
	}
	p := make(scenario.Params, len(a.State.Params))
	for k, v := range a.State.Params {
		p[k] = v
	}
	return s, p, nil
}
