package smmubypass

import (
	"github.com/dmaviz/dmaviz/model/scenario"
)

// chartPackets is the packets per point of the working-set chart (the
// averages settle within a few thousand; the chart runs 2 x 5 points).
const chartPackets = 2000

var chartWS = []uint64{256 << 10, 1 << 20, 2 << 20, 4 << 20, 16 << 20}

// wsChart is both sides' bypass and translated latencies and the
// translated hit rate against the engine's working set, with the
// published latencies marked at the default setting.
func wsChart(c config, policy string) (scenario.Chart, error) {
	ch := scenario.Chart{ID: "latency-vs-working-set", Title: "Latency and hit rate against the translated working set",
		XLabel: "translated working set (B)", YLabel: "cycles / hit rate (%)", LogX: true, Mark: float64(c.ws)}
	names := map[string]string{PolicyOff: "off", PolicyOn: "on"}
	for _, pol := range []string{PolicyOff, PolicyOn} {
		lat := scenario.Series{Name: "NIC bypass latency, " + names[pol]}
		tlat := scenario.Series{Name: "engine latency, " + names[pol]}
		hit := scenario.Series{Name: "engine hit rate, " + names[pol]}
		for _, ws := range chartWS {
			k := c
			k.ws, k.packets = ws, min(c.packets, chartPackets)
			res, err := runConfig(k, pol, false)
			if err != nil {
				return ch, err
			}
			v, _ := res.Metric("bypass_read_latency_cycles")
			t, _ := res.Metric("translated_read_latency_cycles")
			h, _ := res.Metric("translated_hit_rate")
			lat.Points = append(lat.Points, scenario.Point{X: float64(ws), Y: v})
			tlat.Points = append(tlat.Points, scenario.Point{X: float64(ws), Y: t})
			hit.Points = append(hit.Points, scenario.Point{X: float64(ws), Y: h})
		}
		ch.Series = append(ch.Series, lat, tlat, hit)
	}
	_ = policy
	def := float64(2 << 20)
	ch.Published = []scenario.ChartRef{
		{Series: 0, X: def, Y: 140, Label: "published about 140", Source: figureSource},
		{Series: 3, X: def, Y: 50, Label: "published about 50", Source: figureSource},
	}
	return ch, nil
}
