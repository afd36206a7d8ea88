package site

import "github.com/vugu/vugu"

// HTMLHost is an empty element of the panel that the page fills with
// markup built in Go (the metrics table, Metrics.HTML). Its Build is
// written by hand: vugugen gives an element without children an empty
// inner HTML, which the renderer would
// set on every render, wiping the markup; a node with neither children
// nor inner HTML is one whose children the renderer leaves alone.
type HTMLHost struct {
	ID, Class string
	AttrMap   vugu.AttrMap
}

// Build returns <div id="ID" class="Class">, contents untouched.
func (c *HTMLHost) Build(*vugu.BuildIn) *vugu.BuildOut {
	n := &vugu.VGNode{Type: vugu.ElementNode, Data: "div",
		Attr: []vugu.VGAttribute{{Key: "id", Val: c.ID}, {Key: "class", Val: c.Class}}}
	return &vugu.BuildOut{Out: []*vugu.VGNode{n}}
}

// MetricsHostID is the id of the panel's HTMLHost for the metrics.
const MetricsHostID = "metrics-host"
