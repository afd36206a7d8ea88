package svg

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/smmubypass"
	"github.com/dmaviz/dmaviz/play"
	"github.com/dmaviz/dmaviz/render"
)

// The SMMU view of smmu-bypass (a short run) halfway through: paths at the
// cursor, stream-match table, TBU TLB with the NIC's cached bypass on B,
// histogram and throughput A vs B.
func TestSMMUGolden(t *testing.T) {
	s := smmubypass.New()
	p, err := s.Spec().Defaults()
	require.NoError(t, err)
	require.NoError(t, s.Spec().Set(p, "packets", "2000"))
	var res [2]*scenario.Result
	for i, pol := range []string{smmubypass.PolicyOff, smmubypass.PolicyOn} {
		res[i], err = s.Run(t.Context(), p, pol, nil)
		require.NoError(t, err)
	}
	pl := play.New(res[0], res[1])
	pl.Seek(pl.Length() / 2)
	sa, sb := pl.States()
	f := render.Frame{
		A:      render.Side{Result: res[0], State: sa, Time: pl.SideTime(play.A)},
		B:      render.Side{Result: res[1], State: sb, Time: pl.SideTime(play.B)},
		Cursor: pl.Cursor(), Length: pl.Length(), W: 1280, H: 720,
	}
	var sc render.Scene
	render.NewStage().Build(&sc, &f)
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, &sc, Options{}))
	checkGolden(t, "smmu-bypass-half", buf.Bytes())
}
