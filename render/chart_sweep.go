package render

import "github.com/dmaviz/dmaviz/model/scenario"

// SweepChartScene lays out a sweep's chart alone in a w x h scene (dmaviz
// sweep --svg): the title, then a legend that wraps into as many rows as
// the series need (a two-parameter sweep has a series per side and second
// value, with long names), then the chart itself drawn by DrawChart.
func SweepChartScene(s *Scene, c *scenario.Chart, w, h float32) {
	s.Reset(w, h)
	const pad, rowH, key = 8, 16, 10
	s.Text("chart/title", pad, pad+textSz, c.Title, textSz, Text, AlignStart)
	y := float32(pad + textSz + 8)
	x := float32(pad)
	for i, ser := range c.Series {
		col := seriesColours[i%len(seriesColours)]
		entry := key + 4 + textWidth(ser.Name, smallSz) + 14
		if x > pad && x+entry > w-pad {
			x, y = pad, y+rowH
		}
		chartMarker(s, "chart/legend-key", int32(i), i, x+key/2, y+key/2, col)
		s.Text("chart/legend", x+key+4, y+key, ser.Name, smallSz, Text, AlignStart)
		x += entry
	}
	if len(c.Series) > 0 {
		y += rowH
	}
	if len(c.Published) > 0 {
		s.Text("chart/legend-published", pad, y+key, "open squares: published figures", smallSz, Muted, AlignStart)
		y += rowH
	}
	// DrawChart draws its own title and legend on one line; both are
	// above, so its copies are dropped.
	plot := *c
	plot.Title = ""
	first := len(s.Items)
	DrawChart(s, &plot, 0, y-6, w, h-(y-6))
	kept := s.Items[:first]
	for _, it := range s.Items[first:] {
		if it.ID != "chart/key" && it.ID != "chart/title" {
			kept = append(kept, it)
		}
	}
	s.Items = kept
}
