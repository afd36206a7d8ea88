package render

import (
	"fmt"
	"math"
	"strconv"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/report"
)

// The counter bars tell A from B by shape, not colour (every colour on the
// stage means a cell state or a phase): A's bar is filled, B's outlined.
const sideBar = Accent

// sideBarItem is side's bar (or its key swatch) at (x, y, w, h).
func sideBarItem(id string, index int32, side int, x, y, w, h float32, ref Ref) Item {
	it := Item{Kind: KindRect, ID: id, Index: index, X: x, Y: y, W: w, H: h, Fill: sideBar, Stroke: None, Ref: ref}
	if side == 1 {
		it.Fill, it.Stroke, it.StrokeWidth = None, sideBar, 1
	}
	return it
}

// counterRow is one row the counters show.
type counterRow struct {
	m   scenario.Metric
	b   float64
	idx int32
}

// counterRows lists the checks, then the metrics, that both sides report.
func counterRows(a, b *scenario.Result, rows []counterRow) []counterRow {
	rows = rows[:0]
	for pass, list := range [2][]scenario.Metric{a.Checks, a.Metrics} {
		for mi, m := range list {
			bv, ok := b.Metric(m.Name)
			if !ok {
				continue
			}
			idx := int32(len(a.Metrics) + mi) // a check
			if pass == 1 {
				idx = int32(mi)
			}
			rows = append(rows, counterRow{m, bv, idx})
		}
	}
	return rows
}

// counterView draws one row per check (then metric) that both sides
// report: the name, two bars scaled to the larger value (when there is
// room), the values "A / B" and B/A. Rows that do not fit are counted on
// the last line, which points to the panel's metrics table, or where
// there is no panel (an embed, presentation mode, an exported figure) to
// the full view. Masked (a lesson's question before its reveal), the rows
// show their names with "?" for the values and B/A and no bars, and the
// last line says when the values show.
type counterView struct {
	txt    *texts
	a, b   *scenario.Result
	panel  bool
	masked bool
	rows   []counterRow // scratch, kept between frames
}

func (v *counterView) bind(txt *texts, a, b *scenario.Result, panel, masked bool) {
	v.txt, v.a, v.b, v.panel, v.masked = txt, a, b, panel, masked
}

// MaskedNote is what stands where the page or the stage keeps an answer
// back (a lesson's question before its reveal).
const MaskedNote = "revealed with the answer"

// maskedNote is the counters' last line while masked.
const maskedNote = "values " + MaskedNote

// hidden stands for a value kept back.
const hidden = "?"

// counterRowH is the height of a counter row.
const counterRowH = float32(smallSz + 6)

// MinSize is room for the title and two rows (with more rows than fit,
// the last row counts the rest), or the only one.
func (v *counterView) MinSize() Size {
	n := 1
	if v.a != nil && v.b != nil {
		v.rows = counterRows(v.a, v.b, v.rows)
		n = max(min(len(v.rows), 2), 1)
	}
	return Size{0, textSz + 8 + counterRowH*float32(n)}
}

func (v *counterView) TextSizes() TextSizes {
	return TextSizes{Title: textSz, Body: smallSz, Least: smallSz}
}

func (v *counterView) Describe(r Ref) string {
	switch r.Kind {
	case RefMetric:
		return v.describeMetric(int(r.Index))
	case RefExplain:
		return explain(r)
	}
	return ""
}

