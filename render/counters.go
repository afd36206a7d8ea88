package render

import (
	"math"

	"github.com/dmaviz/dmaviz/model/scenario"
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

// counters draws one row per check (then metric) that both sides report:
// two bars scaled to the larger value, the values, and B/A.
func (st *Stage) counters(s *Scene, f *Frame, x, y, w, h float32) {
	s.Text("counters/title", x, y+textSz, "counters", textSz, Muted, AlignStart)
	s.Add(sideBarItem("counters/key", 0, 0, x+70, y+5, 14, 6, Ref{}))
	s.Text("counters/key", x+88, y+textSz, "A", smallSz, Text, AlignStart)
	s.Add(sideBarItem("counters/key", 1, 1, x+104, y+5, 14, 6, Ref{}))
	s.Text("counters/key", x+122, y+textSz, "B", smallSz, Text, AlignStart)
	a, b := f.A.Result, f.B.Result
	if a == nil || b == nil {
		return
	}
	rowH := float32(18)
	top := y + textSz + 8
	maxRows := int((y + h - top) / rowH)
	labelW, barW := w*0.36, w*0.26
	row := 0
	for pass, list := range [2][]scenario.Metric{a.Checks, a.Metrics} {
		for mi, m := range list {
			if row >= maxRows {
				return
			}
			bv, ok := b.Metric(m.Name)
			if !ok {
				continue
			}
			ry := top + float32(row)*rowH
			idx := int32(len(a.Metrics) + mi) // a check
			if pass == 1 {
				idx = int32(mi)
			}
			ref := Ref{Kind: RefMetric, Index: idx}
			s.Text("counters/name", x, ry+textSz, m.Name, smallSz, Text, AlignStart)
			full := math.Max(math.Abs(m.Value), math.Abs(bv))
			bx := x + labelW
			for side, v := range [2]float64{m.Value, bv} {
				bw := float32(0)
				if full > 0 {
					bw = barW * float32(math.Abs(v)/full)
				}
				r := ref
				r.Side = uint8(side)
				s.Add(sideBarItem("counters/bar", idx*2+int32(side), side, bx, ry+2+float32(side)*(rowH/2-2), max(bw, 1), rowH/2-3, r))
			}
			values := st.txt.Join(st.txt.Num(m.Value), " / ", st.txt.Num(bv))
			s.Text("counters/values", bx+barW+8, ry+textSz, values, smallSz, Text, AlignStart)
			// The ratio only when it does not run into the values.
			if ratio := st.ratio(m.Value, bv); bx+barW+8+textWidth(values, smallSz)+8+textWidth(ratio, smallSz) <= x+w {
				s.Text("counters/ratio", x+w, ry+textSz, ratio, smallSz, Muted, AlignEnd)
			}
			row++
		}
	}
}

// ratio prints B/A ("×0.302"), or the difference when A is zero.
func (st *Stage) ratio(a, b float64) string {
	switch {
	case a == b:
		return "="
	case a != 0:
		return st.txt.Join("×", st.txt.Num(math.Round(b/a*1000)/1000), "")
	case b > 0:
		return st.txt.Join("+", st.txt.Num(b), "")
	}
	return st.txt.Num(b)
}
