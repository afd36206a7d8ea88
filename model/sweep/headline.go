package sweep

import (
	"context"
	"fmt"
	"strconv"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// Headline computes the scenario's headline chart (Spec.Headline) for the
// policies a and b and the parameters params (the varied one is replaced):
// one point at a time, before called ahead of each run (two per point, one
// more per other policy when the headline draws them all) and
// pace, if not nil, as each run's pacer hook (Request.Pace), so a
// single-threaded caller can yield inside a run too. It returns nil and no
// error when the scenario declares no headline.
func Headline(ctx context.Context, s scenario.Scenario, params scenario.Params, a, b string, before func(), pace func(float64) error) (*scenario.Chart, error) {
	spec := s.Spec()
	h := spec.Headline
	if h == nil {
		return nil, nil
	}
	ax, err := ParseVary(spec, h.Vary)
	if err != nil {
		return nil, fmt.Errorf("scenario %s: headline: %w", spec.ID, err)
	}
	return HeadlineOver(ctx, s, params, a, b, ax, before, pace)
}

// HeadlineOver is Headline with ax varied in place of the headline's own
// parameter (a board value, "hw.<path>", as the panel's what-if). It
// returns nil and no error when the scenario declares no headline.
func HeadlineOver(ctx context.Context, s scenario.Scenario, params scenario.Params, a, b string, ax Axis, before func(), pace func(float64) error) (*scenario.Chart, error) {
	spec := s.Spec()
	h := spec.Headline
	if h == nil {
		return nil, nil
	}
	req := Request{Scenario: s, Base: params, A: a, B: b, Axes: []Axis{ax}, BeforeRun: before, Pace: pace}
	tab, err := Run(ctx, req, 1, nil)
	if err != nil {
		return nil, err
	}
	ch, err := tab.Chart(h.Metric)
	if err != nil {
		return nil, err
	}
	// The panel is narrow and names A and B's policies above: short
	// series names, and the axis labels say the rest.
	ch.ID, ch.Title = "headline-"+h.Metric, ""
	for i := range ch.Series {
		ch.Series[i].Name = [2]string{"A", "B"}[i%2]
	}
	if !h.AllPolicies {
		return &ch, nil
	}
	def, _ := spec.Defaults()
	for _, pol := range spec.Policies {
		if pol.ID == a || pol.ID == b {
			continue
		}
		ser := scenario.Series{Name: pol.ID}
		for i := range tab.Points {
			side, err := runPolicy(ctx, req, tab.Points[i].Params, pol.ID)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", pointName(req.Axes, tab.Points[i].Values), err)
			}
			if v, ok := side.Metric(h.Metric); ok {
				ser.Points = append(ser.Points, timeline.Point{X: ax.x(i), Y: v})
			}
		}
		ch.Series = append(ch.Series, ser)
		if ref, x, ok := tab.published(h.Metric, pol.ID, scenario.Value{}, def); ok {
			ch.Published = append(ch.Published, scenario.ChartRef{Series: len(ch.Series) - 1, X: x, Y: ref.Value,
				Label: "published " + strconv.FormatFloat(ref.Value, 'f', -1, 64), Source: ref.Source})
		}
	}
	return &ch, nil
}
