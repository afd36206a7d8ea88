package render

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/timeline"
)

func TestChartPlacesPointsAndMarkOnALogAxis(t *testing.T) {
	c := scenario.Chart{Title: "t", XLabel: "entry size (B)", YLabel: "%", LogX: true, Mark: 4096,
		Series: []scenario.Series{{Name: "s", Points: []timeline.Point{{X: 512, Y: 10}, {X: 4096, Y: 50}, {X: 32768, Y: 90}, {X: math.NaN(), Y: 1}}}}}
	var s Scene
	ChartScene(&s, &c, 400, 240)
	var plot, mark *Item
	var points []Item
	for i := range s.Items {
		it := &s.Items[i]
		switch it.ID {
		case "chart/plot":
			plot = it
		case "chart/mark":
			mark = it
		case "chart/point":
			points = append(points, *it)
		}
	}
	require.NotNil(t, plot, "no chart/plot item")
	require.NotNil(t, mark, "no chart/mark item")
	require.Len(t, points, 3, "chart points (the NaN point must be skipped)")
	cx := func(it Item) float32 { return it.X + it.W/2 }
	cy := func(it Item) float32 { return it.Y + it.H/2 }
	// 4096 is the geometric middle of 512..32768 on a log axis.
	mid := plot.X + plot.W/2
	assert.InDelta(t, mid, cx(points[1]), 0.5, "4096 drawn off the plot's middle")
	assert.InDelta(t, mid, mark.X, 0.5, "mark drawn off the plot's middle")
	for i, p := range points {
		assert.False(t, cx(p) < plot.X || cx(p) > plot.X+plot.W || cy(p) < plot.Y || cy(p) > plot.Y+plot.H,
			"point %d at (%v, %v) outside the plot %+v", i, cx(p), cy(p), *plot)
	}
	assert.Greater(t, cy(points[0]), cy(points[1]), "larger values are not drawn higher (points 0, 1)")
	assert.Greater(t, cy(points[1]), cy(points[2]), "larger values are not drawn higher (points 1, 2)")
}

func TestChartWithoutDataSaysSo(t *testing.T) {
	var s Scene
	ChartScene(&s, &scenario.Chart{Title: "empty"}, 300, 200)
	found := false
	for _, it := range s.Items {
		found = found || it.Text == "no data"
	}
	require.True(t, found, "an empty chart does not say it has no data")
}

func TestFitShortensWithAnEllipsis(t *testing.T) {
	var tx texts
	assert.Equal(t, "short", tx.Fit("short", 200, 10), "Fit with room to spare")
	assert.Equal(t, "ETR buffe…", tx.Fit("ETR buffer (1MiB) (ring)", 60, 10), "Fit into 10 characters at 6 px")
	assert.Empty(t, tx.Fit("x", 2, 10), "Fit into no room is not empty")
}
