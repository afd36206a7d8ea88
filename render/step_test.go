package render

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
)

// Two steps of a side that start at the same time (etr's "full" and "stop"
// at the paper size) are shown one after the other by the player: the
// stage's caption names the step the player shows (Side.Step), on its one
// line and in presentation mode, and the later one without it.
func TestCaptionFollowsThePlayersStep(t *testing.T) {
	sc, err := catalog.Registry().Get("etr")
	require.NoError(t, err)
	spec := sc.Spec()
	a, b := runPolicyWith(t, sc, spec.DefaultA, nil), runPolicyWith(t, sc, spec.DefaultB, nil)
	tied := -1
	for i := 1; i < len(a.Narration); i++ {
		if a.Narration[i].T == a.Narration[i-1].T {
			tied = i - 1
			break
		}
	}
	require.GreaterOrEqual(t, tied, 0, "etr at the paper size has no two steps of A at the same time (the test needs them)")
	at := a.Narration[tied].T
	for _, narrate := range []bool{false, true} {
		for step, want := range map[int]int{tied + 1: tied, 0: tied + 1} {
			f := &Frame{A: Side{Result: a, State: stateAt(a, at), Time: at, Step: step}, B: Side{Result: b, State: stateAt(b, at), Time: min(at, b.End)},
				Cursor: at, Length: max(a.End, b.End), Left: 340, W: 1440, H: 900, Narrate: narrate}
			var s Scene
			NewStage().Build(&s, f)
			caps := find(&s, "a/caption")
			require.NotEmpty(t, caps, "narrate %v: no caption on A", narrate)
			title := a.Narration[want].Title
			assert.True(t, strings.Contains(caps[0].Text, title[:min(len(title), 12)]),
				"narrate %v, Step %d: caption %q, want step %d %q", narrate, step, caps[0].Text, want+1, title)
		}
	}
}
