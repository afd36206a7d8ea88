//go:build js && wasm

package main

import (
	"syscall/js"
	"time"

	"github.com/vugu/vugu"
	"github.com/vugu/vugu/domrender"

	"github.com/dmaviz/dmaviz/site"
	"github.com/dmaviz/dmaviz/site/app"
	"github.com/dmaviz/dmaviz/site/control"
)

// stageWait is the longest the panel's first render waits for the stage's
// first frame (the first run waits as long: app.GateWait).
const stageWait = app.GateWait

// awaitStage waits until up is closed (the stage's first frame), at most
// stageWait.
func awaitStage(up <-chan struct{}) {
	select {
	case <-up:
	case <-time.After(stageWait):
	}
}

// panel is the Vugu panel's side of the page: its render loop and the
// address bar and body classes that follow its state.
type panel struct {
	page  js.Value
	a     *app.App
	ctl   *control.Controller
	root  *site.Root
	env   vugu.EventEnv
	shown string // the query last put in the address bar
}

// onChange updates the panel for a change of the controller's snapshot,
// doing as little as the change needs.
func (p *panel) onChange(ch control.Change) {
	switch ch {
	case control.ChangeFull:
		p.env.Lock()
		p.env.UnlockRender()
	case control.ChangeCursor:
		// Only the cursor moved: update its few fields directly rather
		// than re-rendering the whole panel every tenth of a second.
		snap := p.ctl.Snapshot()
		setText("cursor-text", site.CursorText(snap))
		setProp("scrub", "value", site.ScrubValue(snap))
		p.syncPage()
	case control.ChangeHover:
		setText("hover", site.HoverText(p.ctl.Snapshot()))
	case control.ChangeRun:
		// Only the run's progress moved: update the bar, not the panel.
		run := p.ctl.Run()
		setProp("run-progress", "value", site.RunProgressValue(run))
		setText("run-progress-text", site.RunProgressText(run))
	}
}

// loop renders the panel whenever it is asked to, until the page ends. The
// first render waits for the stage's first frame when there is a stage
// (both need the page's thread, and the frame comes first).
func (p *panel) loop(renderer *domrender.JSRenderer, stageUp <-chan struct{}) {
	buildEnv, err := vugu.NewBuildEnv(renderer.EventEnv())
	if err != nil {
		fail(p.page, "the control panel could not start: "+err.Error())
		return
	}
	if stageUp != nil {
		awaitStage(stageUp)
	}
	ready := false
	metrics := &htmlHost{id: site.MetricsHostID}
	var renders int
	var renderTime, renderMax time.Duration
	panelTask := yieldToPage()
	for ok := true; ok; ok = renderer.EventWait() {
		// Render in a task of its own: a render asked for by a run's
		// progress would otherwise follow the run's slice of work in the
		// same task (Go returns to the event loop only when every
		// goroutine waits).
		panelTask()
		start := time.Now()
		if err := renderer.Render(buildEnv.RunBuild(p.root)); err != nil {
			fail(p.page, "the control panel failed to render: "+err.Error())
			return
		}
		metrics.sync(p.root.MetricsHTML())
		p.syncPage()
		// The panel's render time, for tests and make bench:
		// dmaviz.panelRender = {n, ms, maxMs}.
		d := time.Since(start)
		renders, renderTime, renderMax = renders+1, renderTime+d, max(renderMax, d)
		if p.page.Truthy() {
			p.page.Set("panelRender", map[string]any{"n": renders, "ms": float64(renderTime) / float64(time.Millisecond), "maxMs": float64(renderMax) / float64(time.Millisecond)})
		}
		if !ready && p.page.Truthy() {
			ready = true
			p.page.Call("panelReady")
		}
	}
}

// syncPage keeps the address bar and the body's mode classes current.
func (p *panel) syncPage() {
	q := p.root.Query()
	if q != p.shown {
		p.shown = q
		js.Global().Get("history").Call("replaceState", nil, "", "?"+q)
	}
	syncModes(p.a)
	syncLesson(p.a, p.ctl)
}

// syncModes sets the body's mode classes (embed, collapsed), which the
// style sheet lays the panel out by.
func syncModes(a *app.App) {
	cl := js.Global().Get("document").Get("body").Get("classList")
	cl.Call("toggle", "embed", a.State.Embed)
	cl.Call("toggle", "collapsed", a.Presenting())
}

func setText(id, text string) { setProp(id, "textContent", text) }

func setProp(id, prop, value string) {
	if el := js.Global().Get("document").Call("getElementById", id); el.Truthy() {
		el.Set(prop, value)
	}
}
