package main

import (
	"context"
	"encoding/xml"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// svgDoc is the part of an SVG figure the tests read.
type svgDoc struct {
	XMLName xml.Name  `xml:"svg"`
	Rects   []svgItem `xml:"rect"`
	Lines   []svgItem `xml:"line"`
	Texts   []svgItem `xml:"text"`
}

type svgItem struct {
	ID    string `xml:"data-id,attr"`
	Index int    `xml:"data-index,attr"`
	Text  string `xml:",chardata"`
}

func TestSweepSVG(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "etr.svg")
	code, out, errs := call(t, "sweep", "etr", "--vary", "buffer=1MiB..16MiB:x2", "--svg", file)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "wrote "+file)
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	var doc svgDoc
	require.NoError(t, xml.Unmarshal(data, &doc))
	marks := map[int]bool{} // the points drawn (a mark may take several items)
	published := map[int]bool{}
	for _, r := range append(doc.Rects, doc.Lines...) {
		switch r.ID {
		case "chart/point":
			marks[r.Index] = true
		case "chart/published":
			published[r.Index] = true
		}
	}
	points := map[int]int{} // series -> points drawn
	for i := range marks {
		points[i/1000]++
	}
	assert.Equal(t, map[int]int{0: 5, 1: 5}, points, "five points on each of A and B")
	assert.Equal(t, map[int]bool{0: true, 1: true}, published, "the published figure marked on both series")
	texts := map[string]bool{}
	fixed := ""
	for _, x := range doc.Texts {
		texts[x.Text] = true
		if x.ID == "chart/fixed" {
			fixed += x.Text + " "
		}
	}
	// The sweep holds the AUX area at 4 MiB while the buffer grows: the
	// chart says so.
	assert.Contains(t, fixed, "held fixed:")
	assert.Contains(t, fixed, "aux=4MiB")
	for _, want := range []string{"A coherent", "B cached-sync-whole-when-full", "ETR buffer size (B)", "update_etr_buffer_us",
		"published 8148.32", "published 2525.42", "1MiB", "16MiB"} {
		assert.True(t, texts[want], "the chart lacks the text %q", want)
	}
}

func TestSweepCSVToStdout(t *testing.T) {
	code, out, errs := call(t, "sweep", "demo", "--vary=buffer=4KiB,8KiB", "--param", "preset=neoverse-n1")
	require.Equal(t, 0, code, errs)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 5)
	assert.True(t, strings.HasPrefix(lines[0], "buffer,preset,side,policy,"), lines[0])
	assert.True(t, strings.HasPrefix(lines[1], "4096,neoverse-n1,A,noncacheable,"), lines[1])
	assert.True(t, strings.HasPrefix(lines[4], "8192,neoverse-n1,B,cacheable-sync,"), lines[4])
}

// Output is identical for one core and one worker and two cores and two.
func TestSweepSameOnAnyCoreCount(t *testing.T) {
	dir := t.TempDir()
	var got [2]string
	for i, procs := range []int{1, 2} {
		old := runtime.GOMAXPROCS(procs)
		file := filepath.Join(dir, "out.json")
		code, _, errs := call(t, "sweep", "sg-sync", "--vary", "entry=4KiB..64KiB:x4", "--param", "iterations=2", "--json", file)
		runtime.GOMAXPROCS(old)
		require.Equal(t, 0, code, errs)
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		got[i] = string(data)
	}
	assert.Equal(t, got[0], got[1])
	assert.Contains(t, got[0], `"param": "entry"`)
}

func TestSweepBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "etr", "--vary", "buffer=64KiB..128MiB:x2"}, "buffer: 128MiB is out of range; allowed 16KiB..32MiB"},
		{[]string{"sweep", "etr"}, "missing --vary"},
		{[]string{"sweep", "etr", "--vary", "buffer=1MiB,2MiB", "--vary", "laps=1,2", "--vary", "aux=4MiB"}, "allowed 1 or 2"},
		{[]string{"sweep", "etr", "--vary", "buffer=1MiB,2MiB", "--svg", "-", "--csv", "-"}, "only one of"},
		{[]string{"sweep", "etr", "--vary", "buffer=1MiB,2MiB", "--svg", "x.svg", "--metric", "nope"}, "--metric nope: not reported"},
		{[]string{"sweep", "etr", "--vary", "buffer=1MiB,2MiB", "--jobs", "0"}, "--jobs \"0\": want a whole number, allowed 1..256"},
		{[]string{"sweep", "etr", "--vary", "buffer=1MiB,2MiB", "--a", "fast"}, "fast"},
	} {
		code, _, errs := call(t, c.args...)
		assert.Equal(t, 2, code, "%v", c.args)
		assert.Contains(t, errs, c.want, "%v", c.args)
	}
	assert.NoFileExists(t, "x.svg")
}

// An interrupted sweep writes nothing.
func TestSweepInterruptedWritesNothing(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb strings.Builder
	csv, js := filepath.Join(dir, "a.csv"), filepath.Join(dir, "a.json")
	code := sweepMain(ctx, []string{"etr", "--vary", "buffer=64KiB..32MiB:x2", "--csv", csv, "--json", js}, &out, &errb)
	assert.Equal(t, 130, code)
	assert.Contains(t, errb.String(), "interrupted; nothing written")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries)
}

// The progress bar is drawn only on a terminal, on one line.
func TestSweepProgressBar(t *testing.T) {
	var b strings.Builder
	assert.False(t, isTerminal(&b))
	p := &progressBar{w: &b}
	p.update(11, 22)
	assert.Equal(t, "\r[###############...............] 11/22 runs", b.String())
	var none *progressBar
	none.update(1, 2) // no terminal: no bar, no panic
	none.clear()
}
