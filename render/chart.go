package render

import (
	"math"
	"strings"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/timeline"
	"github.com/dmaviz/dmaviz/report"
)

// seriesColours colour a chart's lines in order; markers differ too
// (chartMarker), so the lines do not rely on colour alone: up to eight
// series differ in both.
var seriesColours = [...]Color{Sky, Orange, Green, Purple, Yellow, Red, Blue, Grey}

// Chart text sizes: charts are figures in the panel and in documents, laid
// out at their own scale (the stage's text is larger, for projectors).
const (
	chartTextSz  = 12
	chartSmallSz = 11
)

// ChartScene lays out one chart alone in a w x h scene (for the panel, the
// CLI and documentation figures).
func ChartScene(s *Scene, c *scenario.Chart, w, h float32) {
	s.Reset(w, h)
	DrawChart(s, c, 0, 0, w, h)
}

// DrawChart draws c as a line chart in the box (x, y, w, h): axes with
// ticks, one line per series with markers, a legend, and a vertical marker
// at c.Mark (the current setting).
func DrawChart(s *Scene, c *scenario.Chart, x, y, w, h float32) {
	v := chartView{c: c}
	v.Build(s, Rect{x, y, w, h})
}

// chartView is a line chart of a scenario.Chart (the panel's, the CLI's
// and documents' figures).
type chartView struct{ c *scenario.Chart }

// Chart margins: the y ticks left of the plot, the x ticks and axis name
// under it.
const (
	chartLeft, chartRight, chartBottom = 46, 10, 34
	chartPlotW, chartPlotH             = 40, 30
)

// MinSize is the title, the legend and the smallest plot.
func (v *chartView) MinSize() Size {
	w := float32(chartLeft + chartRight + chartPlotW)
	return Size{w, float32(20+chartKeyRows(v.c, 4, w-4)*14) + 22 + chartPlotH + chartBottom}
}

func (v *chartView) TextSizes() TextSizes {
	return TextSizes{Title: chartTextSz, Body: chartSmallSz, Least: chartSmallSz}
}

func (v *chartView) Describe(Ref) string { return "" }

// chartPlot maps data to the plot (px, py, pw, ph).
type chartPlot struct {
	px, py, pw, ph         float32
	xmin, xmax, ymin, ymax float64
	logX                   bool
}

func (p *chartPlot) fx(v float64) float32 {
	if p.logX {
		return p.px + p.pw*float32((math.Log(v)-math.Log(p.xmin))/(math.Log(p.xmax)-math.Log(p.xmin)))
	}
	return p.px + p.pw*float32((v-p.xmin)/(p.xmax-p.xmin))
}

func (p *chartPlot) fy(v float64) float32 {
	return p.py + p.ph - p.ph*float32((v-p.ymin)/(p.ymax-p.ymin))
}

func (v *chartView) Build(s *Scene, r Rect) {
	c, x, y, w, h := v.c, r.X, r.Y, r.W, r.H
	// Title, then the legend (wrapped), then the y axis label, each on its
	// own line above the plot, so none runs into another.
	s.Text("chart/title", x+4, y+14, chartFit(c.Title, w-8, chartTextSz), chartTextSz, Text, AlignStart)
	keyY := y + 20
	keyRows := chartKeyRows(c, x+4, x+w-4)
	top := float32(20+keyRows*14) + 22
	// Under the x axis' name, the parameters held fixed, where the plot
	// keeps its least height with them.
	fixed := chartFixed(c, w-8)
	if h-top-chartBottom-float32(len(fixed))*chartFixedRow < chartPlotH {
		fixed = nil
	}
	fixedH := float32(len(fixed)) * chartFixedRow
	p := chartPlot{px: x + chartLeft, py: y + top, pw: w - chartLeft - chartRight, ph: h - top - chartBottom - fixedH, logX: c.LogX}
	if p.pw < chartPlotW || p.ph < chartPlotH {
		return
	}
	var ok bool
	p.xmin, p.xmax, p.ymin, p.ymax, ok = chartBounds(c)
	if !ok {
		s.Text("chart/empty", p.px, p.py+p.ph/2, "no data", chartSmallSz, Muted, AlignStart)
		return
	}
	v.axes(s, &p, x, y, w, h-fixedH)
	v.series(s, &p)
	published(s, c, p.fx, p.fy, p.xmin, p.xmax, p.px, p.px+p.pw)
	v.key(s, x, keyY, w)
	for i, line := range fixed {
		s.Text("chart/fixed", x+4, y+h-fixedH+float32(i+1)*chartFixedRow-3, line, chartSmallSz, Muted, AlignStart)
	}
}

