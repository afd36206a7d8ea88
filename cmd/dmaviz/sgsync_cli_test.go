package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dmaviz run sg-sync (table and --json) at the seed's setting: the
// per-call times, DC ops and DSB counts, and the published figure.
func TestRunSGSync(t *testing.T) {
	code, out, errs := call(t, "run", "--json", "sg-sync")
	require.Equal(t, 0, code, "exit code; stderr: %s", errs)
	var rep struct {
		Scenario string
		A, B     struct {
			Policy          string
			Metrics, Checks map[string]float64
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	require.Equal(t, "sg-sync", rep.Scenario, "header scenario")
	require.Equal(t, "per-entry-dsb", rep.A.Policy, "header policy A")
	require.Equal(t, "batched-dsb", rep.B.Policy, "header policy B")
	a, b := rep.A.Metrics, rep.B.Metrics
	type counts struct{ DCOpsA, DCOpsB, DSBA, DSBB float64 }
	assert.Equal(t, counts{163840, 163840, 2560, 1}, counts{a["dc_ops"], b["dc_ops"], a["dsb_count"], b["dsb_count"]}, "dc_ops A/B, dsb_count A/B")
	for name, want := range map[string]float64{"map_sg_us": -64.61, "unmap_sg_us": -66.60} {
		got := 100 * (b[name] - a[name]) / a[name]
		assert.InDelta(t, want, got, 3, "%s: %.2f -> %.2f us, change in %% within 3 points", name, a[name], b[name])
	}
	for _, side := range []map[string]float64{rep.A.Checks, rep.B.Checks} {
		assert.Equal(t, [2]float64{0, 0}, [2]float64{side["stale_bytes"], side["lost_bytes"]}, "checks [stale_bytes lost_bytes] of %v", side)
	}
	code, out, errs = call(t, "run", "sg-sync", "--param", "total=64KiB", "--param", "iterations=2")
	require.Equal(t, 0, code, "exit code; stderr: %s", errs)
	for _, want := range []string{"map_sg_us", "unmap_sg_us", "dsb_count", "dc_ops", "1024", "stale_bytes"} {
		assert.Contains(t, out, want, "table")
	}
}
