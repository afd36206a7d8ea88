package main

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/report"
)

// dmaviz run --json etr at the defaults carries the three published
// figures of the default pair with their source, tolerance and the
// panel's verdict: the coherent time is calibrated (juno-r2's dram.latency
// is fitted to it), the merged driver's time and the ratio are
// predictions whose verdict is whatever the model gives.
func TestRunJSONCarriesReferences(t *testing.T) {
	code, out, errs := call(t, "run", "--json", "etr")
	require.Equal(t, 0, code, errs)
	var rep report.Report
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	assert.Equal(t, report.SchemaVersion, rep.SchemaVersion)
	require.Len(t, rep.References, 3)
	want := []struct {
		side, pair string
		published  float64
	}{{"A", "", 8148.32}, {"B", "", 2525.42}, {"A/B", "ratio", 3.31}}
	for i, w := range want {
		r := rep.References[i]
		assert.Equal(t, "update_etr_buffer_us", r.Metric)
		assert.Equal(t, w.side, r.Side)
		assert.Equal(t, w.pair, r.Pair)
		assert.Equal(t, w.published, r.Published)
		assert.Contains(t, r.Source, "tmc-etr:")
		assert.Equal(t, 0.1, r.Tolerance)
		assert.Equal(t, "±10 %", r.ToleranceText)
		if math.Abs(r.Simulated-w.published) <= 0.1*w.published {
			assert.Equal(t, "within", r.Verdict, "%s: simulated %v", w.side, r.Simulated)
			assert.Contains(t, r.Text, "✓ within tolerance")
		} else {
			assert.Equal(t, "outside", r.Verdict, "%s: simulated %v", w.side, r.Simulated)
			assert.Contains(t, r.Text, "✗ outside tolerance")
		}
		assert.Equal(t, w.side == "A", r.Calibrated != "", "%s: calibrated %q", w.side, r.Calibrated)
	}
	assert.InEpsilon(t, 8148.32, rep.References[0].Simulated, 0.001, "the calibrated figure")
	assert.InDelta(t, rep.A.Metrics["update_etr_buffer_us"], rep.References[0].Simulated, 1e-9)
	assert.InDelta(t, rep.A.Metrics["update_etr_buffer_us"]/rep.B.Metrics["update_etr_buffer_us"], rep.References[2].Simulated, 1e-9)

	// Off the published setting no figure applies, and the list is empty
	// (not missing).
	code, out, errs = call(t, "run", "--json", "etr", "--param", "buffer=1MiB")
	require.Equal(t, 0, code, errs)
	var raw map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &raw))
	assert.Equal(t, []any{}, raw["references"])

	// A figure outside its tolerance says so, in the verdict and the text.
	ref := scenario.RowRef{Reference: scenario.Reference{Value: 10, Tolerance: 0.1}, Side: "A", Got: 20}
	ref.OK = ref.Within(ref.Got)
	assert.Equal(t, "outside", report.Verdict(&ref))
	assert.Contains(t, report.PanelText(&ref), "✗ outside tolerance")
}