func (v *counterView) Build(s *Scene, r Rect) {
	x, y, w, h := r.X, r.Y, r.W, r.H
	s.TextRef("counters/title", x, y+textSz, "counters", textSz, Muted, AlignStart, Ref{Kind: RefExplain, Index: explainCounter})
	keyX := x + textWidth("counters", textSz) + 10
	s.Add(sideBarItem("counters/key", 0, 0, keyX, y+5, 14, 7, Ref{}))
	s.Text("counters/key", keyX+18, y+textSz, "A", smallSz, Text, AlignStart)
	s.Add(sideBarItem("counters/key", 1, 1, keyX+36, y+5, 14, 7, Ref{}))
	s.Text("counters/key", keyX+54, y+textSz, "B", smallSz, Text, AlignStart)
	if v.a == nil || v.b == nil {
		return
	}
	v.rows = counterRows(v.a, v.b, v.rows)
	rowH := counterRowH
	top := y + textSz + 8
	maxRows := int((y + h - top) / rowH)
	if maxRows <= 0 {
		return
	}
	shown := v.rows
	if len(shown) > maxRows || v.masked && len(shown) >= maxRows {
		shown = shown[:maxRows-1]
	}
	cols := v.columns(shown, x, w)
	if keyX+54+textWidth("B", smallSz)+8+cols.ratioW <= x+w {
		s.Text("counters/head", x+w, y+textSz, "B/A", smallSz, Muted, AlignEnd)
	}
	for row, cr := range shown {
		v.row(s, cr, cols, x, top+float32(row)*rowH, w)
	}
	ry := top + float32(len(shown))*rowH
	if v.masked {
		s.TextRef("counters/masked", x, ry+smallSz, v.txt.Fit(maskedNote, w, smallSz), smallSz, Muted, AlignStart, Ref{Kind: RefExplain, Index: explainCounter})
		return
	}
	if more := len(v.rows) - len(shown); more > 0 {
		where, ref := " more in the full view", Ref{Kind: RefExplain, Index: explainMore, Obj: int32(more)}
		if v.panel {
			where, ref.Count = " more: the panel's metrics table", 1
		}
		s.TextRef("counters/more", x, ry+smallSz, v.txt.Fit(v.txt.Join("+", v.txt.Num(float64(more)), where), w, smallSz), smallSz, Muted, AlignStart, ref)
	}
}

// counterCols are the counters' columns: the names' width, the bars'
// left edge and width, the values' right edge and whether they are
// short, and the B/A column's width.
type counterCols struct {
	nameW, barX, barW, right, ratioW float32
	short                            bool
}

// columns lays out the columns, right to left: B/A, the values, the bars,
// the name. B/A always shows; when the row is too narrow the values
// shorten first (161k for 161,470), then the names.
func (v *counterView) columns(shown []counterRow, x, w float32) counterCols {
	nameW, valW, ratioW := float32(0), float32(0), textWidth("B/A", smallSz)
	for _, r := range shown {
		nameW = max(nameW, textWidth(r.m.Name, smallSz))
		valW = max(valW, textWidth(v.values(r.m.Value, r.b, false), smallSz))
		ratioW = max(ratioW, textWidth(v.txt.Ratio(r.m.Value, r.b), smallSz))
	}
	// Columns keep colGap apart: the width estimate is 0.6 em a character,
	// and the stage font's digits are a little wider.
	const colGap = 14
	short := nameW+colGap+valW+colGap+ratioW > w
	if short {
		valW = 0
		for _, r := range shown {
			valW = max(valW, textWidth(v.values(r.m.Value, r.b, true), smallSz))
		}
	}
	right := x + w - ratioW - colGap
	nameW = max(min(nameW, right-x-valW-colGap), 0)
	barX := x + nameW + 8
	return counterCols{nameW: nameW, barX: barX, barW: right - valW - 8 - (x + nameW + 8) - 8, right: right, ratioW: ratioW, short: short}
}

// row draws one counter row at ry.
func (v *counterView) row(s *Scene, r counterRow, c counterCols, x, ry, w float32) {
	rowH := counterRowH
	ref := Ref{Kind: RefMetric, Index: r.idx}
	s.TextRef("counters/name", x, ry+smallSz, v.txt.Fit(r.m.Name, c.nameW+0.01, smallSz), smallSz, Text, AlignStart, ref)
	if v.masked {
		s.Text("counters/values", c.right, ry+smallSz, hidden, smallSz, Text, AlignEnd)
		s.Text("counters/ratio", x+w, ry+smallSz, hidden, smallSz, Muted, AlignEnd)
		return
	}
	if c.barW >= 30 {
		full := math.Max(math.Abs(r.m.Value), math.Abs(r.b))
		for side, val := range [2]float64{r.m.Value, r.b} {
			bw := float32(0)
			if full > 0 {
				bw = c.barW * float32(math.Abs(val)/full)
			}
			br := ref
			br.Side = uint8(side)
			s.Add(sideBarItem("counters/bar", r.idx*2+int32(side), side, c.barX, ry+3+float32(side)*(rowH/2-1), max(bw, 1), rowH/2-4, br))
		}
	}
	s.Text("counters/values", c.right, ry+smallSz, v.values(r.m.Value, r.b, c.short), smallSz, Text, AlignEnd)
	s.Text("counters/ratio", x+w, ry+smallSz, v.txt.Ratio(r.m.Value, r.b), smallSz, Muted, AlignEnd)
}

