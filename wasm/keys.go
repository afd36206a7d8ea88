//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/dmaviz/dmaviz/site/control"
)

// listenKeys turns the classroom keys into player commands: Space play or
// pause, Left/Right a narration step, Shift+Left/Right one model event, +/-
// speed, Home/End; "?" shows the key map, Esc hides it. Keys typed into a
// field, a drop-down or a button of the panel are left alone, so typing a
// value never moves the player.
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
		switch ev.Get("key").String() {
		case "?":
			ev.Call("preventDefault")
			toggleKeyMap()
			return nil
		case "Escape":
			hideKeyMap()
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

// toggleKeyMap shows or hides the key map overlay, creating it the first
// time. It floats over stage and panel alike, so it works in every mode.
func toggleKeyMap() {
	doc := js.Global().Get("document")
	el := doc.Call("getElementById", "keymap")
	if !el.Truthy() {
		el = doc.Call("createElement", "div")
		el.Set("id", "keymap")
		el.Call("setAttribute", "role", "dialog")
		el.Call("setAttribute", "aria-label", "keys")
		title := doc.Call("createElement", "h2")
		title.Set("textContent", "Keys")
		el.Call("appendChild", title)
		table := doc.Call("createElement", "table")
		for _, kv := range control.KeyMap {
			tr := doc.Call("createElement", "tr")
			for i, text := range kv {
				td := doc.Call("createElement", [2]string{"th", "td"}[i])
				td.Set("textContent", text)
				tr.Call("appendChild", td)
			}
			table.Call("appendChild", tr)
		}
		el.Call("appendChild", table)
		hint := doc.Call("createElement", "p")
		hint.Set("textContent", "Point at anything on the stage to see what it is.")
		el.Call("appendChild", hint)
		el.Call("addEventListener", "click", js.FuncOf(func(js.Value, []js.Value) any { hideKeyMap(); return nil }))
		doc.Get("body").Call("appendChild", el)
		return
	}
	el.Get("classList").Call("toggle", "hidden")
}

func hideKeyMap() {
	if el := js.Global().Get("document").Call("getElementById", "keymap"); el.Truthy() {
		el.Get("classList").Call("add", "hidden")
	}
}
