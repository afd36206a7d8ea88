package site

import (
	"strconv"

	"github.com/vugu/vugu"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/render"
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

// ratio is B/A as the stage prints it ("×0.313", "=" for equal values and
// 0/0, "–" without a ratio), with the percentage change beside it where the
// published figure is a change.
func (c *Metrics) ratio(r scenario.Row) string {
	if !r.HasA || !r.HasB {
		return "–"
	}
	out := render.RatioText(r.A, r.B)
	for _, f := range r.Refs {
		if f.Pair == scenario.PairChange && r.A != 0 {
			out += " (" + strconv.FormatFloat((r.B-r.A)/r.A*100, 'f', 1, 64) + " %)"
			break
		}
	}
	return out
}

// scope labels per-call figures and whole-run totals.
func (c *Metrics) scope(r scenario.Row) string {
	if sc := r.Scope(); sc != "" {
		return "· " + sc
	}
	return ""
}

// UnitSymbol prints a metric unit with its proper symbol: µs, not us.
func UnitSymbol(u string) string { return scenario.UnitSymbol(u) }

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
