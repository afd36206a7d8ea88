package svg

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/vmapdemo"
	"github.com/dmaviz/dmaviz/play"
	"github.com/dmaviz/dmaviz/render"
)

// vmapFrame builds the vmap scenario's stage (4 KiB PTEs against large
// mappings) with settings kv at a fraction of the common axis.
func vmapFrame(t *testing.T, progress float64, zoom render.Zoom, kv ...string) *render.Scene {
	t.Helper()
	s := vmapdemo.New()
	p, err := s.Spec().Defaults()
	require.NoError(t, err)
	for i := 0; i+1 < len(kv); i += 2 {
		require.NoError(t, s.Spec().Set(p, kv[i], kv[i+1]))
	}
	run := func(policy string) *scenario.Result {
		r, err := s.Run(t.Context(), p, policy, nil)
		require.NoError(t, err)
		return r
	}
	a, b := run(vmapdemo.PolicyPTE), run(vmapdemo.PolicyLarge)
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
	render.NewStage().Build(&sc, &f)
	return &sc
}

// The page-mapping and TLB views of the vmap scenario: the default 8 MiB
// buffer halfway, a 1 MiB buffer of 64 KiB chunks zoomed to 32 pages, and
// the start of a run (no walk yet).
func TestVmapGolden(t *testing.T) {
	cases := []struct {
		name     string
		progress float64
		zoom     render.Zoom
		kv       []string
	}{
		{"vmap-half", 0.5, render.Zoom{}, nil},
		{"vmap-zoom-64k", 0.6, render.Zoom{First: 16, Count: 32}, []string{"buffer", "1MiB", "watermark", "64KiB"}},
		{"vmap-start", 0, render.Zoom{}, []string{"buffer", "256KiB"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sc := vmapFrame(t, c.progress, c.zoom, c.kv...)
			var buf bytes.Buffer
			require.NoError(t, Write(&buf, sc, Options{}))
			checkGolden(t, c.name, buf.Bytes())
		})
	}
}
