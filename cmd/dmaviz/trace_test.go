package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRunTrace(t *testing.T) {
	file := filepath.Join(t.TempDir(), "demo.json")
	code, out, errs := call(t, "run", "demo", "--trace", file, "--param", "buffer=8KiB")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "readout_us", "the table is still printed")
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	var doc struct {
		TraceEvents []struct {
			Ph  string `json:"ph"`
			Pid int    `json:"pid"`
		} `json:"traceEvents"`
		Metadata struct {
			Scenario string            `json:"scenario"`
			Params   map[string]string `json:"params"`
		} `json:"metadata"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	assert.Equal(t, "demo", doc.Metadata.Scenario)
	assert.Equal(t, "8KiB", doc.Metadata.Params["buffer"])
	pids := map[int]bool{}
	for _, e := range doc.TraceEvents {
		if e.Ph == "X" {
			pids[e.Pid] = true
		}
	}
	assert.Equal(t, map[int]bool{1: true, 2: true}, pids, "A and B each have slices")

	code, _, errs = call(t, "run", "demo", "--trace")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "--trace needs a value")
}
