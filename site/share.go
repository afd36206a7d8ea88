package site

import (
	"github.com/vugu/vugu"
	js "github.com/vugu/vugu/js"
)

// Share offers the page's link and an iframe snippet for documentation.
type Share struct {
	Link    string
	Embed   string
	AttrMap vugu.AttrMap
	status  string
}

// copy puts text on the clipboard (navigator.clipboard where the page is a
// secure context, else a hidden selection and execCommand).
func (c *Share) copy(text, what string) {
	c.status = "could not copy the " + what + "; select it and copy by hand"
	g := js.Global()
	if nav := g.Get("navigator"); nav.Truthy() {
		if cb := nav.Get("clipboard"); cb.Truthy() && g.Get("isSecureContext").Truthy() {
			cb.Call("writeText", text)
			c.status = "copied the " + what
			return
		}
	}
	doc := g.Get("document")
	if !doc.Truthy() {
		return
	}
	ta := doc.Call("createElement", "textarea")
	ta.Set("value", text)
	doc.Get("body").Call("appendChild", ta)
	ta.Call("select")
	if doc.Call("execCommand", "copy").Truthy() {
		c.status = "copied the " + what
	}
	ta.Call("remove")
}
