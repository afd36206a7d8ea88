package app

import (
	"context"
	"fmt"

	"github.com/dmaviz/dmaviz/model/uncertainty"
	"github.com/dmaviz/dmaviz/report"
	"github.com/dmaviz/dmaviz/report/bands"
	"github.com/dmaviz/dmaviz/site/control"
)

// StartBands computes the error bars of the current setting through the
// runner, as the headline sweep is: after the run in progress, paced and
// given way like every run, dropped by a newer run or by
// Controller.CancelBands. It is called from the panel's event handler,
// holding the panel's lock.
func (r *Runs) StartBands() {
	req, ok := r.App.StartBands(r.Ctl.Run())
	if !ok {
		return
	}
	r.Ctl.StartBands(func(ctx context.Context, hook func(int, float64) error) func(bool) {
		var done, total int
		frac := func(d float64) float64 {
			if total == 0 {
				return 0
			}
			return (float64(done) + d) / float64(total)
		}
		opt := uncertainty.Options{Workers: 1,
			Pace:     func(d float64) error { return hook(0, frac(d)) },
			Progress: func(d, t int) { done, total = d, t; _ = hook(0, frac(0)) },
		}
		u, err := runBands(ctx, req, opt)
		return func(show bool) {
			r.Env.Lock()
			if show && !control.Canceled(err) {
				r.App.SetBands(req.Key, u, err)
			} else {
				r.App.CancelBands()
			}
			r.Env.UnlockRender()
		}
	})
}

// CancelBands stops the error bars asked for (the panel's Cancel, holding
// its lock).
func (r *Runs) CancelBands() {
	r.App.CancelBands()
	r.Ctl.CancelBands()
}

// runBands runs the uncertainty bands of req; a model panic becomes an
// error (a panic in WebAssembly ends the page).
func runBands(ctx context.Context, req BandsRequest, opt uncertainty.Options) (u *report.Uncertainty, err error) {
	defer func() {
		if p := recover(); p != nil {
			u, err = nil, fmt.Errorf("internal error in the error bars: %v", p)
		}
	}()
	res, err := uncertainty.Run(ctx, req.Scenario, req.Params, req.A, req.B, opt)
	if err != nil {
		return nil, err
	}
	return bands.Of(res), nil
}
