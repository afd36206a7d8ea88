package render

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// lessonPair runs scenario id's policies a and b at its lesson size.
func lessonPair(t *testing.T, id, a, b string) (*scenario.Result, *scenario.Result) {
	t.Helper()
	sc, err := catalog.Registry().Get(id)
	require.NoError(t, err)
	p, err := sc.Spec().SizeParams(scenario.SizeLesson)
	require.NoError(t, err)
	ra, rb, err := scenario.RunPair(t.Context(), sc, p, a, b, nil, nil)
	require.NoError(t, err)
	return ra, rb
}

// phaseEnd is when the first phase of kind ends in r's timeline.
func phaseEnd(t *testing.T, r *scenario.Result, kind string) sim.Time {
	t.Helper()
	for _, p := range r.Timeline.Phases {
		if p.Kind == kind {
			return p.End
		}
	}
	require.Fail(t, "no phase", "%s has no %s phase", r.Policy, kind)
	return 0
}

// Stale is drawn when it happens: right after the ETR's DMA, in each of
// the cacheable policies at the lesson size, the buffer's lines the CPU
// had cached are drawn as stale copies (rose, striped red) before
// anything reads them, and hovering one says since when and why. At the
// start, before the DMA, none is.
func TestStaleCopiesDrawnRightAfterTheDMA(t *testing.T) {
	for _, pol := range []string{"cached-sync-two-chunks", "cached-sync-whole-when-full", "cached-sync-for-cpu-and-device",
		"cached-no-sync", "cached-wrong-wrap-sync"} {
		t.Run(pol, func(t *testing.T) {
			a, b := lessonPair(t, "etr", "coherent", pol)
			dma := phaseEnd(t, b, "dma-write")
			cached := 0
			for _, c := range stateAt(b, 0).Cells[0] {
				if c.State == timeline.CellCached {
					cached++
				}
			}
			require.Positive(t, cached, "the previous session left lines cached")
			after := stateAt(b, dma)
			stale, doomed := 0, 0
			for _, c := range after.Cells[0] {
				switch c.State {
				case timeline.CellStaleCopy:
					stale++
				case timeline.CellDoomed: // held dirty: the previous session's barrier packet, or zero lines no sync cleaned
					doomed++
				}
			}
			assert.Equal(t, cached, stale+doomed, "every line cached before the DMA is a stale copy right after it (doomed when dirty)")

			var s Scene
			NewStage().Build(&s, frameAt(a, b, 0, 1440, 900))
			for _, it := range find(&s, "b/grid") {
				require.NotEqual(t, Rose, it.Fill, "a stale copy drawn before the DMA")
			}
			NewStage().Build(&s, frameAt(a, b, dma, 1440, 900))
			var rose []Item
			for _, it := range find(&s, "b/grid") {
				if it.Fill == Rose {
					rose = append(rose, it)
				}
			}
			require.NotEmpty(t, rose, "no cell drawn as a stale copy right after the DMA")
			red := 0
			for _, it := range find(&s, "b/grid-mark") {
				if it.Stroke == Red {
					red++
				}
			}
			assert.Positive(t, red, "stale copies are striped red, not told by colour alone")
			c := rose[len(rose)/2] // a cell away from the pointers, which frame theirs
			h, ok := s.HitTest(c.X+c.W/2, c.Y+c.H/2)
			require.True(t, ok)
			assert.Contains(t, h.Info, "stale copy since ")
			assert.Contains(t, h.Info, "the etr wrote this line after the CPU cached it")
			assert.False(t, strings.Contains(h.Info, "since 0 "), "since when the DMA wrote it, not the start: %s", h.Info)
		})
	}
}
