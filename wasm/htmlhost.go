//go:build js && wasm

package main

import "syscall/js"

// htmlHost fills an element the Vugu panel renders empty (Vugu's renderer
// leaves the children of an element without children of its own alone)
// with markup built in Go, touching the DOM only when the markup or the
// element changed: the panel's largest part then costs nothing on the
// renders that do not change it (see site.Metrics).
type htmlHost struct {
	id   string
	el   js.Value
	html string
}

func (h *htmlHost) sync(html string) {
	el := js.Global().Get("document").Call("getElementById", h.id)
	if !el.Truthy() {
		h.el, h.html = js.Undefined(), ""
		return
	}
	if el.Equal(h.el) && html == h.html {
		return
	}
	el.Set("innerHTML", html)
	h.el, h.html = el, html
}
