package smmubypass

import (
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// chartPackets is the most packets per point of the working-set chart
// (the averages settle within a few thousand; the chart runs 2 x 5
// points); chartPoints gives fewer to a setting whose packets model more
// transactions.
const chartPackets = 2000

var chartWS = []uint64{256 << 10, 1 << 20, 2 << 20, 4 << 20, 16 << 20}

// wsCharts are, against the engine's working set, both sides' bypass and
// translated read latencies (with the published latencies marked at the
// default setting) and the translated hit rate. Two charts, not one: the
// panel draws each as one small SVG image.
func wsCharts(c config, pace *scenario.Pacer) ([]scenario.Chart, error) {
	lat := scenario.Chart{ID: "latency-vs-working-set", Title: "Read latency against the translated working set",
		XLabel: "translated working set (B)", YLabel: "latency (cycles)", LogX: true, Mark: float64(c.ws)}
	hit := scenario.Chart{ID: "hit-rate-vs-working-set", Title: "Engine TBU hit rate against its working set",
		XLabel: "translated working set (B)", YLabel: "hit rate (%)", LogX: true, Mark: float64(c.ws)}
	names := map[string]string{PolicyOff: "off", PolicyOn: "on"}
	for _, pol := range []string{PolicyOff, PolicyOn} {
		bl := scenario.Series{Name: "NIC " + names[pol]}
		tl := scenario.Series{Name: "engine " + names[pol]}
		hr := scenario.Series{Name: "engine " + names[pol]}
		for _, ws := range chartWS {
			k := c
			k.ws, k.packets = ws, chartPoints(c)
			res, err := runConfig(k, pol, false, pace)
			if err != nil {
				return nil, err
			}
			v, _ := res.Metric("bypass_read_latency_cycles")
			t, _ := res.Metric("translated_read_latency_cycles")
			h, _ := res.Metric("translated_hit_rate")
			bl.Points = append(bl.Points, timeline.Point{X: float64(ws), Y: v})
			tl.Points = append(tl.Points, timeline.Point{X: float64(ws), Y: t})
			hr.Points = append(hr.Points, timeline.Point{X: float64(ws), Y: h})
		}
		lat.Series = append(lat.Series, bl, tl)
		hit.Series = append(hit.Series, hr)
	}
	def := float64(2 << 20)
	lat.Published = []scenario.ChartRef{
		{Series: 0, X: def, Y: 140, Label: "published about 140", Source: figureSource},
		{Series: 2, X: def, Y: 50, Label: "published about 50", Source: figureSource},
	}
	return []scenario.Chart{lat, hit}, nil
}
