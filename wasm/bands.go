//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"time"

	"github.com/vugu/vugu"

	"github.com/dmaviz/dmaviz/model/uncertainty"
	"github.com/dmaviz/dmaviz/report"
	"github.com/dmaviz/dmaviz/report/bands"
	"github.com/dmaviz/dmaviz/site/app"
)

// bandsShow is how often the error bars' progress is rendered.
const bandsShow = 250 * time.Millisecond

// startBands computes the error bars of the current setting, asked for by
// the panel's button (it runs in the click's event, with the panel's lock
// held), in the style of the headline chart: one run at a time, giving
// the page its only thread back inside each run (bandsSlice) and before
// each, showing the progress, and dropped as soon as the setting changes
// or Cancel is pressed.
func startBands(env vugu.EventEnv, a *app.App) {
	req, ok := a.StartBands()
	if !ok {
		return
	}
	go func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		stale := func() bool {
			env.RLock()
			defer env.RUnlock()
			return a.BandsStale(req.Key)
		}
		yield, last, shown := yieldToPage(), time.Now(), time.Time{}
		opt := uncertainty.Options{Workers: 1,
			BeforeRun: func() {
				time.Sleep(time.Millisecond) // let the page handle input and paint
				last = time.Now()
				if stale() {
					cancel()
				}
			},
			Pace: func(float64) error {
				if time.Since(last) >= bandsSlice {
					yield()
					last = time.Now()
				}
				if stale() {
					cancel() // the run stops right after this call
				}
				return nil
			},
			Progress: func(done, total int) {
				env.Lock()
				if !a.BandsProgress(req.Key, done, total) {
					cancel()
				}
				// The panel renders the progress at most every
				// bandsShow: a render is a frame's work of its own.
				if time.Since(shown) < bandsShow {
					env.UnlockOnly()
					return
				}
				shown = time.Now()
				env.UnlockRender()
			}}
		u, err := runBands(ctx, req, opt)
		env.Lock()
		if ctx.Err() == nil {
			a.SetBands(req.Key, u, err)
		} else if a.Bands.Key == req.Key && a.Bands.Running {
			a.CancelBands()
		}
		env.UnlockRender()
	}()
}

// runBands runs the uncertainty bands of req; a model panic becomes an
// error (a panic in WebAssembly ends the page).
func runBands(ctx context.Context, req app.BandsRequest, opt uncertainty.Options) (u *report.Uncertainty, err error) {
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

// bandsSlice is how long the error bars' runs work before they give the
// page its thread back.
const bandsSlice = 10 * time.Millisecond
