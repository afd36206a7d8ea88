package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// A published figure is drawn as a marker in its series' colour, inside the
// y range even above every simulated point, and its label and the last x
// tick stay inside the chart.
func TestPublishedMarkerAndLabelsStayInside(t *testing.T) {
	c := scenario.Chart{XLabel: "buffer (B)", YLabel: "t_us", LogX: true,
		Series: []scenario.Series{
			{Name: "A", Points: []timeline.Point{{X: 1 << 16, Y: 1}, {X: 1 << 24, Y: 10}}},
			{Name: "B", Points: []timeline.Point{{X: 1 << 16, Y: 1}, {X: 1 << 24, Y: 5}}},
		},
		Published: []scenario.ChartRef{{Series: 1, X: 1 << 24, Y: 40, Label: "published 40"}},
	}
	var s Scene
	ChartScene(&s, &c, 316, 190)
	var marker, label *Item
	var lastTick *Item
	for i := range s.Items {
		it := &s.Items[i]
		switch it.ID {
		case "chart/published":
			marker = it
		case "chart/published-label":
			label = it
		case "chart/xlabel":
			lastTick = it
		}
	}
	require.NotNil(t, marker)
	assert.Equal(t, int32(1), marker.Index)
	assert.Equal(t, seriesColours[1], marker.Stroke)
	assert.GreaterOrEqual(t, marker.Y, float32(0), "the marker is inside the plot")
	require.NotNil(t, label)
	assert.Equal(t, AlignEnd, label.Align, "at the right edge the label goes left of the marker")
	require.NotNil(t, lastTick)
	assert.Equal(t, "16MiB", lastTick.Text)
	assert.LessOrEqual(t, lastTick.X, float32(316))
	assert.Equal(t, AlignEnd, lastTick.Align)
}

// The sweep figure's legend wraps into rows inside the figure, above the
// plot, and DrawChart's one-line legend is not drawn over the title.
func TestSweepLegendWraps(t *testing.T) {
	c := scenario.Chart{Title: "t", XLabel: "x (B)", YLabel: "y"}
	for i := 0; i < 4; i++ {
		c.Series = append(c.Series, scenario.Series{Name: "A per-entry-dsb, preset=neoverse-n1",
			Points: []timeline.Point{{X: 1, Y: float64(i)}, {X: 2, Y: float64(i + 1)}}})
	}
	var s Scene
	SweepChartScene(&s, &c, 760, 460)
	rows := map[float32]int{}
	var plotTop float32
	for _, it := range s.Items {
		switch it.ID {
		case "chart/key":
			assert.Fail(t, "DrawChart's own legend drawn", "%+v", it)
		case "chart/legend":
			rows[it.Y]++
			assert.LessOrEqual(t, it.X+textWidth(it.Text, it.Size), float32(760), "legend entry %q leaves the figure", it.Text)
		case "chart/plot":
			plotTop = it.Y
		}
	}
	assert.Len(t, rows, 2, "four long names take two rows")
	for y := range rows {
		assert.Less(t, y, plotTop)
	}
}
