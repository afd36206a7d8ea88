package svg

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/demo"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
	"github.com/dmaviz/dmaviz/play"
	"github.com/dmaviz/dmaviz/render"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// frameAt builds the demo stage (NC vs cacheable+sync, or the no-sync bug
// on side B) at a fraction of the common axis.
func frameAt(t *testing.T, bPolicy string, progress float64, zoom render.Zoom) (*render.Scene, *render.Stage) {
	t.Helper()
	s := demo.New()
	p, _ := s.Spec().Defaults()
	a, err := s.Run(t.Context(), p, demo.PolicyNoncacheable, nil)
	require.NoError(t, err)
	b, err := s.Run(t.Context(), p, bPolicy, nil)
	require.NoError(t, err)
	pl := play.New(a, b)
	pl.Seek(sim.Time(progress * float64(pl.Length())))
	sa, sb := pl.States()
	f := render.Frame{
		A:      render.Side{Result: a, State: sa, Time: pl.SideTime(play.A)},
		B:      render.Side{Result: b, State: sb, Time: pl.SideTime(play.B)},
		Cursor: pl.Cursor(), Length: pl.Length(),
		W: 1280, H: 720, Zoom: zoom,
	}
	var sc render.Scene
	st := render.NewStage()
	st.Build(&sc, &f)
	return &sc, st
}

func TestGolden(t *testing.T) {
	cases := []struct {
		name     string
		b        string
		progress float64
		zoom     render.Zoom
		light    bool
	}{
		{"demo-start", demo.PolicyCacheableSync, 0, render.Zoom{}, false},
		{"demo-sync", demo.PolicyCacheableSync, 0.25, render.Zoom{}, false},
		{"demo-end-light", demo.PolicyCacheableSync, 1, render.Zoom{}, true},
		{"demo-nosync-stale", demo.PolicyCacheableNoSync, 1, render.Zoom{First: 32, Count: 16}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sc, _ := frameAt(t, c.b, c.progress, c.zoom)
			var opt Options
			if c.light {
				l := render.Light()
				opt.Palette = &l
			}
			var buf bytes.Buffer
			require.NoError(t, Write(&buf, sc, opt))
			checkGolden(t, c.name, buf.Bytes())
		})
	}
}

// checkGolden compares got with testdata/name.golden (or rewrites it with
// -update) and reports the first differing line.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./render/svg -update")
	if bytes.Equal(got, want) {
		return
	}
	// Compare line by line and stop at the first difference: a whole-file
	// require.Equal would print both SVGs in full.
	g := strings.Split(string(got), "\n")
	exp := strings.Split(string(want), "\n")
	for i := 0; i < len(g) && i < len(exp); i++ {
		require.Equal(t, exp[i], g[i], "differs from %s at line %d (run go test ./render/svg -update to accept)", path, i+1)
	}
	require.Equal(t, len(exp), len(g), "differs from %s in length (lines)", path)
}

// A chart of a batching saving over entry sizes, as a scenario reports it.
func TestChartGolden(t *testing.T) {
	c := scenario.Chart{
		ID: "saving", Title: "Time saved by batching", XLabel: "entry size (B)", YLabel: "saved (%)", LogX: true, Mark: 4096,
		Series: []scenario.Series{
			{Name: "dma_map_sg", Points: []timeline.Point{{X: 512, Y: 80}, {X: 4096, Y: 64.6}, {X: 65536, Y: 12}, {X: 1 << 20, Y: 1}}},
			{Name: "dma_unmap_sg", Points: []timeline.Point{{X: 512, Y: 82}, {X: 4096, Y: 66.6}, {X: 65536, Y: 13}, {X: 1 << 20, Y: 1.2}}},
		},
	}
	var sc render.Scene
	render.ChartScene(&sc, &c, 360, 200)
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, &sc, Options{}))
	checkGolden(t, "chart-saving", buf.Bytes())
}

func TestEscapesText(t *testing.T) {
	var sc render.Scene
	sc.Reset(100, 50)
	sc.Text("t", 1, 20, `a<b & "c"`, 12, render.Text, render.AlignStart)
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, &sc, Options{}))
	out := buf.String()
	require.Contains(t, out, "a&lt;b &amp; &#34;c&#34;", "text not escaped")
	require.NotContains(t, out, "a<b", "text not escaped")
}