// chartFixedRow is the height of a line of the parameters held fixed.
const chartFixedRow = chartSmallSz + 3

// chartFixed is the chart's "held fixed: ..." line, wrapped to w.
func chartFixed(c *scenario.Chart, w float32) []string {
	if len(c.Fixed) == 0 {
		return nil
	}
	// (Wrap counts 0.58 em a character, textWidth 0.6.)
	return Wrap("held fixed: "+strings.Join(c.Fixed, ", "), w*0.58/0.6, chartSmallSz)
}

// axes draws the plot's background, the y grid and ticks, the x ticks,
// the zero line, the axes' names and the mark.
func (v *chartView) axes(s *Scene, p *chartPlot, x, y, w, h float32) {
	c := v.c
	px, py, pw, ph := p.px, p.py, p.pw, p.ph
	s.Rect("chart/plot", 0, px, py, pw, ph, Surface, Ref{})
	// Up to 5 ticks, one per 18 px of plot at most.
	for _, val := range niceTicks(p.ymin, p.ymax, min(5, max(int(ph/18), 2))) {
		ty := p.fy(val)
		s.Line("chart/ygrid", px, ty, px+pw, ty, Background, 1)
		s.Text("chart/ytick", px-4, ty+4, report.FormatNumber(val), chartSmallSz, Muted, AlignEnd)
	}
	bytes := strings.Contains(c.XLabel, "(B)")
	for _, val := range xTicks(p.xmin, p.xmax, c.LogX) {
		tx := p.fx(val)
		s.Line("chart/xtick", tx, py+ph, tx, py+ph+4, Muted, 1)
		label := report.FormatNumber(val)
		if bytes {
			label = scenario.FormatBytes(int64(val))
		}
		lx, align := tx, AlignMiddle
		if tx+textWidth(label, chartSmallSz)/2 > x+w { // the last tick at the plot's edge
			lx, align = x+w-1, AlignEnd
		}
		s.Text("chart/xlabel", lx, py+ph+15, label, chartSmallSz, Muted, align)
	}
	if p.ymin < 0 && p.ymax > 0 {
		s.Line("chart/zero", px, p.fy(0), px+pw, p.fy(0), Muted, 1)
	}
	s.Text("chart/xaxis", px+pw/2, y+h-4, c.XLabel, chartSmallSz, Muted, AlignMiddle)
	s.Text("chart/yaxis", x+4, py-9, chartFit(c.YLabel, w-8, chartSmallSz), chartSmallSz, Muted, AlignStart)
	if c.Mark > 0 && c.Mark >= p.xmin && c.Mark <= p.xmax {
		mx := p.fx(c.Mark)
		s.Line("chart/mark", mx, py, mx, py+ph, Cursor, 1.5)
	}
}

// series draws each series' line and markers. Series that coincide stay
// visible: each later series is drawn thinner, on top, with markers of
// another shape.
func (v *chartView) series(s *Scene, p *chartPlot) {
	for si, ser := range v.c.Series {
		col := seriesColours[si%len(seriesColours)]
		width := float32(max(4-2*si, 1))
		for i := 1; i < len(ser.Points); i++ {
			a, b := ser.Points[i-1], ser.Points[i]
			if !finite(a) || !finite(b) {
				continue
			}
			s.Line("chart/line", p.fx(a.X), p.fy(a.Y), p.fx(b.X), p.fy(b.Y), col, width)
		}
		for i, pt := range ser.Points {
			if finite(pt) {
				chartMarker(s, "chart/point", int32(si*1000+i), si, p.fx(pt.X), p.fy(pt.Y), col)
			}
		}
	}
}

