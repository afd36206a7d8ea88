package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A sweep over a board field writes its CSV (a column for the field, in
// its unit) and its chart (the axis names the path and unit, the held
// setting lists the board's other edits); the run at each value is the
// run with that hw.* key.
func TestSweepOverBoardField(t *testing.T) {
	dir := t.TempDir()
	csvFile, svgFile := filepath.Join(dir, "l2.csv"), filepath.Join(dir, "l2.svg")
	code, _, errs := call(t, "sweep", "etr", "--vary", "hw.l2.size=64KiB..256KiB:x2", "--param", "buffer=128KiB",
		"--url", "hw.dram.latency=95ns", "--csv", csvFile, "--svg", svgFile, "--jobs", "1")
	require.Equal(t, 0, code, errs)
	f, err := os.Open(csvFile)
	require.NoError(t, err)
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	require.NoError(t, err)
	require.Len(t, rows, 1+3*2, "a header, then A and B at 3 sizes")
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	require.Contains(t, col, "hw.l2.size")
	require.Contains(t, col, "hw.dram.latency")
	var sizes []string
	for _, r := range rows[1:] {
		sizes = append(sizes, r[col["hw.l2.size"]])
		assert.Equal(t, "95", r[col["hw.dram.latency"]])
	}
	assert.Equal(t, []string{"65536", "65536", "131072", "131072", "262144", "262144"}, sizes)

	// The point at 128KiB is the run with hw.l2.size=128KiB.
	code, out, errs := call(t, "run", "etr", "--param", "buffer=128KiB", "--url", "hw.dram.latency=95ns&hw.l2.size=128KiB", "--json")
	require.Equal(t, 0, code, errs)
	i := col["update_etr_buffer_us"]
	assert.Equal(t, 2, strings.Count(out, `"update_etr_buffer_us": `), "one per side")
	assert.True(t, strings.Contains(out, `"update_etr_buffer_us": `+rows[3][i]+"\n"), "A at 128KiB: %s", rows[3][i])
	assert.True(t, strings.Contains(out, `"update_etr_buffer_us": `+rows[4][i]+"\n"), "B at 128KiB: %s", rows[4][i])
	assert.NotEqual(t, rows[2][i], rows[6][i], "B's time moves with the L2")

	svg, err := os.ReadFile(svgFile)
	require.NoError(t, err)
	for _, want := range []string{"l2.size (B)", "hw.dram.latency=95ns", "against l2.size", "128KiB"} {
		assert.Contains(t, string(svg), want)
	}
	assert.NotContains(t, string(svg), "published", "no published figure on an edited board")

	for _, tc := range []struct{ vary, want string }{
		{"hw.l2.ways=0,4", "dmaviz sweep: --vary: hw.l2.ways: 0 is out of range; allowed 1..64"},
		{"hw.l2.ways=4..16:+4", "dmaviz sweep: --vary hw.l2.ways: 12 gives hw.l2.size: 1MiB is not a whole number of sets of 768B"},
		{"hw.l2.wayz=4,8", "dmaviz sweep: --vary hw.l2.wayz: unknown hardware parameter; known in l2: l2.size"},
		{"hw.smmu.clock=700MHz,800MHz", "dmaviz sweep: --vary hw.smmu.clock: juno-r2's board has no such unit"},
		{"hw.dram.latency=fast,slow", `dmaviz sweep: --vary: hw.dram.latency: "fast" is not a time such as 95ns`},
	} {
		code, _, errs := call(t, "sweep", "etr", "--vary", tc.vary)
		assert.Equal(t, 2, code, tc.vary)
		assert.True(t, strings.HasPrefix(errs, tc.want), "%s: %s", tc.vary, errs)
	}
	code, _, errs = call(t, "sweep", "demo", "--vary", "hw.l2.size=1MiB,2MiB")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "--vary hw.l2.size: scenario demo runs on no board")
}
