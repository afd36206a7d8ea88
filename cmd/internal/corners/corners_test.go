package corners

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteRead(t *testing.T) {
	file := filepath.Join(t.TempDir(), "worst.json")
	ws := []Worst{{Scenario: "etr", Query: "buffer=32MiB&width=4", CPU: 1.12, Wall: 1.3, DefaultCPU: 0.04, DefaultWall: 0.05, HeapMiB: 410, Ran: 300, Refused: 2, Offered: 1, SweepSeconds: 95, Over: true}}
	require.NoError(t, Write(file, ws))
	got, err := Read(file)
	require.NoError(t, err)
	assert.Equal(t, ws, got)
	require.NoError(t, os.WriteFile(file, []byte("{"), 0o644))
	_, err = Read(file)
	require.ErrorContains(t, err, "worst.json", "a bad file is named")
}