// key names the series from (x+4, keyY), wrapping inside w.
func (v *chartView) key(s *Scene, x, keyY, w float32) {
	lx, ly := x+4, keyY
	for si, ser := range v.c.Series {
		col := seriesColours[si%len(seriesColours)]
		ew := 14 + textWidth(ser.Name, chartSmallSz)
		if lx > x+4 && lx+ew > x+w-4 {
			lx, ly = x+4, ly+14
		}
		chartMarker(s, "chart/key", int32(si), si, lx+4, ly+5, col)
		s.Text("chart/key", lx+12, ly+9, ser.Name, chartSmallSz, Text, AlignStart)
		lx += ew + 10
	}
}

// chartKeyRows is how many rows the legend takes between x0 and x1.
func chartKeyRows(c *scenario.Chart, x0, x1 float32) int {
	rows, lx := 1, x0
	for _, ser := range c.Series {
		ew := 14 + textWidth(ser.Name, chartSmallSz)
		if lx > x0 && lx+ew > x1 {
			rows, lx = rows+1, x0
		}
		lx += ew + 10
	}
	return rows
}

// chartFit shortens a chart's text to its width.
func chartFit(s string, w, size float32) string {
	var t texts
	return t.Fit(s, w, size)
}

func finite(p timeline.Point) bool {
	return !math.IsNaN(p.X) && !math.IsInf(p.X, 0) && !math.IsNaN(p.Y) && !math.IsInf(p.Y, 0)
}

// chartBounds returns the data range, padded on y, and whether there is
// anything to draw.
func chartBounds(c *scenario.Chart) (xmin, xmax, ymin, ymax float64, ok bool) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, ser := range c.Series {
		for _, p := range ser.Points {
			if !finite(p) || (c.LogX && p.X <= 0) {
				continue
			}
			xmin, xmax = math.Min(xmin, p.X), math.Max(xmax, p.X)
			ymin, ymax = math.Min(ymin, p.Y), math.Max(ymax, p.Y)
		}
	}
	if math.IsInf(xmin, 0) {
		return 0, 0, 0, 0, false
	}
	ymin, ymax = publishedBounds(c, ymin, ymax)
	if xmax == xmin {
		xmin, xmax = xmin*0.5, xmax*2
		if xmax == 0 {
			xmin, xmax = -1, 1
		}
	}
	if ymin > 0 && ymin < ymax*0.5 {
		ymin = 0
	}
	if ymax < 0 && ymax > ymin*0.5 {
		ymax = 0
	}
	if ymax == ymin {
		ymin, ymax = ymin-1, ymax+1
	}
	pad := (ymax - ymin) * 0.08
	return xmin, xmax, ymin - pad, ymax + pad, true
}

// niceTicks returns about n round values covering [lo, hi].
func niceTicks(lo, hi float64, n int) []float64 {
	step := math.Pow(10, math.Floor(math.Log10((hi-lo)/float64(n))))
	for _, m := range []float64{1, 2, 5, 10} {
		if (hi-lo)/(step*m) <= float64(n) {
			step *= m
			break
		}
	}
	var out []float64
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9 && len(out) < 4*n; v += step {
		out = append(out, math.Round(v/step)*step)
	}
	return out
}

// xTicks are powers of two on a log axis (thinned to about 8), round values
// on a linear one.
func xTicks(lo, hi float64, log bool) []float64 {
	if !log {
		return niceTicks(lo, hi, 6)
	}
	var out []float64
	for v := math.Pow(2, math.Ceil(math.Log2(lo))); v <= hi*(1+1e-9); v *= 2 {
		out = append(out, v)
	}
	for len(out) > 8 {
		thin := out[:0]
		for i := 0; i < len(out); i += 2 {
			thin = append(thin, out[i])
		}
		out = thin
	}
	return out
}
