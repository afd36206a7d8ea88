package sweep

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/etr"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/timeline"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func request(t *testing.T, s scenario.Scenario, vary ...string) Request {
	t.Helper()
	spec := s.Spec()
	base, err := spec.Defaults()
	require.NoError(t, err)
	req := Request{Scenario: s, Base: base, A: spec.DefaultA, B: spec.DefaultB}
	for _, v := range vary {
		ax, err := ParseVary(spec, v)
		require.NoError(t, err)
		req.Axes = append(req.Axes, ax)
	}
	return req
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create it")
	assert.Equal(t, string(want), string(got))
}

func outputs(t *testing.T, tab *Table) (csv, js []byte) {
	var c, j bytes.Buffer
	require.NoError(t, tab.WriteCSV(&c))
	require.NoError(t, tab.WriteJSON(&j))
	return c.Bytes(), j.Bytes()
}

func TestGoldenGrid(t *testing.T) {
	req := request(t, fake{}, "size=1KiB..4KiB:x2", "mode=a,b")
	tab, err := Run(context.Background(), req, 2, nil)
	require.NoError(t, err)
	require.Len(t, tab.Points, 6)
	csv, js := outputs(t, tab)
	golden(t, "grid.csv.golden", csv)
	golden(t, "grid.json.golden", js)
}

func TestParseVary(t *testing.T) {
	spec := fake{}.Spec()
	for _, c := range []struct {
		text, want string
		geo        bool
	}{
		{"size=1KiB..16KiB:x2", "1KiB 2KiB 4KiB 8KiB 16KiB", true},
		{"size=1KiB..10KiB", "1KiB 2KiB 4KiB 8KiB", true}, // sizes default to x2, up to hi
		{"size=1KiB..3KiB:+1KiB", "1KiB 2KiB 3KiB", false},
		{"rate=0.5..2:+0.5", "0.5 1 1.5 2", false},
		{"rate=1..8:x2", "1 2 4 8", true},
		{"mode=b,a", "b a", false},
		{"size=512KiB,4KiB", "512KiB 4KiB", true},
	} {
		ax, err := ParseVary(spec, c.text)
		require.NoError(t, err, c.text)
		var got []string
		for _, v := range ax.Values {
			got = append(got, v.Text)
		}
		assert.Equal(t, c.want, join(got), c.text)
		assert.Equal(t, c.geo, ax.Geometric, c.text)
	}
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}

// A bad range names the key and what is allowed.
func TestBadRanges(t *testing.T) {
	spec := etr.New().Spec()
	for _, c := range []struct{ text, want string }{
		{"buffer=64KiB..1GiB:x2", "buffer: 1GiB is out of range; allowed 16KiB..32MiB"},
		{"buffer=4KiB..32MiB", "buffer: 4KiB is out of range; allowed 16KiB..32MiB"},
		{"buffer=32MiB..64KiB:x2", "32MiB..64KiB runs backwards; allowed 16KiB..32MiB"},
		{"buffer=64KiB..32MiB:x1", "the factor must be a number above 1"},
		{"buffer=64KiB..32MiB:+0", "the increment must be above 0"},
		{"buffer=64KiB..32MiB:+4KiB", "allowed at most 64"},
		{"laps=0..4", "needs a step"},
		{"laps=0..4:x2", "a geometric range needs lo > 0"},
		{"prior=cold..steady", "prior: a range needs a numeric parameter; list the values instead (one of steady, cold, cached)"},
		{"width=16,128", "width: \"128\" is not allowed; allowed one of 4, 8, 16, 32, 64"},
		{"buffer=1MiB,1MiB", "1MiB is listed twice"},
		{"colour=1..2", "colour: unknown parameter for scenario etr"},
		{"buffer", "want key=lo..hi:x2"},
	} {
		_, err := ParseVary(spec, c.text)
		if assert.Error(t, err, c.text) {
			assert.Contains(t, err.Error(), c.want, c.text)
		}
	}
	req := request(t, fake{}, "size=1KiB..64KiB:+1KiB", "rate=0.5..8:+0.5")
	assert.ErrorContains(t, req.Validate(), "1024 points; allowed at most 512")
	req = request(t, fake{}, "size=1KiB,2KiB", "size=4KiB")
	assert.ErrorContains(t, req.Validate(), "size: given twice")
}

