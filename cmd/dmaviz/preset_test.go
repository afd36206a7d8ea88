package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPresetList(t *testing.T) {
	code, out, errs := call(t, "preset", "list")
	require.Equal(t, 0, code, errs)
	for _, want := range []string{"juno-r2", "dimensity-9500", "neoverse-n1", "ls2088a", "juno-r2-a72", "64: measured 27 · derived 8 · assumed 28 · fitted 1"} {
		assert.Contains(t, out, want)
	}
	// The fitted column is read from the tables: one parameter per
	// calibrated preset, nothing on the others.
	assert.Regexp(t, `(?m)^juno-r2 .*fitted 1 +dram.latency -> etr/update_etr_buffer_us/coherent +ETR`, out)
	assert.Regexp(t, `(?m)^neoverse-n1 .*fitted 0 +nothing +none$`, out)
}

// preset show prints each parameter's value with its unit, kind and
// source or range; --json gives each as an object with value, unit, kind
// and source (measured, derived, fitted: the figure) or range (assumed).
func TestPresetShow(t *testing.T) {
	code, out, errs := call(t, "preset", "show", "juno-r2")
	require.Equal(t, 0, code, errs)
	var dram string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "dram.latency ") {
			dram = l
		}
	}
	assert.Regexp(t, `^dram.latency +123.752 ns +fitted +fitted to etr/update_etr_buffer_us/coherent: `, dram, out)
	assert.Regexp(t, `(?m)^l2.latency +15 cycles +assumed +range \[12, 21\] cycles: `, out)
	assert.Regexp(t, `(?m)^l2.size +1MiB +measured +Linux arch/arm64/boot/dts/arm/juno-r2.dts`, out)

	code, out, errs = call(t, "preset", "show", "ls2088a", "--json")
	require.Equal(t, 0, code, errs)
	var doc struct {
		Preset     string
		Counts     map[string]int
		Parameters []map[string]any
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc), out)
	assert.Equal(t, "ls2088a", doc.Preset)
	require.NotEmpty(t, doc.Parameters)
	n := 0
	for _, p := range doc.Parameters {
		assert.Contains(t, p, "value", p["path"])
		assert.Contains(t, p, "unit", p["path"])
		switch p["kind"] {
		case "assumed":
			assert.Len(t, p["range"], 2, p["path"])
			assert.NotContains(t, p, "source", p["path"])
		case "measured", "derived", "fitted":
			assert.NotEmpty(t, p["source"], p["path"])
			assert.NotContains(t, p, "range", p["path"])
		default:
			assert.Fail(t, "no kind", "%v", p)
		}
		if p["path"] == "smmu.link_cycles" {
			assert.Equal(t, "smmu-bypass/bypass_read_latency_cycles/smtnmb-tlben-off", p["source"])
			assert.Equal(t, 47.0, p["value"])
			assert.Equal(t, "platform cycles", p["unit"])
		}
		n++
	}
	assert.Equal(t, n, doc.Counts["measured"]+doc.Counts["derived"]+doc.Counts["assumed"]+doc.Counts["fitted"])

	code, _, errs = call(t, "preset", "show", "pentium")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, `"pentium" is not one of dimensity-9500, juno-r2, juno-r2-a72, ls2088a, neoverse-n1`)
	code, _, errs = call(t, "preset", "shw")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, `unknown subcommand "shw"`)
}
