package app

import (
	"context"
	"time"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/site/control"
)

// Locker is the panel's lock (vugu.EventEnv): the runs change App under
// Lock and ask for a render with UnlockRender.
type Locker interface {
	Lock()
	UnlockRender()
}

// GateWait is the longest the first run waits for Runs.Gate.
const GateWait = time.Second

// Runs turns a change of setting into runs: it plans what the setting
// needs (only the sides whose key changed), hands the work to the
// controller's runner (the one owner of a run's number, side, progress,
// error and cancel, for the main runs and the headline sweep alike) and
// delivers the outcome into App and the player. Start is called from the
// panel's goroutine, holding its lock.
type Runs struct {
	App *App
	Ctl *control.Controller
	Env Locker
	// Gate, if not nil, holds the first run until it is closed (the
	// stage's first frame: the two would share the page's thread, and the
	// frame needs no results), at most GateWait.
	Gate <-chan struct{}
	// Prepare, if not nil, readies a new result for the stage between
	// slices of the run's work rather than in its first frame.
	Prepare func(*scenario.Result)
	// Ended, if not nil, hears every main run's end; First the first
	// results shown.
	Ended, First func()
	// Bands, if not nil, computes the error bars (StartBands).
	Bands BandsRun

	shown bool
}

// Start runs what the current setting needs, superseding the run in
// progress. A setting that needs no simulation (A and B swapped) still
// goes through the runner, which then only delivers the kept results.
func (r *Runs) Start() {
	req, err := r.App.Plan()
	if err != nil {
		r.ended()
		r.App.SetResults(req, nil, nil, err)
		r.Ctl.SetRunError(err.Error())
		return
	}
	gate := r.Gate
	r.Gate = nil
	r.Ctl.StartRunSides(req.Sides(), func(ctx context.Context, hook func(int, float64) error) func(bool) {
		if gate != nil {
			select {
			case <-gate:
			case <-ctx.Done():
			case <-time.After(GateWait):
			}
		}
		ra, rb, err := req.Run(ctx, hook)
		if err == nil && r.Prepare != nil {
			for side, res := range [2]*scenario.Result{ra, rb} {
				if req.Sides()[side] && ctx.Err() == nil {
					_ = hook(side, 1) // give way between the two
					r.Prepare(res)
				}
			}
		}
		return func(show bool) { r.deliver(req, ra, rb, err, show) }
	})
}

func (r *Runs) ended() {
	if r.Ended != nil {
		r.Ended()
	}
}

// deliver shows a run's outcome, unless it was canceled or superseded
// (the previous results then stay).
func (r *Runs) deliver(req Request, ra, rb *scenario.Result, err error, show bool) {
	r.ended()
	if !show || control.Canceled(err) {
		return
	}
	r.Env.Lock()
	r.App.SetResults(req, ra, rb, err)
	r.Env.UnlockRender()
	if err != nil {
		r.Ctl.SetRunError(err.Error())
		return
	}
	r.Ctl.SetResults(ra, rb)
	r.startHeadline()
	if !r.shown {
		r.shown = true
		if r.First != nil {
			r.First()
		}
	}
}

// startHeadline computes the scenario's headline chart for the current
// setting through the runner, after the main run, if it is not already
// drawn; a newer run cancels it (and its chart is due again).
func (r *Runs) startHeadline() {
	r.Env.Lock()
	req, ok := r.App.NextHeadline()
	r.Env.UnlockRender()
	if !ok {
		return
	}
	r.Ctl.StartSweep(func(ctx context.Context, hook func(int, float64) error) func(bool) {
		var done float64
		ch, err := req.Run(ctx, func() { _ = hook(0, done) }, func(d float64) error { done = d; return hook(0, d) })
		return func(show bool) {
			canceled := !show || control.Canceled(err)
			if err != nil && !canceled {
				r.Ctl.SetSweepError(err.Error())
			}
			r.Env.Lock()
			r.App.SetHeadline(req.Key, ch, canceled)
			r.Env.UnlockRender()
		}
	})
}