// The same sweep of the real etr model gives byte-identical output on one
// core with one worker and on two cores with two.
func TestDeterministicAcrossCores(t *testing.T) {
	req := request(t, etr.New(), "buffer=64KiB..256KiB:x2", "width=8,16")
	var out [2][2][]byte
	for i, procs := range []int{1, 2} {
		old := runtime.GOMAXPROCS(procs)
		tab, err := Run(context.Background(), req, procs, nil)
		runtime.GOMAXPROCS(old)
		require.NoError(t, err)
		out[i][0], out[i][1] = outputs(t, tab)
	}
	assert.Equal(t, string(out[0][0]), string(out[1][0]), "CSV differs")
	assert.Equal(t, string(out[0][1]), string(out[1][1]), "JSON differs")
	assert.Contains(t, string(out[0][0]), "131072,") // the middle size, in bytes
}

// Cancelling stops the sweep without waiting for the rest of the grid.
func TestCancel(t *testing.T) {
	req := request(t, slowFake{}, "size=1KiB..64KiB:+1KiB")
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int32
	done := make(chan struct{})
	var err error
	var tab *Table
	go func() {
		tab, err = Run(ctx, req, 2, func(n, total int) {
			if calls.Add(1) == 2 {
				cancel()
			}
		})
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
	assert.ErrorIs(t, err, context.Canceled)
	assert.Nil(t, tab)
	assert.Less(t, slowRuns.Load(), int32(2*64), "every point ran despite the cancel")
}

var slowRuns atomic.Int32

// slowFake takes a few milliseconds per run.
type slowFake struct{ fake }

func (s slowFake) Run(ctx context.Context, p scenario.Params, policy string, pace *scenario.Pacer) (*scenario.Result, error) {
	slowRuns.Add(1)
	time.Sleep(5 * time.Millisecond)
	return s.fake.Run(ctx, p, policy, pace)
}

func TestRunErrorNamesThePoint(t *testing.T) {
	req := request(t, fake{}, "size=1KiB,2KiB")
	req.B = "nope"
	_, err := Run(context.Background(), req, 2, nil)
	assert.ErrorContains(t, err, "size=1KiB: nope: policy \"nope\"")
}

// The chart has one series per side, a log x axis for a geometric range,
// the published figure where the rest is at the defaults, and none
// elsewhere.
func TestChart(t *testing.T) {
	tab, err := Run(context.Background(), request(t, fake{}, "size=1KiB..16KiB:x2"), 2, nil)
	require.NoError(t, err)
	ch, err := tab.Chart("t_us")
	require.NoError(t, err)
	require.Len(t, ch.Series, 2)
	assert.Equal(t, "A slow", ch.Series[0].Name)
	assert.Equal(t, "B fast", ch.Series[1].Name)
	assert.True(t, ch.LogX)
	assert.Equal(t, "Buffer size (B)", ch.XLabel)
	assert.Equal(t, "t_us", ch.YLabel)
	require.Len(t, ch.Series[0].Points, 5)
	assert.Equal(t, timeline.Point{X: 4096, Y: 12}, ch.Series[0].Points[2])
	require.Len(t, ch.Published, 1)
	assert.Equal(t, scenario.ChartRef{Series: 0, X: 4096, Y: 12, Label: "published 12", Source: "fake figure"}, ch.Published[0])
	assert.Equal(t, 4096.0, ch.Mark)

	_, err = tab.Chart("nope")
	assert.ErrorContains(t, err, "--metric nope: not reported by scenario fake; known: t_us, lines, only_fast, stale_bytes")

	// Off the published setting: no marker.
	req := request(t, fake{}, "size=1KiB..16KiB:x2")
	req.Base["rate"] = scenario.Value{Num: 2, Text: "2"}
	tab, err = Run(context.Background(), req, 1, nil)
	require.NoError(t, err)
	ch, err = tab.Chart("t_us")
	require.NoError(t, err)
	assert.Empty(t, ch.Published)

	// Two axes: a series per side and second value; the marker only on the
	// series at the default mode.
	tab, err = Run(context.Background(), request(t, fake{}, "size=1KiB..16KiB:x2", "mode=b,a"), 2, nil)
	require.NoError(t, err)
	ch, err = tab.Chart("t_us")
	require.NoError(t, err)
	require.Len(t, ch.Series, 4)
	assert.Equal(t, "A slow, mode=a", ch.Series[1].Name)
	require.Len(t, ch.Published, 1)
	assert.Equal(t, 1, ch.Published[0].Series)
	assert.Equal(t, 12.0, ch.Series[1].Points[2].Y)
	assert.Equal(t, 14.0, ch.Series[0].Points[2].Y)
}
