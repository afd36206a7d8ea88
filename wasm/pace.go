//go:build js && wasm

package main

import (
	"syscall/js"
	"time"

	"github.com/dmaviz/dmaviz/site/control"
)

// yieldToPage returns the runner's way of giving way: it parks the calling
// goroutine until a message posted to itself has arrived. Go in WebAssembly
// returns to the browser's event loop when every goroutine is blocked, so
// while the model waits here the page handles input, the panel renders and
// the stage draws its frames; the message's handler then resumes the model.
// A MessageChannel, not a zero timer: browsers delay nested zero timers by
// about 4 ms, which at RunSlice's short slices would cost a third of the
// run's time.
func yieldToPage() func() {
	ch := make(chan struct{}, 1)
	wake := js.FuncOf(func(js.Value, []js.Value) any {
		select {
		case ch <- struct{}{}:
		default:
		}
		return nil
	})
	mc := js.Global().Get("MessageChannel").New()
	mc.Get("port1").Set("onmessage", wake)
	port := mc.Get("port2")
	return func() {
		port.Call("postMessage", 0)
		<-ch
	}
}

// exposeRunStats gives the page (tests, make bench) the runner's state:
// dmaviz.runState() returns {gen, running, side, sides, done, canceled,
// ms, parkedMs, yields, deliverMs}.
func exposeRunStats(page js.Value, ctl *control.Controller) {
	if !page.Truthy() || page.Get("runState").Truthy() {
		return
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	page.Set("runState", js.FuncOf(func(js.Value, []js.Value) any {
		r := ctl.Run()
		return map[string]any{"gen": float64(r.Gen), "running": r.Running, "side": r.Side, "done": r.Done,
			"canceled": r.Canceled, "sides": []any{r.Sides[0], r.Sides[1]}, "ms": ms(r.Elapsed), "parkedMs": ms(r.Parked), "yields": r.Yields, "deliverMs": ms(r.Deliver)}
	}))
}
