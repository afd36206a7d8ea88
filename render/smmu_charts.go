package render

import (
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// smmuLatMetric is the average the histogram marks.
const smmuLatMetric = "bypass_read_latency_cycles"

// smmuCurve returns a side's latency histogram (hist) or throughput curve.
func smmuCurve(sd *Side, hist bool) []timeline.Point {
	if sd.Result == nil || sd.Result.Timeline == nil || sd.Result.Timeline.SMMU == nil {
		return nil
	}
	if hist {
		return sd.Result.Timeline.SMMU.LatencyHist
	}
	return sd.Result.Timeline.SMMU.Throughput
}

// smmuAxes draws a plot box's title (on its own line above the keys when
// both do not fit on one), frame and y ticks, and returns the
// plot area; ok is false when it is too small to draw in.
func smmuAxes(txt *texts, s *Scene, id, title, xlabel string, ymax float64, keys [2]string, x, y, w, h float32) (px, py, pw, ph float32, ok bool) {
	kw := sideKeysWidth(keys)
	if textWidth(title, smmuSz)+8+kw > w {
		s.Text(id+"/title", x, y+smmuSz, txt.Fit(title, w, smmuSz), smmuSz, Text, AlignStart)
		y, h = y+smmuSz+4, h-smmuSz-4
	} else {
		s.Text(id+"/title", x, y+smmuSz, title, smmuSz, Text, AlignStart)
	}
	sideKeys(s, id+"/key", keys, x+w, y)
	const left, bottom = 44, 2*smmuSz + 8
	px, py, pw, ph = x+left, y+smmuSz+10, w-left-4, h-smmuSz-10-bottom
	if pw < smmuPlotW || ph < smmuPlotH || ymax <= 0 {
		return 0, 0, 0, 0, false
	}
	s.Rect(id+"/plot", 0, px, py, pw, ph, Surface, Ref{})
	last := py + ph + 2*smmuSz // the first tick is always drawn
	for _, v := range niceTicks(0, ymax, 3) {
		ty := py + ph - ph*float32(v/ymax)
		if last-ty < smmuSz+2 {
			continue // a short plot skips a tick too close to the last
		}
		last = ty
		s.Line(id+"/ygrid", px, ty, px+pw, ty, Background, 1)
		s.Text(id+"/ytick", px-4, ty+5, txt.Num(v), smmuSz, Muted, AlignEnd)
	}
	s.Text(id+"/xaxis", px+pw, y+h-2, xlabel, smmuSz, Muted, AlignEnd) // right: the embed overlay sits at the bottom left
	return px, py, pw, ph, true
}

// The SMMU charts' plots are at least smmuPlotW x smmuPlotH, beside the
// y ticks (44 px) and above the x ticks and axis name.
const (
	smmuPlotW = 60
	smmuPlotH = 30
)

// smmuChartMin is the smallest box an SMMU chart draws its plot in: at
// this width its title takes a line of its own above the keys.
var smmuChartMin = Size{44 + smmuPlotW + 4, smmuSz + 4 + smmuSz + 10 + smmuPlotH + 2*smmuSz + 8}

// smmuChart is what the SMMU charts share: both runs on the player's
// axis, their size and text sizes. Masked (a lesson's question before its
// reveal), the histogram of whole runs shows no bars or averages and the
// forwarding curve stops at the cursor.
type smmuChart struct {
	txt *texts
	pairData
	masked bool
}

func (v *smmuChart) bind(txt *texts, f *Frame) {
	*v = smmuChart{txt: txt, pairData: pairOf(f), masked: f.Masked}
}

func (v *smmuChart) MinSize() Size { return smmuChartMin }

func (v *smmuChart) TextSizes() TextSizes {
	return TextSizes{Title: smmuSz, Body: smmuSz, Least: smmuSz}
}

// Describe says what a bar of the histogram or a point of the forwarding
// curve stands for.
func (v *smmuChart) Describe(r Ref) string {
	side := min(r.Side, 1)
	switch r.Obj {
	case smmuHist:
		return describeHist(sideNames[side], smmuCurve(v.sides[side], true), int(r.Index))
	case smmuTput:
		return describeTput(sideNames[side], smmuCurve(v.sides[side], false), int(r.Index))
	}
	return ""
}

// smmuHistView draws the NIC's read latency distribution of A and B as
// paired bars, with each side's average as a vertical line.
type smmuHistView struct{ smmuChart }

func (v *smmuHistView) Build(s *Scene, r Rect) {
	x, y, w, h := r.X, r.Y, r.W, r.H
	var series [2][]timeline.Point
	last, ymax := 0, 0.0
	for side, sd := range v.sides {
		series[side] = smmuCurve(sd, true)
		for i, p := range series[side] {
			if p.Y > 0 {
				last = max(last, i)
				ymax = max(ymax, p.Y)
			}
		}
	}
	px, py, pw, ph, ok := smmuAxes(v.txt, s, "smmu-hist", "NIC reads (%)", "latency (platform cycles)", niceMax(ymax), v.keys(), x, y, w, h)
	if !ok {
		return
	}
	if v.masked {
		s.Text("smmu-hist/masked", px+8, py+ph/2+smmuSz*0.35, v.txt.Fit(maskedNote, pw-16, smmuSz), smmuSz, Muted, AlignStart)
		return
	}
	ymax = niceMax(ymax)
	bins := last + 1
	binW := pw / float32(bins)
	var xmax float64
	for side, ser := range series {
		for i, p := range ser[:min(bins, len(ser))] {
			bh := ph * float32(p.Y/ymax)
			bx := px + float32(i)*binW + float32(side)*binW/2
			if p.Y > 0 {
				s.Add(sideMark("smmu-hist/bar", int32(side*1000+i), side, bx, py+ph-bh, max(binW/2-1, 1), bh,
					Ref{Kind: RefSMMU, Side: uint8(side), Obj: smmuHist, Index: int32(i)}))
			}
		}
		if n := len(ser); n > 1 {
			xmax = ser[min(bins, n)-1].X + (ser[1].X-ser[0].X)/2
		}
	}
	if xmax <= 0 {
		return
	}
	v.xAxis(s, px, py, pw, ph, xmax)
}

// keys name the sides with their average latency.
func (v *smmuHistView) keys() [2]string {
	var keys [2]string
	for side, sd := range v.sides {
		keys[side] = sideNames[side]
		if sd.Result == nil || v.masked {
			continue
		}
		if avg, ok := sd.Result.Metric(smmuLatMetric); ok {
			keys[side] = v.txt.Join(sideNames[side], " average ", v.txt.Num(float64(int(avg+0.5))))
		}
	}
	return keys
}

// xAxis draws the latency ticks under the plot, up to xmax, and each
// side's average as a line across it.
func (v *smmuHistView) xAxis(s *Scene, px, py, pw, ph float32, xmax float64) {
	fx := func(val float64) float32 { return px + pw*float32(val/xmax) }
	for _, val := range niceTicks(0, xmax, 5) {
		tx := fx(val)
		s.Line("smmu-hist/xtick", tx, py+ph, tx, py+ph+4, Muted, 1)
		s.Text("smmu-hist/xlabel", tx, py+ph+smmuSz+4, v.txt.Num(val), smmuSz, Muted, AlignMiddle)
	}
	for side, sd := range v.sides {
		if sd.Result == nil {
			continue
		}
		if avg, ok := sd.Result.Metric(smmuLatMetric); ok && avg > 0 && avg <= xmax {
			s.Line("smmu-hist/avg", fx(avg), py, fx(avg), py+ph, SideColor(side), float32(4-2*side))
		}
	}
}

// niceMax rounds v up to the last of niceTicks(0, v, 3).
func niceMax(v float64) float64 {
	if v <= 0 {
		return 0
	}
	t := niceTicks(0, v, 3)
	if len(t) > 0 && t[len(t)-1] >= v {
		return t[len(t)-1]
	}
	if len(t) > 1 {
		return t[len(t)-1] + (t[1] - t[0])
	}
	return v
}

// smmuTputView draws packets forwarded per microsecond over each run's
// time, with the cursor.
type smmuTputView struct{ smmuChart }

func (v *smmuTputView) Build(s *Scene, r Rect) {
	x, y, w, h := r.X, r.Y, r.W, r.H
	var curves [2][]timeline.Point
	var xmax, ymax float64
	for side, sd := range v.sides {
		curves[side] = smmuCurve(sd, false)
		for _, p := range curves[side] {
			xmax, ymax = max(xmax, p.X), max(ymax, p.Y)
		}
	}
	if us := float64(v.length) / float64(sim.Microsecond); !v.progress && us > xmax {
		xmax = us
	}
	ymax = niceMax(ymax)
	px, py, pw, ph, ok := smmuAxes(v.txt, s, "smmu-tput", "forwarding over time (packets per µs)", "time (µs)", ymax, [2]string{"A", "B"}, x, y, w, h)
	if !ok || xmax <= 0 {
		return
	}
	fx := func(val float64) float32 { return px + pw*float32(min(val/xmax, 1)) }
	fy := func(val float64) float32 { return py + ph - ph*float32(val/ymax) }
	for _, val := range niceTicks(0, xmax, 5) {
		tx := fx(val)
		s.Line("smmu-tput/xtick", tx, py+ph, tx, py+ph+4, Muted, 1)
		label, align := v.txt.Num(val), AlignMiddle
		if tx+textWidth(label, smmuSz)/2 > x+w {
			align = AlignEnd
		}
		s.Text("smmu-tput/xlabel", tx, py+ph+smmuSz+4, label, smmuSz, Muted, align)
	}
	for side, pts := range curves {
		width := float32(2)
		if side == 0 { // under B, wider, so A shows where the two coincide
			width = 5
		}
		for i := 1; i < len(pts); i++ {
			if v.masked && pts[i].X > v.cursorX(xmax) {
				break
			}
			s.Add(Item{Kind: KindLine, ID: "smmu-tput/line", Index: int32(side*100000 + i), X: fx(pts[i-1].X), Y: fy(pts[i-1].Y), X2: fx(pts[i].X), Y2: fy(pts[i].Y),
				Fill: None, Stroke: SideColor(side), StrokeWidth: width, Ref: Ref{Kind: RefSMMU, Side: uint8(side), Obj: smmuTput, Index: int32(i)}})
		}
	}
	cx := fx(v.cursorX(xmax))
	s.Line("smmu-tput/cursor", cx, py-2, cx, py+ph+2, Cursor, 2)
}

// cursorX is the cursor on the forwarding curve's axis, which ends at
// xmax µs.
func (v *smmuTputView) cursorX(xmax float64) float64 {
	if v.progress && v.length > 0 {
		return xmax * float64(v.cursor) / float64(v.length)
	}
	return float64(v.cursor) / float64(sim.Microsecond)
}

// sideKeys draws a swatch in each side's colour with its key, ending at
// right on the title line at y (the columns above say which policy each
// side runs), and returns the width used.
func sideKeys(s *Scene, id string, keys [2]string, right, y float32) float32 {
	w := sideKeysWidth(keys)
	x := right - w
	for side, k := range keys {
		s.Add(sideMark(id, int32(side), side, x, y+2, 14, 14, Ref{}))
		s.Text(id, x+18, y+smmuSz, k, smmuSz, Text, AlignStart)
		x += 18 + textWidth(k, smmuSz) + 12
	}
	return w
}

func sideKeysWidth(keys [2]string) float32 {
	w := float32(0)
	for _, k := range keys {
		w += 18 + textWidth(k, smmuSz) + 12
	}
	return w
}

// sideMark is side's bar or key swatch in the SMMU charts: A filled in
// Accent, B outlined in Text (marks, not meaning colours, tell them apart).
func sideMark(id string, index int32, side int, x, y, w, h float32, ref Ref) Item {
	it := Item{Kind: KindRect, ID: id, Index: index, X: x, Y: y, W: w, H: h, Fill: SideColor(side), Stroke: None, Ref: ref}
	if side == 1 {
		it.Fill, it.Stroke, it.StrokeWidth = None, SideColor(side), 1
	}
	return it
}
