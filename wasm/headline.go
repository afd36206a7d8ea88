//go:build js && wasm

package main

import (
	"context"
	"time"

	"github.com/vugu/vugu"

	"github.com/dmaviz/dmaviz/site/app"
)

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
		ch, err := req.Run(ctx, func() {
			time.Sleep(time.Millisecond) // let the page handle input and paint
			env.RLock()
			stale := a.Running || a.Headline.Key != req.Key
			env.RUnlock()
			if stale {
				cancel()
			}
		})
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
