package platform

import (
	goflag "flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = goflag.Bool("update", false, "rewrite the golden board files in testdata")

// Each built-in board's JSON (dmaviz board show NAME) is pinned by a
// golden file, and reads back as the same board with nothing to override.
func TestBoardJSONGolden(t *testing.T) {
	for _, name := range Names() {
		got, err := BoardJSON(name)
		require.NoError(t, err)
		golden := filepath.Join("testdata", "board-"+name+".json")
		if *update {
			require.NoError(t, os.WriteFile(golden, got, 0o644))
		}
		want, err := os.ReadFile(golden)
		require.NoError(t, err, "run go test -update to create it")
		assert.Equal(t, string(want), string(got), "%s: board JSON changed (go test -update rewrites it)", name)

		f, err := ReadBoard(got)
		require.NoError(t, err, name)
		assert.Equal(t, name, f.Base)
		b, err := f.Build()
		require.NoError(t, err, name)
		preset, _ := LookupBoard(name)
		assert.Equal(t, preset.Fields(), b.Fields(), name)
		over, err := f.Overrides()
		require.NoError(t, err)
		assert.Empty(t, over, "%s: its own JSON overrides nothing", name)
	}
}

// A board file gives any subset of fields; the overrides it amounts to
// build the same board, including what a clock moves (smmu.clock follows
// clocks.platform unless given).
func TestBoardFileOverrides(t *testing.T) {
	f, err := ReadBoard([]byte(`{"l2": {"size": "2MiB", "latency": 20}, "base": "juno-r2", "clocks": {"cpu": "1.2GHz"}, "dram": {"latency": 95}}`))
	require.NoError(t, err)
	over, err := f.Overrides()
	require.NoError(t, err)
	assert.Equal(t, map[string]float64{"clocks.cpu": 1200, "l2.size": 2 << 20, "l2.latency": 20, "dram.latency": 95}, over)

	f, err = ReadBoard([]byte(`{"base": "ls2088a", "clocks": {"platform": "700MHz"}, "smmu": {"clock": "800MHz"}}`))
	require.NoError(t, err)
	want, err := f.Build()
	require.NoError(t, err)
	over, err = f.Overrides()
	require.NoError(t, err)
	got, err := BoardWith("ls2088a", over)
	require.NoError(t, err)
	assert.Equal(t, want.Fields(), got.Fields())
	assert.Equal(t, 800.0, over["smmu.clock"], "smmu.clock kept though it equals the preset's")
}

// A bad board file is refused naming the JSON path and what is allowed.
func TestBoardFileErrors(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{`{"base": "juno-r2", "l2": {"sise": "1MiB"}}`, "l2.sise: unknown hardware parameter; known in l2: l2.size, l2.ways"},
		{`{"base": "juno-r2", "gpu": {"cores": 4}}`, "gpu: unknown hardware parameter; units are clocks, core, l1d"},
		{`{"base": "juno-r2", "l2": {"size": "1 parsec"}}`, `l2.size: "1 parsec" is not a size such as 64B, 32KiB, 2MiB`},
		{`{"base": "juno-r2", "l2": {"size": [1]}}`, "l2.size: a value is needed (a size such as 64B, 32KiB, 2MiB), not ["},
		{`{"base": "juno-r2", "l2": "1MiB"}`, "l2: a unit is an object of its fields; known in l2: l2.size"},
		{`{"base": "juno-r2", "l2": {"size": "1MiB", "size": "2MiB"}}`, "l2.size: given twice; give each field once"},
		{`{"base": "juno-r3"}`, `base: "juno-r3" is not a preset; allowed dimensity-9500, juno-r2`},
		{`{"l2": {"ways": 8}}`, "base: missing; name the preset the board is built on"},
		{`{"base": "juno-r2",`, "line 1 column 20: the file ends inside the board"},
		{`[1]`, "a board file is a JSON object"},
		{`{"base": "juno-r2"} {}`, "more after the board's closing brace"},
		{`{"base": "juno-r2", "l2": {"policy": "fifo"}}`, `l2.policy: "fifo" is not allowed; allowed lru, plru or random`},
	} {
		_, err := ReadBoard([]byte(tc.file))
		if assert.Error(t, err, tc.file) {
			assert.Contains(t, err.Error(), tc.want, tc.file)
		}
	}
	for _, tc := range []struct{ file, want string }{
		{`{"base": "juno-r2", "l2": {"ways": 0}}`, "l2.ways: 0 is out of range; allowed 1..64"},
		{`{"base": "juno-r2", "l2": {"size": "16KiB"}}`, "l2.size: 16KiB is smaller than l1d.size (32KiB); allowed 32KiB or more"},
		{`{"base": "juno-r2", "tlb": {"l2": {"entries": 0}}}`, "tlb.l2.entries: 0 is out of range"},
		{`{"base": "juno-r2", "smmu": {"clock": "800MHz"}}`, "smmu.clock: juno-r2's board has no such unit"},
		{`{"base": "juno-r2", "core": {"mlp": 2.5}}`, "core.mlp: 2.5 is not a whole number"},
		{`{"base": "juno-r2", "dram": {"latency": "-1ns"}}`, "dram.latency: -1 ns is out of range"},
	} {
		f, err := ReadBoard([]byte(tc.file))
		require.NoError(t, err, tc.file)
		_, err = f.Build()
		if assert.Error(t, err, tc.file) {
			assert.True(t, strings.HasPrefix(err.Error(), tc.want), "%q\nwant %q", err, tc.want)
		}
	}
}
