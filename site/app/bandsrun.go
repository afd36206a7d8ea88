package app

import (
	"context"

	"github.com/dmaviz/dmaviz/report"
	"github.com/dmaviz/dmaviz/site/control"
)

// BandsRun computes the error bars of req under ctx, calling pace (often)
// with the fraction of the current single run done and progress with the
// single runs done and planned. The page passes the model's uncertainty
// run (site/ reaches no hardware package).
type BandsRun func(ctx context.Context, req BandsRequest, pace func(done float64) error, progress func(done, total int)) (*report.Uncertainty, error)

// StartBands computes the error bars of the current setting with
// r.Bands through the runner, as the headline sweep is: after the run in
// progress, paced and given way like every run, dropped by a newer run or
// by Controller.CancelBands. It is called from the panel's event handler,
// holding the panel's lock.
func (r *Runs) StartBands() {
	if r.Bands == nil {
		return
	}
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
		progress := func(d, t int) {
			if t != total { // the plan's size, once: the panel says "n of t runs"
				r.Env.Lock()
				r.App.BandsPlanned(req.Key, t)
				r.Env.UnlockRender()
			}
			done, total = d, t
			_ = hook(0, frac(0))
		}
		u, err := r.Bands(ctx, req, func(d float64) error { return hook(0, frac(d)) }, progress)
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
