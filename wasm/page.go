//go:build js && wasm

package main

import (
	"log"
	"runtime"
	"syscall/js"
	"time"

	"github.com/dmaviz/dmaviz/site/app"
	"github.com/dmaviz/dmaviz/site/control"
)

// exposePage gives the page's loader (assets) what it calls into the
// program: dmaviz.setPanelWidth(width, height) from the panel's
// ResizeObserver, and the counters tests and make bench read.
func exposePage(page js.Value, a *app.App, ctl *control.Controller) {
	if !page.Truthy() {
		return
	}
	page.Set("setPanelWidth", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) >= 1 && args[0].Type() == js.TypeNumber {
			w, h := args[0].Int(), 0
			if len(args) >= 2 && args[1].Type() == js.TypeNumber {
				h = args[1].Int()
			}
			ctl.SetPanelWidth(overlayWidth(a, w))
			ctl.SetInsets(overlayInsets(a, h))
		}
		return nil
	}))
	// The panel's room before the stage's first frame: with the mode
	// classes set, the empty mount has the panel's width (style.css).
	// Without it the first frame was laid out over the whole window and
	// drawn again, shifted, once the panel had rendered.
	syncModes(a)
	if page.Get("measurePanel").Truthy() {
		page.Call("measurePanel")
	}
	exposeMemStats(page)
	exposeRunStats(page, ctl)
	exposeResultsData(page, a)
}

// startStage starts the Ebiten stage (closing up at its first frame) or,
// without WebGL2, a timer that plays the player in its place.
func startStage(webgl bool, ctl *control.Controller, page js.Value, up chan struct{}) {
	if !webgl {
		log.Print("dmaviz: WebGL2 is not available; the stage is off, the panel still works")
		go tickWithoutStage(ctl)
		return
	}
	go func() {
		// Start the stage (WebGL context, shaders) in a task of its own,
		// after the panel's first render.
		yieldToPage()()
		runStage(ctl, page, func() { close(up) })
	}()
}

// tickWithoutStage plays the player when no stage does (no WebGL2), so the
// transport, narration and URL still follow the cursor.
func tickWithoutStage(ctl *control.Controller) {
	const dt = 50 * time.Millisecond
	for range time.Tick(dt) {
		ctl.Advance(dt, false)
	}
}

// exposeMemStats gives the page (and make bench) the Go heap's allocation
// counters: dmaviz.goMem() returns {mallocs, heapAlloc, numGC, sys}.
func exposeMemStats(page js.Value) {
	var ms runtime.MemStats
	page.Set("goMem", js.FuncOf(func(js.Value, []js.Value) any {
		runtime.ReadMemStats(&ms)
		return map[string]any{"mallocs": float64(ms.Mallocs), "heapAlloc": float64(ms.HeapAlloc), "numGC": float64(ms.NumGC), "sys": float64(ms.Sys)}
	}))
}

func fail(page js.Value, msg string) {
	log.Print("dmaviz: ", msg)
	if page.Truthy() {
		page.Call("showError", msg)
	}
}

// overlayWidth is the panel width the stage leaves free: none in embed and
// presentation modes, where a small bar floats over a full-width stage.
func overlayWidth(a *app.App, w int) int {
	if a.State.Embed || a.State.Collapsed {
		return 0
	}
	return w
}

// overlayInsets keeps the stage's text clear of the floating bar: at the
// bottom in embed mode, at the top in presentation mode, where the stage
// also shows the narration the hidden panel would.
func overlayInsets(a *app.App, h int) control.Insets {
	switch {
	case a.State.Embed:
		return control.Insets{Bottom: h}
	case a.State.Collapsed:
		return control.Insets{Top: h, Narrate: true}
	}
	return control.Insets{}
}
