package site

import (
	"html"
	"strconv"
	"strings"

	"github.com/dmaviz/dmaviz/model/provenance"
)

// Board is the hardware under the run: the preset's parameters and the
// scenario's own constants, each with its value, kind and, on hover, its
// source, formula, figure or range (a closed <details> under the
// parameters). Like Metrics it is markup the page writes into an
// HTMLHost (#board-host) when it changed: some 60-80 rows.
type Board struct {
	Preset    string
	Params    []provenance.Param // the preset's (platform.Parameters)
	Constants []provenance.Param // the scenario's (Spec.Constants)
}

// HTML is the board's markup, every text escaped; "" without parameters.
func (c *Board) HTML() string {
	if len(c.Params) == 0 && len(c.Constants) == 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(200 * (len(c.Params) + len(c.Constants) + 2))
	b.WriteString(`<details id="board"><summary>Hardware: ` + html.EscapeString(c.Preset) + ` · ` + counts(c.Params) + `</summary>`)
	b.WriteString(`<p class="hint">Each value is measured (a document), derived (a formula), assumed (a range) or fitted (to a published figure, which is then calibrated); hover a row for its source.</p>`)
	rows(&b, "board-preset", c.Params)
	if len(c.Constants) > 0 {
		b.WriteString(`<p class="hint">The scenario's own constants:</p>`)
		rows(&b, "board-scenario", c.Constants)
	}
	b.WriteString(`</details>`)
	return b.String()
}

// counts is "58 parameters: 23 measured, 6 derived, 25 assumed, 4 fitted".
func counts(ps []provenance.Param) string {
	n := provenance.Counts(ps)
	parts := make([]string, 0, len(provenance.Kinds))
	for _, k := range provenance.Kinds {
		parts = append(parts, strconv.Itoa(n[k])+" "+k.String())
	}
	return strconv.Itoa(len(ps)) + " parameters: " + strings.Join(parts, ", ")
}

func rows(b *strings.Builder, id string, ps []provenance.Param) {
	esc := html.EscapeString
	b.WriteString(`<table id="` + id + `">`)
	for i := range ps {
		p := &ps[i]
		kind := p.Kind.String()
		b.WriteString(`<tr data-path="` + esc(p.Path) + `" class="` + kind + `" title="` + esc(kind+": "+p.Describe()) + `"><td class="path">` +
			esc(p.Path) + `</td><td class="num">` + esc(p.Text) + `</td><td class="kind">` + kind + `</td></tr>`)
	}
	b.WriteString(`</table>`)
}
