package render

import (
	"math"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// published draws each published figure of c as an open square in its
// series' colour (index = series) with a cross-hair, labelled with the
// figure, so it reads apart from the simulated points; fx and fy map data
// to the plot, whose edges are left and right.
func published(s *Scene, c *scenario.Chart, fx, fy func(float64) float32, xmin, xmax float64, left, right float32) {
	for _, p := range c.Published {
		if math.IsNaN(p.X) || math.IsNaN(p.Y) || math.IsInf(p.Y, 0) || p.X < xmin || p.X > xmax {
			continue
		}
		col := seriesColours[max(p.Series, 0)%len(seriesColours)]
		x, y := fx(p.X), fy(p.Y)
		const r = 6
		s.Add(Item{Kind: KindRect, ID: "chart/published", Index: int32(p.Series), X: x - r, Y: y - r, W: 2 * r, H: 2 * r,
			Fill: None, Stroke: col, StrokeWidth: 2})
		s.Line("chart/published-tick", x-r-3, y, x-r, y, col, 1)
		s.Line("chart/published-tick", x+r, y, x+r+3, y, col, 1)
		// The label goes right of the marker, or left where it would
		// leave the plot, or above it, kept inside the plot, where it
		// fits on neither side (a small chart).
		lw := textWidth(p.Label, chartSmallSz)
		switch {
		case x+r+5+lw <= right:
			s.Text("chart/published-label", x+r+5, y-r, p.Label, chartSmallSz, Text, AlignStart)
		case x-r-5-lw >= left:
			s.Text("chart/published-label", x-r-5, y-r, p.Label, chartSmallSz, Text, AlignEnd)
		default:
			lx := min(max(x-lw/2, left), right-lw)
			s.Text("chart/published-label", lx, y-r-3, p.Label, chartSmallSz, Text, AlignStart)
		}
	}
}

// publishedBounds widens the y range to take in the published figures.
func publishedBounds(c *scenario.Chart, ymin, ymax float64) (float64, float64) {
	for _, p := range c.Published {
		if !math.IsNaN(p.Y) && !math.IsInf(p.Y, 0) {
			ymin, ymax = math.Min(ymin, p.Y), math.Max(ymax, p.Y)
		}
	}
	return ymin, ymax
}
