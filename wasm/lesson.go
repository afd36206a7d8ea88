//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/vugu/vugu"

	"github.com/dmaviz/dmaviz/site"
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
