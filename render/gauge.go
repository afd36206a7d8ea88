package render

import "github.com/dmaviz/dmaviz/model/timeline"

// gaugeView draws a side's values that are neither grid pointers nor grid
// flags, a row each: gauges as bars of Value/Max, flags as on/off,
// pointers without a grid as numbers. A label too long to share its row
// with the bar takes a row of its own.
type gaugeView struct {
	txt *texts
	d   sideData
}

func (v *gaugeView) bind(txt *texts, d sideData) { *v = gaugeView{txt: txt, d: d} }

// height is the height the gauges take in a column w wide.
func (v *gaugeView) height(w float32) float32 { return float32(gaugeRows(v.d.tl, w)) * gaugeRow }

// MinSize: the gauges draw in any width, a row at a time.
func (v *gaugeView) MinSize() Size { return Size{0, gaugeRow} }

func (v *gaugeView) TextSizes() TextSizes {
	return TextSizes{Title: smallSz, Body: smallSz, Least: smallSz}
}

func (v *gaugeView) Describe(r Ref) string { return v.d.describe(r) }

func (v *gaugeView) Build(s *Scene, r Rect) {
	ids := &sideIDs[v.d.side]
	tl, state := v.d.tl, v.d.state
	x, y, w := r.X, r.Y, r.W
	row := 0
	for i, spec := range tl.Values {
		if !isGauge(spec) || i >= len(state.Values) {
			continue
		}
		if row >= maxGaugeRows {
			return
		}
		val := state.Values[i]
		ry := y + float32(row)*gaugeRow
		s.TextRef(ids.gaugeLabel, x, ry+textSz, v.txt.FitFirst(w, smallSz, spec.Label, baseLabel(spec.Label)), smallSz, Muted, AlignStart, Ref{Kind: RefValue, Side: v.d.side, Obj: int32(i)})
		bx, bw := x+w*0.45, w*0.4
		if gaugeTwoLines(spec, w) {
			// The label takes its own line; the bar goes under it.
			row++
			ry += gaugeRow
			bx, bw = x, w*0.8
		}
		v.value(s, i, spec, val, bx, bw, ry)
		row++
	}
}

// value draws gauge i's bar (or on/off, or number) from bx, bw wide, on
// the row at ry.
func (v *gaugeView) value(s *Scene, i int, spec timeline.ValueSpec, val int64, bx, bw, ry float32) {
	ids := &sideIDs[v.d.side]
	ref := Ref{Kind: RefValue, Side: v.d.side, Obj: int32(i)}
	switch spec.Kind {
	case timeline.ValueFlag:
		fill, word := Surface, "off"
		if val != 0 {
			fill, word = Text, "on"
		}
		s.Rect(ids.gauge, int32(i), bx, ry+3, 28, gaugeRow-6, fill, ref)
		s.Text(ids.gaugeLabel, bx+34, ry+textSz, word, smallSz, Text, AlignStart)
	case timeline.ValueGauge:
		s.Rect(ids.gauge, int32(i), bx, ry+3, bw, gaugeRow-6, Surface, ref)
		if spec.Max > 0 && val > 0 {
			s.Rect(ids.gauge, int32(i), bx, ry+3, bw*float32(min(val, spec.Max))/float32(spec.Max), gaugeRow-6, Accent, ref)
		}
		s.Text(ids.gaugeLabel, bx+bw+6, ry+textSz, v.txt.Num(float64(val)), smallSz, Text, AlignStart)
	default:
		s.Text(ids.gaugeLabel, bx, ry+textSz, v.txt.Num(float64(val)), smallSz, Text, AlignStart)
	}
}

// maxGaugeRows bounds the rows the gauges take under a side's column.
const maxGaugeRows = 6

// gaugeTwoLines reports whether a gauge's label is too long to share its
// line with the bar and value in a column w wide.
func gaugeTwoLines(v timeline.ValueSpec, w float32) bool {
	return textWidth(v.Label, smallSz)+6 > w*0.45
}

// gaugeRows is how many rows the gauges of tl take in a column w wide.
func gaugeRows(tl *timeline.Timeline, w float32) int {
	n := 0
	for _, v := range tl.Values {
		if !isGauge(v) {
			continue
		}
		n++
		if gaugeTwoLines(v, w) {
			n++
		}
	}
	return min(n, maxGaugeRows)
}

// isGauge reports whether a value is drawn in the gauge rows rather than on
// its grid (pointers and flags that belong to a grid are drawn there).
func isGauge(v timeline.ValueSpec) bool {
	return v.Grid < 0 || (v.Kind != timeline.ValuePointer && v.Kind != timeline.ValueFlag)
}
