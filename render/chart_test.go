package render

import (
	"math"
	"testing"

	"github.com/dmaviz/dmaviz/model/scenario"
)

func TestChartPlacesPointsAndMarkOnALogAxis(t *testing.T) {
	c := scenario.Chart{Title: "t", XLabel: "entry size (B)", YLabel: "%", LogX: true, Mark: 4096,
		Series: []scenario.Series{{Name: "s", Points: []scenario.Point{{X: 512, Y: 10}, {X: 4096, Y: 50}, {X: 32768, Y: 90}, {X: math.NaN(), Y: 1}}}}}
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
	if plot == nil || mark == nil || len(points) != 3 {
		t.Fatalf("plot %v mark %v points %d (the NaN point must be skipped)", plot != nil, mark != nil, len(points))
	}
	cx := func(it Item) float32 { return it.X + it.W/2 }
	cy := func(it Item) float32 { return it.Y + it.H/2 }
	// 4096 is the geometric middle of 512..32768 on a log axis.
	if mid := plot.X + plot.W/2; math.Abs(float64(cx(points[1])-mid)) > 0.5 || math.Abs(float64(mark.X-mid)) > 0.5 {
		t.Errorf("4096 drawn at x=%v, mark at %v; want the plot's middle %v", cx(points[1]), mark.X, mid)
	}
	for i, p := range points {
		if cx(p) < plot.X || cx(p) > plot.X+plot.W || cy(p) < plot.Y || cy(p) > plot.Y+plot.H {
			t.Errorf("point %d at (%v, %v) outside the plot", i, cx(p), cy(p))
		}
	}
	if !(cy(points[0]) > cy(points[1]) && cy(points[1]) > cy(points[2])) {
		t.Errorf("larger values are not drawn higher: %v %v %v", cy(points[0]), cy(points[1]), cy(points[2]))
	}
}

func TestChartWithoutDataSaysSo(t *testing.T) {
	var s Scene
	ChartScene(&s, &scenario.Chart{Title: "empty"}, 300, 200)
	found := false
	for _, it := range s.Items {
		found = found || it.Text == "no data"
	}
	if !found {
		t.Fatal("an empty chart does not say it has no data")
	}
}

func TestFitShortensWithAnEllipsis(t *testing.T) {
	var tx texts
	if got := tx.Fit("short", 200, 10); got != "short" {
		t.Errorf("Fit kept %q", got)
	}
	got := tx.Fit("ETR buffer (1MiB) (ring)", 60, 10) // 10 characters at 6 px
	if got != "ETR buffe…" {
		t.Errorf("Fit = %q, want ETR buffe…", got)
	}
	if tx.Fit("x", 2, 10) != "" {
		t.Error("Fit into no room is not empty")
	}
}
