// Package bands words an uncertainty run (model/uncertainty) as the
// report's plain data, for `dmaviz run --uncertainty` and the page.
package bands

import (
	"math"

	"github.com/dmaviz/dmaviz/model/uncertainty"
	"github.com/dmaviz/dmaviz/report"
)

// Of is res as report data.
func Of(res *uncertainty.Result) *report.Uncertainty {
	u := &report.Uncertainty{Runs: res.Runs, Figures: []report.BandedFigure{}, Effects: []report.BandEffect{},
		Together: []string{}, Fixed: append([]string{}, res.Plan.Fixed...), Notes: append([]string{}, res.Combined...)}
	for _, b := range res.Bands {
		f := report.BandedFigure{Metric: b.Metric, Side: b.Side, Value: finite(b.Value),
			Band: report.Band{Low: finite(b.Low), High: finite(b.High), Dominant: b.Dominant, Outside: b.Outside}}
		if res.Published {
			f.Figure = b.Figure // the published figure applies
		}
		u.Figures = append(u.Figures, f)
	}
	for _, k := range res.Plan.Together {
		u.Together = append(u.Together, k.Describe())
	}
	ranges := map[string]string{}
	for _, k := range res.Plan.Alone {
		ranges[k.Path] = k.RangeText()
	}
	for _, e := range res.Effects {
		be := report.BandEffect{Path: e.Path, Range: ranges[e.Path], Low: ptrs(e.Low, len(res.Bands)), High: ptrs(e.High, len(res.Bands)), None: e.None}
		if e.Path == uncertainty.Rest {
			be.Range = "each at the same end of its range"
		}
		for _, why := range []struct{ end, err string }{{"low", e.LowErr}, {"high", e.HighErr}} {
			if why.err != "" {
				u.Notes = append(u.Notes, e.Path+" at its "+why.end+" end did not run: "+why.err)
			}
		}
		u.Effects = append(u.Effects, be)
	}
	return u
}

func ptrs(vs []float64, n int) []*float64 {
	out := make([]*float64, n)
	for i := range vs {
		if !math.IsNaN(vs[i]) && !math.IsInf(vs[i], 0) {
			v := vs[i]
			out[i] = &v
		}
	}
	return out
}

func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}
