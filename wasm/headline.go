//go:build js && wasm

package main

import (
	"context"
	"time"

	"github.com/vugu/vugu"

	"github.com/dmaviz/dmaviz/site/app"
)

// headlineSlice is the longest the headline's computation holds the page
// before it gives way (well under the 100 ms long-task budget).
const headlineSlice = 10 * time.Millisecond

// startHeadline computes the scenario's headline chart for the current
// setting after the main runs, if it is not already drawn: one point at a
// time, giving the page its only thread back before each point, and
// dropped as soon as a main run starts or the setting changes (the next
// finished run starts it again).
func startHeadline(env vugu.EventEnv, a *app.App) {
	env.Lock()
	req, ok := a.NextHeadline()
	env.UnlockRender()
	if !ok {
		return
	}
	go func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		stale := func() bool {
			env.RLock()
			defer env.RUnlock()
			return a.Running || a.Headline.Key != req.Key
		}
		// Inside a run the model gives way every few milliseconds of work
		// (the same pacing as the main runs), so no point holds the page.
		yield, last := yieldToPage(), time.Now()
		pace := func(float64) error {
			if time.Since(last) >= headlineSlice {
				yield()
				last = time.Now()
			}
			if stale() {
				cancel() // the run stops right after this call
			}
			return nil
		}
		ch, err := req.Run(ctx, func() {
			time.Sleep(time.Millisecond) // let the page handle input and paint
			last = time.Now()
			if stale() {
				cancel()
			}
		}, pace)
		env.Lock()
		if ctx.Err() != nil {
			if a.Headline.Key == req.Key {
				a.Headline = app.HeadlineState{} // due again after the next run
			}
		} else {
			a.SetHeadline(req.Key, ch, err)
		}
		env.UnlockRender()
	}()
}
