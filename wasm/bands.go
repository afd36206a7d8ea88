//go:build js && wasm

package main

import (
	"context"
	"fmt"

	"github.com/dmaviz/dmaviz/model/uncertainty"
	"github.com/dmaviz/dmaviz/report"
	"github.com/dmaviz/dmaviz/report/bands"
	"github.com/dmaviz/dmaviz/site/app"
)

// runBands computes the error bars of req one run at a time (the runner
// paces it); a model panic becomes an error (a panic in WebAssembly ends
// the page).
func runBands(ctx context.Context, req app.BandsRequest, pace func(float64) error, progress func(done, total int)) (u *report.Uncertainty, err error) {
	defer func() {
		if p := recover(); p != nil {
			u, err = nil, fmt.Errorf("internal error in the error bars: %v", p)
		}
	}()
	opt := uncertainty.Options{Workers: 1, Pace: pace, Progress: progress}
	res, err := uncertainty.Run(ctx, req.Scenario, req.Params, req.A, req.B, opt)
	if err != nil {
		return nil, err
	}
	return bands.Of(res), nil
}
