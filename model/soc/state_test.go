package soc_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// Every unit's state after a multi-agent run on a three-level preset, as
// JSON pinned in testdata/state.golden (rewrite it with go test -update):
// the units' snapshots are plain data a view can read, and a change to
// any unit's behaviour shows here by name.
func TestStateGolden(t *testing.T) {
	m, _, _ := workload(t, "neoverse-n1", traceSeed, 200, false, observeNone)
	got, err := json.MarshalIndent(m.State(), "", "  ")
	require.NoError(t, err)
	got = append(got, '\n')
	path := filepath.Join("testdata", "state.golden")
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update natively to create it")
	require.Equal(t, string(want), string(got))
}
