package site

import (
	"html"
	"strconv"
	"strings"

	"github.com/dmaviz/dmaviz/lesson"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/render"
	"github.com/dmaviz/dmaviz/report"
)

// Metrics is the A/B table: each metric on both sides, B/A, and the
// published figure (with its source on hover) where the scenario has one.
//
// It is not a Vugu component: the table is the panel's largest part (up
// to about 500 elements), and Vugu's renderer walks and re-sends every node
// of the panel on every render, so as a component it was most of a
// render's time. The page writes HTML's markup into the panel's empty
// #metrics-host instead, and only when it changed (wasm's htmlHost).
type Metrics struct {
	Rows []scenario.Row
	// Masked keeps the values back (a lesson's question before its
	// reveal): the rows show their names, with "?" for every value.
	Masked bool
}

// HTML is the table's markup (every text escaped).
func (c *Metrics) HTML() string {
	var b strings.Builder
	b.Grow(256 * (len(c.Rows) + 1))
	if len(c.Rows) == 0 {
		b.WriteString(`<p class="stale-line" id="metrics-none">No current run: the numbers appear when a run succeeds.</p>`)
	}
	if c.Masked && len(c.Rows) > 0 {
		b.WriteString(`<p class="masked-line" id="metrics-masked">Values ` + render.MaskedNote + `.</p>`)
	}
	b.WriteString(`<table id="metrics"><thead><tr><th>unit</th><th class="num">A</th><th class="num">B</th><th class="num">B/A</th></tr></thead>`)
	esc := html.EscapeString
	for _, r := range c.Rows {
		name, label := esc(r.Name), esc(r.Label)
		b.WriteString(`<tbody class="row"><tr class="namerow" title="` + label + `"><td colspan="4" class="name"><span>` + name + `</span>`)
		if sc := c.scope(r); sc != "" {
			b.WriteString(`<span class="scope"> ` + esc(sc) + `</span>`)
		}
		b.WriteString(`</td></tr><tr`)
		if cl := c.rowClass(r); cl != "" {
			b.WriteString(` class="` + cl + `"`)
		}
		b.WriteString(` data-metric="` + name + `" title="` + label + `"><td class="unit">` + esc(report.UnitSymbol(r.Unit)) +
			`</td><td class="num a">` + esc(c.value(r.A, r.HasA)) + `</td><td class="num b">` + esc(c.value(r.B, r.HasB)) +
			`</td><td class="num ratio">` + esc(c.ratio(r)) + `</td></tr>`)
		if len(r.Refs) > 0 {
			b.WriteString(`<tr class="refrow" data-ref="` + name + `"><td colspan="4" class="ref">`)
			for _, f := range r.Refs {
				b.WriteString(`<div class="` + c.refClass(f) + `" title="` + esc(f.Source) + `">` + esc(c.refText(f)) + `</div>`)
			}
			b.WriteString(`</td></tr>`)
		}
		b.WriteString(`</tbody>`)
	}
	b.WriteString(`</table>`)
	return b.String()
}

func (c *Metrics) value(v float64, ok bool) string {
	switch {
	case c.Masked:
		return lesson.Hidden
	case !ok:
		return "–"
	}
	return report.FormatNumber(v)
}

// ratio is B/A as the stage prints it ("×0.313", "=" for equal values and
// 0/0, "–" without a ratio), with the percentage change beside it where the
// published figure is a change.
func (c *Metrics) ratio(r scenario.Row) string {
	switch {
	case c.Masked:
		return lesson.Hidden
	case !r.HasA || !r.HasB:
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
	if sc := report.Scope(&r); sc != "" {
		return "· " + sc
	}
	return ""
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

func (c *Metrics) refText(f scenario.RowRef) string { return report.PanelText(&f) }

// refClass colours a prediction by its verdict; a calibrated figure has
// none (grey).
func (c *Metrics) refClass(f scenario.RowRef) string {
	switch {
	case f.Kind() == scenario.Calibrated:
		return "calibrated"
	case f.OK:
		return "ok"
	}
	return "off"
}
