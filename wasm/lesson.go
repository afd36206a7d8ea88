//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/vugu/vugu"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/render/figure"
	"github.com/dmaviz/dmaviz/site"
	"github.com/dmaviz/dmaviz/site/app"
	"github.com/dmaviz/dmaviz/site/control"
)

// listenLessonKeys gives an open lesson a presentation clicker's keys:
// PageDown shows the answer, then the next stop; PageUp the question,
// then the previous stop. A focused button does not stop them (the
// lesson's own buttons keep focus after a click); a field being typed
// into does.
func listenLessonKeys(env vugu.EventEnv, root *site.Root) {
	js.Global().Get("document").Call("addEventListener", "keydown", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 1 || !root.App.LessonOpen() {
			return nil
		}
		ev := args[0]
		key := ev.Get("key").String()
		if key != "PageDown" && key != "PageUp" || ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool() || ev.Get("altKey").Bool() {
			return nil
		}
		switch ev.Get("target").Get("tagName").String() {
		case "INPUT", "SELECT", "TEXTAREA":
			return nil
		}
		ev.Call("preventDefault")
		env.Lock()
		if key == "PageDown" {
			root.LessonForward()
		} else {
			root.LessonBack()
		}
		env.UnlockRender()
		return nil
	}))
}

// syncLesson passes the stage whether the answer is kept back (a lesson
// stop's question, not yet revealed), with the page's way of taking the
// answer's figures out of the narration, and whether the lesson card
// takes the place of its narration row (presentation mode).
func syncLesson(a *app.App, ctl *control.Controller) {
	ctl.SetMask(a.Masked(), a.Hide)
	ctl.SetCard(a.CardOnStage())
}

// maskedRuns are the runs the stage shows while the answer is kept back:
// each side's result with its narration's words hidden (the stage narrates
// in presentation mode), made once per result.
type maskedRuns struct {
	from [2]*scenario.Result
	to   [2]*scenario.Result
}

// result is side's r as the stage shows it: r itself unless hide is set.
func (m *maskedRuns) result(side int, r *scenario.Result, hide func(string) string) *scenario.Result {
	if hide == nil || r == nil {
		m.from[side], m.to[side] = nil, nil
		return r
	}
	if m.from[side] != r || m.to[side] == nil {
		m.from[side], m.to[side] = r, figure.Hidden(r, hide)
	}
	return m.to[side]
}
