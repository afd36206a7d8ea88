package render

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Masked, the counters keep their rows and names but print "?" for the
// values and B/A, draw no bars, say when the values show, and hover
// gives no figure either; unmasked the same frame prints the figures.
func TestCountersMaskedKeepValuesBack(t *testing.T) {
	bars := 0
	for _, id := range []string{"demo", "etr", "trbe-aux"} {
		f := pairFrame(t, id, 0, 1440, 900, 340, 0, 0, false)
		var shown, masked Scene
		NewStage().Build(&shown, f)
		names := find(&shown, "counters/name")
		require.NotEmpty(t, names, id)
		bars += len(find(&shown, "counters/bar"))
		values := find(&shown, "counters/values")
		require.NotEmpty(t, values, id)
		assert.Contains(t, values[0].Text, " / ", "%s: the figures show", id)

		f.Masked = true
		st := NewStage()
		st.Build(&masked, f)
		assert.NotEmpty(t, find(&masked, "counters/name"), "%s: the rows stay", id)
		assert.Empty(t, find(&masked, "counters/bar"), "%s: a bar's length gives the answer away", id)
		for _, sid := range []string{"counters/values", "counters/ratio"} {
			items := find(&masked, sid)
			require.NotEmpty(t, items, "%s %s", id, sid)
			for _, it := range items {
				assert.Equal(t, "?", it.Text, "%s %s", id, sid)
			}
		}
		note := find(&masked, "counters/masked")
		require.Len(t, note, 1, id)
		assert.Contains(t, note[0].Text, "revealed with the answer")
		assert.Empty(t, find(&masked, "counters/more"), id)
		info := st.Describe(find(&masked, "counters/name")[0].Ref)
		assert.Contains(t, info, "revealed with the answer", id)
		for _, v := range values {
			for _, fig := range strings.Split(v.Text, " / ") {
				assert.NotContains(t, info, fig+",", "%s: hover gives %s", id, fig)
			}
		}
	}
	assert.Positive(t, bars, "no scenario drew bars unmasked: the check of bars means nothing")
}

// Masked, the timeline draws no bar past each side's time: at 20 % of
// etr's run the bars still to come (which side finishes first) are not
// on the stage; unmasked they are.
func TestTimelineMaskedDrawsOnlyWhatElapsed(t *testing.T) {
	shown, masked := shownAndMasked(t, "etr", 0.2)
	cursor := find(&masked, "timeline/cursor")
	require.Len(t, cursor, 1)
	cx := cursor[0].X
	past := func(s *Scene) int {
		n := 0
		for _, it := range find(s, "timeline/phase") {
			if it.X+it.W > cx+1.5 {
				n++
			}
		}
		return n
	}
	assert.Positive(t, past(&shown), "unmasked, the bars to come show")
	assert.Zero(t, past(&masked), "masked, a bar reaches past the cursor")
	assert.NotEmpty(t, find(&masked, "timeline/phase"), "what elapsed still shows")
}

// Masked, the SMMU stage keeps smmu-bypass's answer back: no latency
// histogram or averages (the NIC's 140 against 38 cycles), no forwarding
// curve past the cursor, and no latency for a transaction still in
// flight; unmasked, all of them show.
func TestSMMUMaskedKeepsLatenciesBack(t *testing.T) {
	shown, masked := shownAndMasked(t, "smmu-bypass", 0)
	texts := func(s *Scene, prefix string) string {
		var out []string
		for _, it := range s.Items {
			if it.Kind == KindText && strings.HasPrefix(it.ID, prefix) {
				out = append(out, it.Text)
			}
		}
		return strings.Join(out, "\n")
	}
	require.NotEmpty(t, find(&shown, "smmu-hist/bar"))
	assert.Contains(t, texts(&shown, "smmu-hist/key"), "average")
	assert.Contains(t, texts(&shown, "a/smmu-status"), " cyc")
	require.NotEmpty(t, find(&shown, "smmu-tput/line"))

	assert.Empty(t, find(&masked, "smmu-hist/bar"))
	assert.Empty(t, find(&masked, "smmu-hist/avg"))
	assert.NotContains(t, texts(&masked, "smmu-hist/key"), "average")
	assert.Contains(t, texts(&masked, "smmu-hist/masked"), "revealed with the answer")
	assert.Empty(t, find(&masked, "smmu-tput/line"), "at the start no forwarding has happened yet")
	for _, side := range []string{"a/", "b/"} {
		st := texts(&masked, side+"smmu-status")
		assert.Contains(t, st, "in flight", side)
		assert.NotContains(t, st, "cyc", "%s: an in-flight latency shows", side)
	}
}

// shownAndMasked builds scenario id's default pair at frac of its run,
// beside a 340 px panel in a 1440x900 window, unmasked and masked.
func shownAndMasked(t *testing.T, id string, frac float64) (shown, masked Scene) {
	t.Helper()
	f := pairFrame(t, id, frac, 1440, 900, 340, 0, 0, false)
	NewStage().Build(&shown, f)
	f.Masked = true
	NewStage().Build(&masked, f)
	return shown, masked
}

// Masked, the PMU counter chart (trbe-aux's bottom row) draws each
// side's count only up to the cursor and prints "?" for the counts: its
// lines' ends were stop 4's answer (l2d_tlb_refill 208 against 148)
// before the reveal; unmasked, the whole run and the counts show.
func TestCounterChartMaskedDrawsOnlyWhatElapsed(t *testing.T) {
	// The axis is the last simulated session's, as the page draws it.
	f := pairFrame(t, "trbe-aux", 0, 1440, 900, 340, 0, 0, false)
	a, b := f.A.Result, f.B.Result
	end := max(a.Timeline.End, b.Timeline.End)
	at := end * 3 / 10
	f.Cursor, f.Length = at, end
	f.A.Time, f.B.Time = min(at, a.Timeline.End), min(at, b.Timeline.End)
	f.A.State, f.B.State = stateAt(a, f.A.Time), stateAt(b, f.B.Time)
	var shown, masked Scene
	NewStage().Build(&shown, f)
	f.Masked = true
	NewStage().Build(&masked, f)
	cursor := find(&masked, "countchart/cursor")
	require.NotEmpty(t, cursor)
	cx := cursor[0].X
	past := func(s *Scene) int {
		n := 0
		for _, it := range find(s, "countchart/line") {
			if it.X2 > cx+1.5 {
				n++
			}
		}
		return n
	}
	assert.Positive(t, past(&shown), "unmasked, the counts to come show")
	assert.Zero(t, past(&masked), "masked, a counter's line reaches past the cursor")
	assert.NotEmpty(t, find(&masked, "countchart/line"), "what elapsed still shows")
	for _, it := range find(&shown, "countchart/values") {
		assert.NotContains(t, it.Text, "?")
	}
	values := find(&masked, "countchart/values")
	require.NotEmpty(t, values)
	for _, it := range values {
		assert.Equal(t, "A ?   B ?", it.Text)
	}
}
