package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeBoard(t *testing.T, body string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "board.json")
	require.NoError(t, os.WriteFile(f, []byte(body), 0o644))
	return f
}

func TestBoardListShowDiff(t *testing.T) {
	code, out, errs := call(t, "board", "list")
	require.Equal(t, 0, code, errs)
	for _, want := range []string{"juno-r2 ", "ls2088a ", "neoverse-n1 "} {
		assert.Contains(t, out, want)
	}
	code, out, errs = call(t, "board", "show", "juno-r2")
	require.Equal(t, 0, code, errs)
	assert.True(t, strings.HasPrefix(out, "{\n  \"base\": \"juno-r2\",\n  \"clocks\": {\n    \"cpu\": \"950MHz\","), out[:80])
	assert.Contains(t, out, "  \"l2\": {\n    \"size\": \"1MiB\",\n    \"ways\": 16,")

	// board show's output is a board file: diff against it, edited.
	edited := writeBoard(t, strings.Replace(strings.Replace(out, `"size": "1MiB"`, `"size": "2MiB"`, 1), `"latency": "123.752ns"`, `"latency": "95ns"`, 1))
	code, out, errs = call(t, "board", "diff", "juno-r2", edited)
	require.Equal(t, 0, code, errs)
	assert.Regexp(t, `^path +juno-r2 +\S+board.json\nl2.size +1MiB +2MiB\ndram.latency +123.752ns +95ns\n2 of 64 parameters differ\n$`, out)

	code, out, _ = call(t, "board", "show", edited, "--table")
	require.Equal(t, 0, code)
	assert.Regexp(t, `\nl2.size +2MiB +\* +measured`, out)
	assert.Regexp(t, `\nl2.ways +16 +measured`, out)
	assert.Regexp(t, `\nl2.latency +15 cycles +assumed`, out)

	code, _, errs = call(t, "board", "diff", "juno-r2", "juno-r3")
	assert.Equal(t, 2, code)
	assert.Equal(t, "dmaviz board diff: juno-r3 is neither a preset (dimensity-9500, juno-r2, juno-r2-a72, ls2088a, neoverse-n1) nor a board file\n", errs)
	bad := writeBoard(t, `{"base": "juno-r2", "l2": {"ways": 0}}`)
	code, _, errs = call(t, "board", "show", bad)
	assert.Equal(t, 2, code)
	assert.Equal(t, "dmaviz board show: "+bad+": l2.ways: 0 is out of range; allowed 1..64\n", errs)
}

// Running on a board file is running with the equivalent hw.* keys;
// hw.* keys given with it edit its board; a preset other than its base is
// refused.
func TestRunBoardFileEqualsHardwareKeys(t *testing.T) {
	file := writeBoard(t, `{"base": "juno-r2", "l2": {"size": "2MiB"}, "dram": {"latency": "95ns"}, "clocks": {"cpu": "800MHz"}}`)
	args := []string{"run", "etr", "--param", "buffer=256KiB", "--json"}
	code, withFile, errs := call(t, append(args, "--board", file)...)
	require.Equal(t, 0, code, errs)
	code, withURL, errs := call(t, append(args, "--url", "hw.l2.size=2MiB&hw.dram.latency=95ns&hw.clocks.cpu=0.8GHz")...)
	require.Equal(t, 0, code, errs)
	assert.Equal(t, withURL, withFile)
	code, preset, _ := call(t, args...)
	require.Equal(t, 0, code)
	assert.NotEqual(t, preset, withFile, "the board changes the run")

	code, edited, errs := call(t, append(args, "--board", file, "--url", "hw.dram.latency=150ns")...)
	require.Equal(t, 0, code, errs)
	code, want, _ := call(t, append(args, "--url", "hw.l2.size=2MiB&hw.dram.latency=150ns&hw.clocks.cpu=800MHz")...)
	require.Equal(t, 0, code)
	assert.Equal(t, want, edited, "a hw.* key edits the board file's board")

	code, _, errs = call(t, append(args, "--board", file, "--preset", "neoverse-n1")...)
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "--board "+file+" is built on juno-r2 but the preset given is neoverse-n1; give one")
	bad := writeBoard(t, `{"base": "juno-r2", "tlb": {"l2": {"entries": 0}}}`)
	code, _, errs = call(t, "run", "etr", "--board", bad)
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "--board "+bad+": tlb.l2.entries: 0 is out of range; allowed 1..4096\n")
	code, _, errs = call(t, "run", "etr", "--board", filepath.Join(t.TempDir(), "none.json"))
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "none.json: no such file")
}
