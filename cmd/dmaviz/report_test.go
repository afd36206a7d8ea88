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
		side, pair, kind string
		published        float64
	}{{"A", "", "calibrated", 8148.32}, {"B", "", "prediction", 2525.42}, {"A/B", "ratio", "prediction", 3.31}}
	for i, w := range want {
		r := rep.References[i]
		assert.Equal(t, "update_etr_buffer_us", r.Metric)
		assert.Equal(t, w.side, r.Side)
		assert.Equal(t, w.pair, r.Pair)
		assert.Equal(t, w.published, r.Published)
		assert.Contains(t, r.Source, "tmc-etr:")
		assert.Equal(t, 0.1, r.Tolerance)
		assert.Equal(t, "±10 %", r.ToleranceText)
		assert.Equal(t, w.kind, r.Kind)
		switch {
		case w.kind == "calibrated":
			assert.Equal(t, "calibrated", r.Verdict)
			assert.Equal(t, []string{"dram.latency"}, r.Fitted)
			assert.Contains(t, r.Text, "calibrated to this figure (fitted: dram.latency)")
			assert.NotContains(t, r.Text, "✓")
			assert.NotContains(t, r.Text, "within")
		case math.Abs(r.Simulated-w.published) <= 0.1*w.published:
			assert.Empty(t, r.Fitted)
			assert.Equal(t, "within", r.Verdict, "%s: simulated %v", w.side, r.Simulated)
			assert.Contains(t, r.Text, "✓ within tolerance")
		default:
			assert.Equal(t, "outside", r.Verdict, "%s: simulated %v", w.side, r.Simulated)
			assert.Contains(t, r.Text, "✗ outside tolerance")
		}
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
	// A calibrated figure the fit no longer reproduces has no ✗ either,
	// but says so.
	ref.Fitted = []string{"core.mlp"}
	assert.Equal(t, "calibrated", report.Verdict(&ref))
	assert.Equal(t, "published A 10 · simulated 20 · calibrated to this figure (fitted: core.mlp); outside tolerance: the fit no longer reproduces it", report.PanelText(&ref))
}
