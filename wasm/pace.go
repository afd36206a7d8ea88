//go:build js && wasm

package main

import (
	"syscall/js"
	"time"

	"github.com/dmaviz/dmaviz/site/control"
)

// yieldToPage returns the runner's way of giving way: it parks the calling
// goroutine until a zero-delay timer has fired. Go in WebAssembly returns to
// the browser's event loop when every goroutine is blocked, so while the
// model waits here the page handles input, the panel renders and the stage
// draws its frames; the timer's callback then resumes the model. (Browsers
// delay nested zero timers by about 4 ms; the runner works RunSlice between
// two, so the model keeps most of the thread.)
func yieldToPage() func() {
	setTimeout := js.Global().Get("setTimeout")
	ch := make(chan struct{}, 1)
	wake := js.FuncOf(func(js.Value, []js.Value) any {
		select {
		case ch <- struct{}{}:
		default:
		}
		return nil
	})
	return func() {
		setTimeout.Invoke(wake, 0)
		<-ch
	}
}

// exposeRunStats gives the page (tests, make bench) the runner's state:
// dmaviz.runState() returns {gen, running, side, done, canceled, ms,
// parkedMs, yields, deliverMs}.
func exposeRunStats(page js.Value, ctl *control.Controller) {
	if !page.Truthy() || page.Get("runState").Truthy() {
		return
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	page.Set("runState", js.FuncOf(func(js.Value, []js.Value) any {
		r := ctl.Run()
		return map[string]any{"gen": float64(r.Gen), "running": r.Running, "side": r.Side, "done": r.Done,
			"canceled": r.Canceled, "ms": ms(r.Elapsed), "parkedMs": ms(r.Parked), "yields": r.Yields, "deliverMs": ms(r.Deliver)}
	}))
}
