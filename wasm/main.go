//go:build js && wasm

// Command wasm is dmaviz in the browser: the Vugu panel's render loop runs in
// main, the Ebiten stage in a goroutine, runs of the model in another, and
// they meet in one controller (site/control) and the panel's state
// (site/app).
package main

import (
	"context"
	"log"
	"runtime"
	"syscall/js"
	"time"

	"github.com/vugu/vugu"
	"github.com/vugu/vugu/domrender"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/render"
	"github.com/dmaviz/dmaviz/site"
	"github.com/dmaviz/dmaviz/site/app"
	"github.com/dmaviz/dmaviz/site/control"
)

// startSlice is how long the first run works before it gives way: longer
// than control.RunSlice, as the page has nothing to play yet, and still
// well under the 100 ms task budget with the pacing quantum beside it.
const startSlice = 40 * time.Millisecond

// stageWait is the longest the first run and the panel's first render wait
// for the stage's first frame.
const stageWait = time.Second

// awaitStage waits until up is closed (the stage's first frame), at most
// stageWait.
func awaitStage(up <-chan struct{}) {
	select {
	case <-up:
	case <-time.After(stageWait):
	}
}

func main() {
	// No heap profile is ever read in the page, and sampling the model's
	// large allocations unwinds stacks (a few % of an AUX run's time).
	runtime.MemProfileRate = 0
	pauseGC() // until the first results show
	page := js.Global().Get("dmaviz")
	loc := js.Global().Get("location")

	a := app.New(catalog.Registry(), loc.Get("search").String())
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
	buildEnv, err := vugu.NewBuildEnv(renderer.EventEnv())
	if err != nil {
		fail(page, "the control panel could not start: "+err.Error())
		return
	}
	env := renderer.EventEnv()

	root := &site.Root{App: a, Ctl: ctl, Page: app.PageURL(loc.Get("href").String()), ToggleKeys: toggleKeyMap, Board: platform.Parameters}
	var shown string
	ctl.OnChange(func(ch control.Change) {
		switch ch {
		case control.ChangeFull:
			env.Lock()
			env.UnlockRender()
		case control.ChangeCursor:
			// Only the cursor moved: update its few fields directly rather
			// than re-rendering the whole panel every tenth of a second.
			snap := ctl.Snapshot()
			setText("cursor-text", site.CursorText(snap))
			setProp("scrub", "value", site.ScrubValue(snap))
			syncPage(a, root, &shown)
		case control.ChangeHover:
			setText("hover", site.HoverText(ctl.Snapshot()))
		case control.ChangeRun:
			// Only the run's progress moved: update the bar, not the panel.
			run := ctl.Run()
			setProp("run-progress", "value", site.RunProgressValue(run))
			setText("run-progress-text", site.RunProgressText(run))
		}
	})
	firstCursor := a.FirstCursor()
	first := true
	// Until the first results, the stage has nothing to play and the panel
	// little to do: the first run works in longer slices (startSlice) so
	// that it ends sooner; then every run uses control.RunSlice.
	yield := yieldToPage()
	ctl.SetYield(yield, startSlice)
	// Runs compute in the background (site/control's runner): the model
	// gives way to the page every few milliseconds, so the stage keeps
	// playing the previous results and the panel shows the progress; a
	// newer change supersedes the run in progress.
	//
	// The first run waits for the stage's first frame (at most stageWait):
	// the two would otherwise share the page's thread, and the frame, which
	// needs no results, comes first.
	webgl := page.Truthy() && page.Get("webgl2").Truthy()
	stageUp := make(chan struct{})
	var firstGate <-chan struct{}
	var runWork func(app.Request) control.RunWork // below
	if webgl {
		firstGate = stageUp
	}
	root.StartBands = func() { startBands(env, a) }
	root.Rerun = func() {
		req, err := a.NextRun()
		if err != nil {
			resumeGC()
			a.RunErr = err.Error()
			ctl.SetRunError(a.RunErr)
			return
		}
		start := func() { ctl.StartRun(runWork(req)) }
		if gate := firstGate; gate != nil {
			firstGate = nil
			go func() {
				awaitStage(gate)
				env.Lock()
				if a.Gen == req.Gen { // not superseded meanwhile
					start()
				}
				env.UnlockRender()
			}()
			return
		}
		start()
	}
	runWork = func(req app.Request) control.RunWork {
		return func(ctx context.Context, hook func(side int, done float64) error) func(bool) {
			side := 0
			ra, rb, err := req.Run(ctx, func(s int, done float64) error {
				if s != side {
					side = s
					env.Lock()
					if a.Gen == req.Gen {
						a.RunSide = s
					}
					env.UnlockRender()
				}
				return hook(s, done)
			})
			// The first frame of new results sorts a large buffer's pages
			// by physical address: do it here, between slices of the run's
			// work, rather than in that frame.
			if err == nil {
				render.Prepare(ra)
				_ = hook(1, 1) // give way between the two
				if ctx.Err() == nil {
					render.Prepare(rb)
				}
			}
			return func(show bool) {
				resumeGC() // the first run has ended, whichever way
				if !show || control.Canceled(err) {
					// Canceled by the user or superseded: the previous
					// results stay (a superseded run's request is no longer
					// the latest).
					env.Lock()
					if a.Gen == req.Gen {
						a.Running = false
					}
					env.UnlockRender()
					return
				}
				env.Lock()
				fresh := a.SetResults(req.Gen, ra, rb, err)
				env.UnlockRender()
				if fresh && err != nil {
					ctl.SetRunError(a.RunErr)
				}
				if fresh && err == nil {
					ctl.SetResults(ra, rb)
					startHeadline(env, a)
					if first {
						first = false
						ctl.SetYield(yield, 0)
						ctl.Send(firstCursor)
						if page.Truthy() {
							page.Call("resultsReady")
						}
					}
				}
			}
		}
	}
	root.Rerun()

	if page.Truthy() {
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
		// Without it the first frame was laid out over the whole window
		// and drawn again, shifted, once the panel had rendered.
		syncModes(a)
		if page.Get("measurePanel").Truthy() {
			page.Call("measurePanel")
		}
	}
	listenKeys(ctl)
	exposeMemStats(page)
	exposeRunStats(page, ctl)

	if webgl {
		go func() {
			// Start the stage (WebGL context, shaders) in a task of its
			// own, after the panel's first render.
			yieldToPage()()
			runStage(ctl, page, func() { close(stageUp) })
		}()
	} else {
		log.Print("dmaviz: WebGL2 is not available; the stage is off, the panel still works")
		go tickWithoutStage(ctl)
	}

	ready := false
	metrics := &htmlHost{id: site.MetricsHostID}
	board := &htmlHost{id: site.BoardHostID}
	var renders int
	var renderTime, renderMax time.Duration
	// The panel's first render waits for the stage's first frame (at most
	// stageWait): both need the page's thread, and the frame comes first.
	if webgl {
		awaitStage(stageUp)
	}
	panelTask := yieldToPage()
	for ok := true; ok; ok = renderer.EventWait() {
		// Render in a task of its own: a render asked for by a run's
		// progress would otherwise follow the run's slice of work in the
		// same task (Go returns to the event loop only when every
		// goroutine waits).
		panelTask()
		start := time.Now()
		if err := renderer.Render(buildEnv.RunBuild(root)); err != nil {
			fail(page, "the control panel failed to render: "+err.Error())
			return
		}
		metrics.sync(root.MetricsHTML())
		board.sync(root.BoardHTML())
		syncPage(a, root, &shown)
		// The panel's render time, for tests and make bench:
		// dmaviz.panelRender = {n, ms, maxMs}.
		d := time.Since(start)
		renders, renderTime, renderMax = renders+1, renderTime+d, max(renderMax, d)
		if page.Truthy() {
			page.Set("panelRender", map[string]any{"n": renders, "ms": float64(renderTime) / float64(time.Millisecond), "maxMs": float64(renderMax) / float64(time.Millisecond)})
		}
		if !ready && page.Truthy() {
			ready = true
			page.Call("panelReady")
		}
	}
}

// syncPage keeps the address bar and the body's mode classes current.
func syncPage(a *app.App, root *site.Root, shown *string) {
	q := root.Query()
	if q != *shown {
		*shown = q
		js.Global().Get("history").Call("replaceState", nil, "", "?"+q)
	}
	syncModes(a)
}

// syncModes sets the body's mode classes (embed, collapsed), which the
// style sheet lays the panel out by.
func syncModes(a *app.App) {
	cl := js.Global().Get("document").Get("body").Get("classList")
	cl.Call("toggle", "embed", a.State.Embed)
	cl.Call("toggle", "collapsed", a.State.Collapsed && !a.State.Embed)
}

func setText(id, text string) { setProp(id, "textContent", text) }

func setProp(id, prop, value string) {
	if el := js.Global().Get("document").Call("getElementById", id); el.Truthy() {
		el.Set(prop, value)
	}
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
	if !page.Truthy() {
		return
	}
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
