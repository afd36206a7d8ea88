package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// `dmaviz run smmu-bypass --json` carries the metrics on both
// sides, the per-TBU walk and stall counts among them; of the published
// figures the bit-off one is calibrated and names the one parameter fitted
// to it (the TBU-TCU link), the bit-on one is a prediction the model
// misses (outside its tolerance).
func TestRunSMMUBypassJSON(t *testing.T) {
	code, out, errs := call(t, "run", "smmu-bypass", "--json")
	require.Equal(t, 0, code, "exit code; stderr: %s", errs)
	var rep struct {
		A, B struct {
			Policy  string
			Metrics map[string]float64
		}
		References []struct {
			Metric, Side, Kind, Verdict string
			Fitted                      []string
			Published                   float64
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	assert.Equal(t, "smtnmb-tlben-off", rep.A.Policy)
	assert.Equal(t, "smtnmb-tlben-on", rep.B.Policy)
	for _, side := range []map[string]float64{rep.A.Metrics, rep.B.Metrics} {
		for _, k := range []string{"bypass_read_latency_cycles", "forward_pps", "translated_hit_rate", "translated_read_latency_cycles",
			"tbu0_walks", "tbu0_walk_stalls", "tbu0_outstanding_stalls", "tbu0_tcu_requests", "tbu0_stall_us"} {
			assert.Contains(t, side, k)
		}
		assert.Positive(t, side["forward_pps"])
		assert.Positive(t, side["tbu0_walks"], "the engine's misses walk on both sides")
	}
	assert.Positive(t, rep.A.Metrics["tbu0_walk_stalls"], "with the bypass uncached the NIC's trips hold walk slots")
	assert.Greater(t, rep.A.Metrics["bypass_read_latency_cycles"], rep.B.Metrics["bypass_read_latency_cycles"])
	require.Len(t, rep.References, 2)
	for _, r := range rep.References {
		assert.Equal(t, "bypass_read_latency_cycles", r.Metric)
		if r.Published == 140 {
			assert.Equal(t, "calibrated", r.Kind, r.Side)
			assert.Equal(t, "calibrated", r.Verdict, r.Side)
			assert.Equal(t, []string{"smmu.link_cycles"}, r.Fitted, "one parameter fitted to the %s figure", r.Side)
		} else {
			assert.Equal(t, "prediction", r.Kind, r.Side)
			assert.Equal(t, "outside", r.Verdict, "%s: the bit-on figure is predicted (about 38 cycles)", r.Side)
			assert.Empty(t, r.Fitted, r.Side)
		}
	}
}
