package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dmaviz run trbe-aux prints the simulated l2d_tlb_refill beside the
// published figures and their source (once: the three figures share it); --json carries the metrics.
func TestRunTRBEAuxShowsPublishedBesideSimulated(t *testing.T) {
	code, out, errs := call(t, "run", "trbe-aux")
	require.Equal(t, 0, code, errs)
	var line string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "l2d_tlb_refill") {
			line = l
		}
	}
	require.NotEmpty(t, line, out)
	for _, want := range []string{"161884.9", "161468.2", "513.1", "-99.68 %", "Prefer large AUX mappings", "simulated",
		"calibrated to this figure (fitted: trbe-aux.fragmentation)", "within tolerance"} {
		assert.Contains(t, line, want)
	}
	assert.Equal(t, 1, strings.Count(line, "Prefer large AUX mappings"), "the three figures' one source, printed once: %s", line)

	code, out, errs = call(t, "run", "--json", "spe-aux", "--param", "aux=64MiB", "--param", "working_set=16MiB")
	require.Equal(t, 0, code, errs)
	var rep struct {
		A, B struct{ Metrics map[string]float64 }
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	for _, k := range []string{"l1d_tlb_refill", "l2d_tlb_refill", "dtlb_walk", "trace_stall_us", "walks_by_trace_unit", "aux_chunks"} {
		assert.Contains(t, rep.A.Metrics, k)
		assert.Contains(t, rep.B.Metrics, k)
	}
	assert.Contains(t, rep.A.Metrics, "chunks_by_order_0", "order0 takes order-0 pages")
	assert.Less(t, rep.B.Metrics["walks_by_trace_unit"], rep.A.Metrics["walks_by_trace_unit"])
}
