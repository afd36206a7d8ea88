package site

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/report"
)

// Each figure's band reads as value in [low, high] with its dominant
// parameter and the published figure's kind; outside is a finding.
func TestBandLines(t *testing.T) {
	sp := &scenario.Spec{ID: "etr", References: []scenario.Reference{
		{Metric: "t_us", Policy: "coherent", Value: 8148.32, Source: "src", Fitted: []string{"dram.latency"}},
		{Metric: "t_us", Pair: scenario.PairRatio, Value: 3.31}}}
	u := &report.Uncertainty{Figures: []report.BandedFigure{
		{Metric: "t_us", Side: "A", Figure: "etr/t_us/coherent", Value: 8164.6, Band: report.Band{Low: 8140.4, High: 9511.6, Dominant: "nc.latency"}},
		{Metric: "t_us", Side: "A/B", Figure: "etr/t_us/ratio", Value: 3.19, Band: report.Band{Low: 3.2, High: 3.3, Dominant: "x", Outside: true}},
	}, Notes: []string{"y did not run"}}
	got := bandLines(sp, u)
	assert.Equal(t, []BandLine{
		{ID: "t_us A", Class: "band", Text: "t_us A: 8164.6 in [8140.4, 9511.6], most from nc.latency; published 8148.3 (calibrated)", Title: "src"},
		{ID: "t_us A/B", Class: "band finding", Text: "t_us A/B: 3.19 in [3.2, 3.3], most from x; published 3.31 (prediction): outside the band, a finding"},
		{ID: "notes", Class: "band note", Text: "y did not run"},
	}, got)
	assert.Nil(t, bandLines(sp, nil))
}
