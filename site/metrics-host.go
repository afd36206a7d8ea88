package site

import "github.com/vugu/vugu"

// MetricsHost is the panel's empty element that the page fills with the
// metrics table's markup (Metrics.HTML). Its Build is written by hand:
// vugugen gives an element without children an empty inner HTML, which the
// renderer would set on every render, wiping the table; a node with
// neither children nor inner HTML is one whose children the renderer
// leaves alone.
type MetricsHost struct {
	AttrMap vugu.AttrMap
}

// Build returns <div id="metrics-host" class="metrics">, contents untouched.
func (c *MetricsHost) Build(*vugu.BuildIn) *vugu.BuildOut {
	n := &vugu.VGNode{Type: vugu.ElementNode, Data: "div",
		Attr: []vugu.VGAttribute{{Key: "id", Val: MetricsHostID}, {Key: "class", Val: "metrics"}}}
	return &vugu.BuildOut{Out: []*vugu.VGNode{n}}
}

// MetricsHostID is the id of MetricsHost's element.
const MetricsHostID = "metrics-host"
