package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/report"
)

// run --uncertainty --json puts a band on each published figure: low <=
// simulated <= high, with the parameter that dominates it, from at most
// 32 pair runs.
func TestRunUncertaintyJSON(t *testing.T) {
	code, out, errs := call(t, "run", "etr", "--uncertainty", "--json")
	require.Equal(t, 0, code, errs)
	var rep report.Report
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	require.NotNil(t, rep.Uncertainty)
	assert.LessOrEqual(t, rep.Uncertainty.Runs, 32)
	require.Len(t, rep.References, 3)
	for _, r := range rep.References {
		require.NotNil(t, r.Band, "%s %s has no band", r.Metric, r.Side)
		assert.LessOrEqual(t, r.Band.Low, r.Simulated, r.Side)
		assert.GreaterOrEqual(t, r.Band.High, r.Simulated, r.Side)
		assert.Less(t, r.Band.Low, r.Band.High, "%s: the assumed parameters move it", r.Side)
		assert.NotEmpty(t, r.Band.Dominant, r.Side)
	}
	var raw map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &raw))
	band := raw["references"].([]any)[0].(map[string]any)["band"].(map[string]any)
	for _, k := range []string{"low", "high", "dominant"} {
		assert.Contains(t, band, k)
	}
	for _, e := range rep.Uncertainty.Effects {
		assert.Len(t, e.Low, 3, e.Path)
	}

	code, _, errs = call(t, "run", "demo", "--uncertainty")
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, "runs on no hardware preset")
}

// The bands' table names each figure's band, the published figure and a
// finding when it lies outside; parameters without effect are listed
// apart.
func TestWriteBands(t *testing.T) {
	one, two := 1.0, 2.0
	u := &report.Uncertainty{Runs: 7,
		Figures: []report.BandedFigure{{Metric: "t_us", Side: "A", Value: 10, Band: report.Band{Low: 8, High: 12, Dominant: "dram.latency", Outside: true}}},
		Effects: []report.BandEffect{{Path: "dram.latency", Range: "[80, 130] ns", Low: []*float64{&one}, High: []*float64{&two}},
			{Path: "l2.policy", Range: "[0, 2]", Low: []*float64{nil}, High: []*float64{nil}, None: true}},
		Together: []string{"clocks.dram [667, 800] MHz"}, Notes: []string{"x did not run"}}
	var b strings.Builder
	writeBands(&b, u, []report.Ref{{Metric: "t_us", Side: "A", Published: 20, Kind: "prediction"}})
	got := b.String()
	assert.Regexp(t, `t_us A +10 +\[8, 12\] +dram.latency +20 \(prediction\): OUTSIDE the band, a finding`, got)
	assert.Regexp(t, `dram.latency +\[80, 130\] ns +A 1 -> 2`, got)
	assert.Contains(t, got, "no effect on any figure: l2.policy")
	assert.Contains(t, got, "(1): clocks.dram [667, 800] MHz")
	assert.Contains(t, got, "note: x did not run")
}
