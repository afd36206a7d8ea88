package render

import (
	"fmt"
	"math"
	"strings"
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

// markSig is the shape of an item set, colour aside, relative to (x, y).
func markSig(items []Item, x, y float32) string {
	var b strings.Builder
	for _, it := range items {
		fmt.Fprintf(&b, "%d %.1f %.1f %.1f %.1f %.1f %.1f %v|", it.Kind, it.X-x, it.Y-y, it.W, it.H, it.X2-x, it.Y2-y, it.Fill == None)
	}
	return b.String()
}

// Up to eight series differ in both colour and marker, and no series'
// marker is the published figures' open square: in a sweep, B's points
// (the second series) used to be open squares like a published figure.
func TestChartSeriesMarksAreDistinctAndApartFromPublished(t *testing.T) {
	seen := map[string]int{}
	colours := map[Color]int{}
	for si := 0; si < 8; si++ {
		var s Scene
		chartMarker(&s, "m", 0, si, 50, 50, seriesColours[si%len(seriesColours)])
		require.NotEmpty(t, s.Items)
		sig := markSig(s.Items, 50, 50)
		if k, dup := seen[sig]; dup {
			t.Errorf("series %d has series %d's marker", si, k)
		}
		seen[sig] = si
		for _, it := range s.Items {
			assert.False(t, it.Kind == KindRect && it.Fill == None, "series %d's marker is an open square, the published figures' mark", si)
		}
		c := seriesColours[si%len(seriesColours)]
		if k, dup := colours[c]; dup {
			t.Errorf("series %d has series %d's colour", si, k)
		}
		colours[c] = si
	}
	// The published mark is an open square.
	var s Scene
	c := scenario.Chart{Published: []scenario.ChartRef{{Series: 1, X: 1, Y: 1, Label: "published 1"}}}
	published(&s, &c, func(float64) float32 { return 50 }, func(float64) float32 { return 50 }, 0, 2, 0, 400)
	open := false
	for _, it := range s.Items {
		open = open || (it.Kind == KindRect && it.Fill == None)
	}
	assert.True(t, open, "the published figure is no longer an open square: the test's premise changed")
}

// A chart lists the parameters it holds fixed under its x axis, in the
// panel's size too, and drops them (not the plot) where they do not fit.
func TestChartListsTheParametersHeldFixed(t *testing.T) {
	c := scenario.Chart{Title: "etr: copy time against buffer", XLabel: "buffer (B)", YLabel: "µs", LogX: true,
		Fixed: []string{"preset=juno-r2", "aux=4MiB", "laps=1", "rate=1000"},
		Series: []scenario.Series{{Name: "A coherent", Points: []timeline.Point{{X: 1 << 20, Y: 2000}, {X: 4 << 20, Y: 8000}}},
			{Name: "B cached-sync-whole-when-full", Points: []timeline.Point{{X: 1 << 20, Y: 600}, {X: 4 << 20, Y: 2500}}}}}
	text := func(s *Scene) string {
		var b strings.Builder
		for _, it := range find(s, "chart/fixed") {
			b.WriteString(it.Text + " ")
		}
		return b.String()
	}
	var s Scene
	ChartScene(&s, &c, 316, 190)
	got := text(&s)
	for _, f := range c.Fixed {
		assert.Contains(t, got, f)
	}
	assert.Contains(t, got, "held fixed:")
	var plot Item
	for _, it := range s.Items {
		if it.ID == "chart/plot" {
			plot = it
		}
	}
	for _, it := range find(&s, "chart/fixed") {
		assert.Greater(t, it.Y-it.Size, plot.Y+plot.H+15, "the fixed parameters run into the x axis' ticks")
	}
	var small Scene
	ChartScene(&small, &c, 316, 130)
	assert.NotEmpty(t, find(&small, "chart/plot"), "a short chart keeps its plot")
	assert.Empty(t, text(&small))
}
