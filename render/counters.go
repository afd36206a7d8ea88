package render

import (
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

// counters draws one row per check (then metric) that both sides report:
// the name, two bars scaled to the larger value (when there is room), the
// values "A / B" and B/A. Rows that do not fit are counted on the last
// line, which points to the panel's metrics table.
func (st *Stage) counters(s *Scene, f *Frame, x, y, w, h float32) {
	s.TextRef("counters/title", x, y+textSz, "counters", textSz, Muted, AlignStart, Ref{Kind: RefExplain, Index: explainCounter})
	keyX := x + textWidth("counters", textSz) + 10
	s.Add(sideBarItem("counters/key", 0, 0, keyX, y+5, 14, 7, Ref{}))
	s.Text("counters/key", keyX+18, y+textSz, "A", smallSz, Text, AlignStart)
	s.Add(sideBarItem("counters/key", 1, 1, keyX+36, y+5, 14, 7, Ref{}))
	s.Text("counters/key", keyX+54, y+textSz, "B", smallSz, Text, AlignStart)
	a, b := f.A.Result, f.B.Result
	if a == nil || b == nil {
		return
	}
	st.rows = counterRows(a, b, st.rows)
	rowH := float32(smallSz + 6)
	top := y + textSz + 8
	maxRows := int((y + h - top) / rowH)
	if maxRows <= 0 {
		return
	}
	shown := st.rows
	if len(shown) > maxRows {
		shown = shown[:maxRows-1]
	}
	// Columns, right to left: B/A, the values, the bars, the name. B/A
	// always shows; when the row is too narrow the values shorten first
	// (161k for 161,470), then the names.
	nameW, valW, ratioW := float32(0), float32(0), textWidth("B/A", smallSz)
	for _, r := range shown {
		nameW = max(nameW, textWidth(r.m.Name, smallSz))
		valW = max(valW, textWidth(st.values(r.m.Value, r.b, false), smallSz))
		ratioW = max(ratioW, textWidth(st.ratio(r.m.Value, r.b), smallSz))
	}
	if keyX+54+textWidth("B", smallSz)+8+ratioW <= x+w {
		s.Text("counters/head", x+w, y+textSz, "B/A", smallSz, Muted, AlignEnd)
	}
	// Columns keep colGap apart: the width estimate is 0.6 em a character,
	// and the stage font's digits are a little wider.
	const colGap = 14
	short := nameW+colGap+valW+colGap+ratioW > w
	if short {
		valW = 0
		for _, r := range shown {
			valW = max(valW, textWidth(st.values(r.m.Value, r.b, true), smallSz))
		}
	}
	right := x + w - ratioW - colGap
	nameW = max(min(nameW, right-x-valW-colGap), 0)
	barX, barW := x+nameW+8, right-valW-8-(x+nameW+8)-8
	for row, r := range shown {
		ry := top + float32(row)*rowH
		ref := Ref{Kind: RefMetric, Index: r.idx}
		s.TextRef("counters/name", x, ry+smallSz, st.txt.Fit(r.m.Name, nameW+0.01, smallSz), smallSz, Text, AlignStart, ref)
		if barW >= 30 {
			full := math.Max(math.Abs(r.m.Value), math.Abs(r.b))
			for side, v := range [2]float64{r.m.Value, r.b} {
				bw := float32(0)
				if full > 0 {
					bw = barW * float32(math.Abs(v)/full)
				}
				br := ref
				br.Side = uint8(side)
				s.Add(sideBarItem("counters/bar", r.idx*2+int32(side), side, barX, ry+3+float32(side)*(rowH/2-1), max(bw, 1), rowH/2-4, br))
			}
		}
		s.Text("counters/values", right, ry+smallSz, st.values(r.m.Value, r.b, short), smallSz, Text, AlignEnd)
		s.Text("counters/ratio", x+w, ry+smallSz, st.ratio(r.m.Value, r.b), smallSz, Muted, AlignEnd)
	}
	if more := len(st.rows) - len(shown); more > 0 {
		ry := top + float32(len(shown))*rowH
		s.TextRef("counters/more", x, ry+smallSz, st.txt.Fit(st.txt.Join("+", st.txt.Num(float64(more)), " more: the panel's metrics table"), w, smallSz), smallSz, Muted, AlignStart,
			Ref{Kind: RefExplain, Index: explainMore, Obj: int32(more)})
	}
}

// values prints "A / B", in full (counts of 10,000 and more rounded to
// whole numbers, never 1.615e+05) or (short) as Short does.
func (st *Stage) values(a, b float64, short bool) string {
	if short {
		return st.txt.Join(st.txt.Short(a), " / ", st.txt.Short(b))
	}
	whole := func(v float64) float64 {
		if math.Abs(v) >= 1e4 {
			return math.Round(v)
		}
		return v
	}
	return st.txt.Join(st.txt.Num(whole(a)), " / ", st.txt.Num(whole(b)))
}

// countersNeed is the width the counters take with whole names, short
// values and B/A (no bars), for as many rows as fit in h.
func (st *Stage) countersNeed(f *Frame, h float32) float32 {
	a, b := f.A.Result, f.B.Result
	if a == nil || b == nil {
		return 0
	}
	st.rows = counterRows(a, b, st.rows)
	n := min(len(st.rows), max(int((h-textSz-8)/float32(smallSz+6)), 0))
	nameW, valW, ratioW := float32(0), float32(0), textWidth("B/A", smallSz)
	for _, r := range st.rows[:n] {
		nameW = max(nameW, textWidth(r.m.Name, smallSz))
		valW = max(valW, textWidth(st.values(r.m.Value, r.b, true), smallSz))
		ratioW = max(ratioW, textWidth(st.ratio(r.m.Value, r.b), smallSz))
	}
	return nameW + valW + ratioW + 2*14 + 1 // 1: Fit counts whole characters
}

// ratio prints B/A with three significant digits ("×0.313", "×0.000391",
// never a rounded "×0"), "=" when the two are equal (0/0 included), and "–"
// when A is zero and B is not (no ratio exists).
func (st *Stage) ratio(a, b float64) string { return st.txt.Ratio(a, b) }

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
