package main

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// validate lists every published figure of the scenarios asked for, each
// with its kind from the tables, the model's value at the published
// setting and its error, and exits 1 exactly when a prediction is outside
// its tolerance.
func TestValidateListsEveryFigure(t *testing.T) {
	code, out, errs := call(t, "validate", "etr", "sg-sync", "--json")
	var rows []figureRow
	require.NoError(t, json.Unmarshal([]byte(out), &rows), "%s\n%s", out, errs)
	want := map[string]*scenario.Reference{}
	for _, id := range []string{"etr", "sg-sync"} {
		s, err := catalog.Registry().Get(id)
		require.NoError(t, err)
		sp := s.Spec()
		for i := range sp.References {
			want[scenario.FigureID(id, &sp.References[i])] = &sp.References[i]
		}
	}
	require.Len(t, rows, len(want), "one row per published figure")
	outside := false
	for _, r := range rows {
		ref := want[r.Figure]
		require.NotNil(t, ref, "a figure no scenario publishes: %s", r.Figure)
		assert.Equal(t, ref.Value, r.Published, r.Figure)
		assert.Equal(t, ref.Kind(), r.Kind, r.Figure)
		assert.Equal(t, ref.Fitted, r.Fitted, r.Figure)
		switch {
		case r.Kind == scenario.Calibrated:
			assert.Equal(t, "calibrated", r.Verdict, r.Figure)
		case ref.Within(r.Simulated):
			assert.Equal(t, "within", r.Verdict, r.Figure)
		default:
			assert.Equal(t, "outside", r.Verdict, r.Figure)
			outside = true
		}
		if ref.Absolute {
			assert.InDelta(t, r.Simulated-ref.Value, r.Error, 1e-9, r.Figure)
		} else {
			assert.InDelta(t, (r.Simulated-ref.Value)/math.Abs(ref.Value)*100, r.Error, 1e-9, r.Figure)
		}
	}
	// The fitted figures are reproduced by construction.
	byID := map[string]figureRow{}
	for _, r := range rows {
		byID[r.Figure] = r
	}
	coh := byID["etr/update_etr_buffer_us/coherent"]
	assert.Equal(t, []string{"dram.latency"}, coh.Fitted)
	assert.InDelta(t, 0, coh.Error, 0.1, "the coherent time is fitted")
	assert.Equal(t, "juno-r2", coh.Preset)
	assert.Equal(t, []string{"maint.dsb"}, byID["sg-sync/map_sg_us/change"].Fitted)
	assert.Equal(t, scenario.Prediction, byID["sg-sync/unmap_sg_us/change"].Kind)
	if outside {
		assert.Equal(t, 1, code, "a prediction outside its tolerance")
	} else {
		assert.Equal(t, 0, code, errs)
	}

	code, out, _ = call(t, "validate", "sg-sync")
	assert.Contains(t, out, "calibrated (fitted: maint.dsb)")
	assert.Regexp(t, `(?m)^sg-sync/unmap_sg_us/change +dimensity-9500 +prediction +-66.6 `, out)
	assert.Contains(t, out, "2 figures: 1 calibrated")

	code, _, errs = call(t, "validate", "etrr")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, `"etrr"`)
	code, _, errs = call(t, "validate", "--bandz")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "unknown flag --bandz")
}
