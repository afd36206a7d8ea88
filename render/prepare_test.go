package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/auxmap"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// A frame built from what Prepare made is the frame built without it, and
// the stage takes the prepared units (none are left behind).
func TestPreparedFirstFrameIsTheSame(t *testing.T) {
	s := auxmap.NewTRBE()
	p := scenario.Params{}
	require.NoError(t, s.Spec().Set(p, "aux", "64MiB"))
	a, err := s.Run(t.Context(), p, auxmap.Order0, nil)
	require.NoError(t, err)
	r, err := s.Run(t.Context(), p, auxmap.PreferLarge, nil)
	require.NoError(t, err)
	frame := func() *Frame {
		var sa, sb timeline.State
		return &Frame{A: Side{Result: a, State: &sa}, B: Side{Result: r, State: &sb}, Length: max(a.Timeline.End, r.Timeline.End), W: 1440, H: 900, Left: 330}
	}
	var plain, ready Scene
	NewStage().Build(&plain, frame())
	Prepare(a)
	Prepare(r)
	prepared.mu.Lock()
	n := len(prepared.list)
	prepared.mu.Unlock()
	require.Equal(t, 2, n, "Prepare kept a side's units")
	NewStage().Build(&ready, frame())
	assert.Equal(t, plain.Items, ready.Items, "the prepared frame differs")
	prepared.mu.Lock()
	n = len(prepared.list)
	prepared.mu.Unlock()
	assert.Zero(t, n, "the stage left prepared units behind")
}