// values prints "A / B", in full (counts of 10,000 and more rounded to
// whole numbers, never 1.615e+05) or (short) as Short does.
func (v *counterView) values(a, b float64, short bool) string {
	if short {
		return v.txt.Join(v.txt.Short(a), " / ", v.txt.Short(b))
	}
	whole := func(v float64) float64 {
		if math.Abs(v) >= 1e4 {
			return math.Round(v)
		}
		return v
	}
	return v.txt.Join(v.txt.Num(whole(a)), " / ", v.txt.Num(whole(b)))
}

// need is the width the counters take with whole names, short values and
// B/A (no bars), for as many rows as fit in h.
func (v *counterView) need(h float32) float32 {
	if v.a == nil || v.b == nil {
		return 0
	}
	v.rows = counterRows(v.a, v.b, v.rows)
	n := min(len(v.rows), max(int((h-textSz-8)/float32(smallSz+6)), 0))
	nameW, valW, ratioW := float32(0), float32(0), textWidth("B/A", smallSz)
	for _, r := range v.rows[:n] {
		nameW = max(nameW, textWidth(r.m.Name, smallSz))
		valW = max(valW, textWidth(v.values(r.m.Value, r.b, true), smallSz))
		ratioW = max(ratioW, textWidth(v.txt.Ratio(r.m.Value, r.b), smallSz))
	}
	return nameW + valW + ratioW + 2*14 + 1 // 1: Fit counts whole characters
}

// describeMetric says what metric (or check) i is on both sides.
func (v *counterView) describeMetric(i int) string {
	a, b := v.a, v.b
	if a == nil || b == nil {
		return ""
	}
	var m scenario.Metric
	switch {
	case i < len(a.Metrics):
		m = a.Metrics[i]
	case i-len(a.Metrics) < len(a.Checks):
		m = a.Checks[i-len(a.Metrics)]
	default:
		return ""
	}
	if v.masked {
		return fmt.Sprintf("%s (%s): %s", m.Name, m.Label, maskedNote)
	}
	bv, _ := b.Metric(m.Name)
	unit := ""
	if m.Unit != "" {
		unit = " " + m.Unit
	}
	return fmt.Sprintf("%s (%s): A %s%s, B %s%s, B/A %s", m.Name, m.Label, v.txt.Num(m.Value), unit, v.txt.Num(bv), unit, v.txt.Ratio(m.Value, bv))
}

// RatioText is B/A as the stage and the panel print it.
func RatioText(a, b float64) string {
	switch {
	case a == b:
		return "="
	case a == 0:
		return "–"
	}
	r := b / a
	switch {
	case r == 0:
		return "×0" // B is exactly zero
	case math.Abs(r) < 1e-6:
		return "×<0.000001"
	case math.Abs(r) >= 1e6:
		return "×" + report.FormatNumber(math.Round(r))
	}
	return "×" + formatSig(r, 3)
}

// formatSig prints v with n significant digits, without an exponent.
func formatSig(v float64, n int) string {
	if v == 0 {
		return "0"
	}
	d := n - 1 - int(math.Floor(math.Log10(math.Abs(v))))
	p := math.Pow(10, float64(d))
	r := math.Round(v*p) / p
	if d <= 0 {
		return report.FormatNumber(r)
	}
	return trimZeros(r, d)
}

func trimZeros(v float64, decimals int) string {
	s := []byte(formatFixed(v, decimals))
	for len(s) > 0 && s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if len(s) > 0 && s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	return string(s)
}

func formatFixed(v float64, decimals int) string { return strconv.FormatFloat(v, 'f', decimals, 64) }
