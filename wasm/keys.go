//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/dmaviz/dmaviz/site/control"
)

// listenKeys turns the classroom keys into player commands: Space play or
// pause, Left/Right step by event, Shift+Left/Right by narration step, +/-
// speed, Home/End. Keys typed into a field, a drop-down or a button of the
// panel are left alone, so typing a value never moves the player.
func listenKeys(ctl *control.Controller) {
	doc := js.Global().Get("document")
	doc.Call("addEventListener", "keydown", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 1 {
			return nil
		}
		ev := args[0]
		if ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool() || ev.Get("altKey").Bool() || typing(ev.Get("target")) {
			return nil
		}
		shift := ev.Get("shiftKey").Bool()
		cmd, ok := control.KeyCommand(ev.Get("key").String(), shift)
		if !ok {
			return nil
		}
		ev.Call("preventDefault")
		ctl.Send(cmd)
		return nil
	}))
}

func typing(t js.Value) bool {
	if !t.Truthy() {
		return false
	}
	if ce := t.Get("isContentEditable"); ce.Truthy() {
		return true
	}
	switch t.Get("tagName").String() {
	case "INPUT", "SELECT", "TEXTAREA", "BUTTON":
		return true
	}
	return false
}
