//go:build js && wasm

// Command wasm is dmaviz in the browser: the Vugu panel's render loop runs in
// main, the Ebiten stage in a goroutine, runs of the model in another, and
// they meet in one controller (site/control, whose runner owns every run)
// and the panel's state (site/app).
package main

import (
	"runtime"
	"syscall/js"
	"time"

	"github.com/vugu/vugu/domrender"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/render"
	"github.com/dmaviz/dmaviz/site"
	"github.com/dmaviz/dmaviz/site/app"
	"github.com/dmaviz/dmaviz/site/control"
)

// startSlice is how long the first run works before it gives way: longer
// than control.RunSlice, as the page has nothing to play yet, and still
// well under the 100 ms task budget with the pacing quantum beside it.
const startSlice = 40 * time.Millisecond

func main() {
	// No heap profile is ever read in the page, and sampling the model's
	// large allocations unwinds stacks (a few % of an AUX run's time).
	runtime.MemProfileRate = 0
	pauseGC() // until the first results show
	page, loc := js.Global().Get("dmaviz"), js.Global().Get("location")

	a := app.New(catalog.Registry(), loc.Get("search").String())
	a.Hardware = hardware
	ctl := control.New()
	for _, cmd := range a.InitialCommands() {
		ctl.Send(cmd)
	}
	renderer, err := domrender.New("#panel-root")
	if err != nil {
		fail(page, "the control panel could not start: "+err.Error())
		return
	}
	defer renderer.Release()
	env := renderer.EventEnv()
	root := &site.Root{App: a, Ctl: ctl, Page: app.PageURL(loc.Get("href").String()), ToggleKeys: toggleKeyMap}
	p := &panel{page: page, a: a, ctl: ctl, root: root, env: env}
	ctl.OnChange(p.onChange)

	// Runs compute in the background, giving way to the page every slice;
	// the first run works in longer slices (nothing plays yet) and waits
	// for the stage's first frame (which needs no results).
	yield, firstCursor := yieldToPage(), a.FirstCursor()
	// A first visit plays at once; one that asked for reduced motion
	// gets a large play control on the stage instead.
	reduced := reducedMotion()
	playAtOnce := a.PlaysAtOnce(reduced)
	root.StagePlay = reduced && a.PlaysAtOnce(false)
	root.StageSize = func() (int, int) {
		// The body, as Ebiten's canvas: the window less the lesson card.
		body := js.Global().Get("document").Get("body")
		return max(body.Get("clientWidth").Int()-ctl.PanelWidth(), 1), max(body.Get("clientHeight").Int(), 1)
	}
	ctl.SetYield(yield, startSlice)
	webgl := page.Truthy() && page.Get("webgl2").Truthy()
	var stageUp chan struct{}
	runs := &app.Runs{App: a, Ctl: ctl, Env: env, Prepare: render.Prepare, Ended: resumeGC, Bands: runBands, First: func() {
		ctl.SetYield(yield, 0)
		ctl.Send(firstCursor)
		if playAtOnce {
			ctl.Send(control.Command{Kind: control.CmdPlay})
		}
		if page.Truthy() {
			page.Call("resultsReady")
		}
	}}
	if webgl {
		stageUp = make(chan struct{})
		runs.Gate = stageUp
	}
	root.StartBands, root.CancelBands = runs.StartBands, runs.CancelBands
	root.Rerun = runs.Start
	runs.Start()

	exposePage(page, a, ctl)
	listenKeys(ctl)
	listenLessonKeys(env, root)
	startStage(webgl, ctl, page, stageUp)
	p.loop(renderer, stageUp)
}

// reducedMotion says the reader asked the system for less motion
// (prefers-reduced-motion): the page then waits for a click to play.
func reducedMotion() bool {
	mm := js.Global().Get("matchMedia")
	if mm.Type() != js.TypeFunction {
		return false
	}
	return js.Global().Call("matchMedia", "(prefers-reduced-motion: reduce)").Get("matches").Truthy()
}
