package site

import (
	"strconv"

	"github.com/vugu/vugu"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// Metrics is the A/B table: each metric on both sides, B/A, and the
// published figure (with its source on hover) where the scenario has one.
type Metrics struct {
	Rows    []scenario.Row
	AttrMap vugu.AttrMap
}

func (c *Metrics) value(v float64, ok bool) string {
	if !ok {
		return "–"
	}
	return scenario.FormatNumber(v)
}

func (c *Metrics) ratio(r scenario.Row) string {
	switch {
	case !r.HasA || !r.HasB:
		return "–"
	case r.A == r.B:
		return "="
	case r.A == 0:
		return "–"
	}
	return strconv.FormatFloat(r.B/r.A, 'f', 3, 64)
}

func (c *Metrics) rowClass(r scenario.Row) string {
	if r.Check && ((r.HasA && r.A != 0) || (r.HasB && r.B != 0)) {
		return "check bad"
	}
	if r.Check {
		return "check"
	}
	return ""
}

func (c *Metrics) refText(f scenario.RowRef) string { return f.PanelText() }

func (c *Metrics) refClass(f scenario.RowRef) string {
	if f.OK {
		return "ok"
	}
	return "off"
}
