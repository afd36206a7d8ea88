package etr

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// The same parameters give the same result, timeline included.
func TestDeterministic(t *testing.T) {
	for _, pol := range []PolicyID{Coherent, WholeWhenFull, WrongWrap} {
		a := runWith(t, string(pol), ParamBuffer, "256KiB", ParamLaps, "1.7", ParamAUX, "128KiB")
		b := runWith(t, string(pol), ParamBuffer, "256KiB", ParamLaps, "1.7", ParamAUX, "128KiB")
		assert.Equal(t, b, a, "%s: two runs differ", pol)
	}
	a, b := runWith(t, string(WholeWhenFull)), runWith(t, string(WholeWhenFull))
	assert.Equal(t, b.Metrics, a.Metrics, "default runs differ")
	assert.Len(t, a.Timeline.Events, len(b.Timeline.Events), "default runs differ")
}

// Bad parameters are errors that name the parameter, never panics.
func TestBadParams(t *testing.T) {
	s := New()
	spec := s.Spec()
	val := func(name, text string) scenario.Value {
		v, err := spec.Param(name).Parse(text)
		require.NoError(t, err)
		return v
	}
	for _, tc := range []struct {
		name  string
		p     scenario.Params
		field string
	}{
		{"unknown parameter", scenario.Params{"bufer": {Num: 1}}, "bufer"},
		{"reserved key", scenario.Params{"speed": {Num: 1}}, "speed"},
		{"buffer not whole pages", scenario.Params{ParamBuffer: {Num: 65537}}, ParamBuffer},
		{"buffer too small", scenario.Params{ParamBuffer: {Num: 4096}}, ParamBuffer},
		{"buffer too large", scenario.Params{ParamBuffer: {Num: 1 << 30}}, ParamBuffer},
		{"aux not power of two pages", scenario.Params{ParamAUX: {Num: 12 << 10}}, ParamAUX},
		{"aux not whole pages", scenario.Params{ParamAUX: {Num: 5000}}, ParamAUX},
		{"negative laps", scenario.Params{ParamLaps: {Num: -1}}, ParamLaps},
		{"too many laps", scenario.Params{ParamLaps: {Num: 100}}, ParamLaps},
		{"width not a choice", scenario.Params{ParamWidth: {Text: "3"}}, ParamWidth},
		{"buffer past the bound", scenario.Params{ParamBuffer: {Text: "64MiB"}}, ParamBuffer},
		{"rate zero", scenario.Params{ParamRate: {Num: 0}}, ParamRate},
		{"prior unknown", scenario.Params{ParamPrior: {Text: "warm"}}, ParamPrior},
		{"preset unknown", scenario.Params{ParamPreset: {Text: "pentium"}}, ParamPreset},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := s.Run(t.Context(), tc.p, string(WholeWhenFull), nil)
			require.Error(t, err, "accepted: %+v", res)
			require.True(t, strings.HasPrefix(err.Error(), tc.field+":"), "error %q does not name %s first", err, tc.field)
		})
	}
	// 64-byte loads on a preset with 64-byte lines are fine; every choice runs.
	for _, c := range spec.Param(ParamWidth).Choices {
		{
			_, err := s.Run(t.Context(), scenario.Params{ParamWidth: {Text: c.Value}, ParamBuffer: val(ParamBuffer, "64KiB")}, string(Coherent), nil)
			require.NoError(t, err, "width %s", c.Value)
		}
	}
}

// The timeline shows the session: pointers on the buffer grid (so the
// stage draws the ring), the synced span, the AUX ring receiving pages,
// cache windows, the phases of the breakdown, narration in time order,
// and a bounded number of events at the seed's size.
func TestTimelineShowsTheSession(t *testing.T) {
	a, b := runWith(t, string(Coherent)), runWith(t, string(WholeWhenFull))
	for _, r := range []*scenario.Result{a, b} {
		tl := r.Timeline
		require.Len(t, tl.Grids, 2, "%s: grids %+v", r.Policy, tl.Grids)
		require.EqualValues(t, 65536, tl.Grids[0].Cells, "%s: grids %+v", r.Policy, tl.Grids)
		require.EqualValues(t, 64, tl.Grids[0].CellBytes, "%s: grids %+v", r.Policy, tl.Grids)
		require.EqualValues(t, 4096, tl.Grids[1].CellBytes, "%s: grids %+v", r.Policy, tl.Grids)
		require.Len(t, tl.Caches, 2, "%s: caches %+v", r.Policy, tl.Caches)
		require.EqualValues(t, "l1d", tl.Caches[0].ID, "%s: caches %+v", r.Policy, tl.Caches)
		require.EqualValues(t, "l2", tl.Caches[1].ID, "%s: caches %+v", r.Policy, tl.Caches)
		ptrs := map[string]int{}
		for _, v := range tl.Values {
			ptrs[v.ID] = v.Grid
		}
		require.EqualValues(t, 0, ptrs["rrp"], "%s: values %+v", r.Policy, tl.Values)
		require.EqualValues(t, 0, ptrs["rwp"], "%s: values %+v", r.Policy, tl.Values)
		require.EqualValues(t, 0, ptrs["full"], "%s: values %+v", r.Policy, tl.Values)
		require.EqualValues(t, 1, ptrs["head"], "%s: values %+v", r.Policy, tl.Values)
		require.EqualValues(t, 1, ptrs["tail"], "%s: values %+v", r.Policy, tl.Values)
		{
			n := len(tl.Events)
			require.False(t, n > 400000, "%s: %d events, %d keyframes", r.Policy, n, len(tl.Keyframes))
			require.False(t, len(tl.Keyframes) > timeline.MaxKeyframes, "%s: %d events, %d keyframes", r.Policy, n, len(tl.Keyframes))
		}
		var end timeline.State
		tl.StateAt(len(tl.Events), &end)
		want := timeline.CellCopied
		if r.Policy == string(Coherent) {
			want = timeline.CellUncachedRead
		}
		for i, c := range end.Cells[0] {
			require.False(t, c.State != want && !(i == 0 && c.State == timeline.CellCopied), "%s: cell %d is %v at the end, want %v", r.Policy, i, c.State, want)
		}
		for i, c := range end.Cells[1] {
			require.EqualValues(t, timeline.CellCPUWritten, c.State, "%s: AUX page %d is %v, want cpu-written", r.Policy, i, c.State)
		}
		require.False(t, len(r.Narration) < 5, "%s: %d narration steps", r.Policy, len(r.Narration))
		for i := 1; i < len(r.Narration); i++ {
			require.False(t, r.Narration[i].T < r.Narration[i-1].T, "%s: narration %+v", r.Policy, r.Narration)
			require.NotEqualValues(t, "", r.Narration[i].Title, "%s: narration %+v", r.Policy, r.Narration)
			require.NotEqualValues(t, "", r.Narration[i].Text, "%s: narration %+v", r.Policy, r.Narration)
		}
		marks := 0
		for _, e := range tl.Events {
			if e.Kind == timeline.EvMark {
				marks++
			}
		}
		require.Equal(t, len(r.Narration), marks, "%s: %d marks, %d steps", r.Policy, marks, len(r.Narration))
		require.EqualValues(t, tl.End, r.End, "%s: end %v, timeline end %v", r.Policy, r.End, tl.End)
		require.False(t, r.End <= 0, "%s: end %v, timeline end %v", r.Policy, r.End, tl.End)
	}
	kinds := func(r *scenario.Result) map[string]bool {
		k := map[string]bool{}
		for _, p := range r.Timeline.Phases {
			k[p.Kind] = true
		}
		return k
	}
	for _, k := range []string{"dma-write", "stop", "nc-read"} {
		assert.True(t, kinds(a)[k], "coherent: no %s phase", k)
	}
	for _, k := range []string{"dma-write", "stop", "invalidate", "dsb-wait", "barrier", "copy"} {
		assert.True(t, kinds(b)[k], "cacheable: no %s phase", k)
	}
	// Both sides start the session at time 0 and trace for the same time
	// (within what DRAM still had queued from the previous session).
	pa, pb := a.Timeline.Phases[0], b.Timeline.Phases[0]
	assert.EqualValues(t, 0, pa.Start, "trace phases differ: %d..%d / %d..%d", a.Timeline.Phases[0].Start, a.Timeline.Phases[0].End, b.Timeline.Phases[0].Start, b.Timeline.Phases[0].End)
	assert.EqualValues(t, 0, pb.Start, "trace phases differ: %d..%d / %d..%d", a.Timeline.Phases[0].Start, a.Timeline.Phases[0].End, b.Timeline.Phases[0].Start, b.Timeline.Phases[0].End)
	assert.EqualValues(t, "dma-write", pa.Kind, "trace phases differ: %d..%d / %d..%d", a.Timeline.Phases[0].Start, a.Timeline.Phases[0].End, b.Timeline.Phases[0].Start, b.Timeline.Phases[0].End)
	assert.EqualValues(t, "dma-write", pb.Kind, "trace phases differ: %d..%d / %d..%d", a.Timeline.Phases[0].Start, a.Timeline.Phases[0].End, b.Timeline.Phases[0].Start, b.Timeline.Phases[0].End)
	assert.False(t, (pa.End-pb.End).Microseconds() > 1, "trace phases differ: %d..%d / %d..%d", a.Timeline.Phases[0].Start, a.Timeline.Phases[0].End, b.Timeline.Phases[0].Start, b.Timeline.Phases[0].End)
	assert.False(t, (pb.End-pa.End).Microseconds() > 1, "trace phases differ: %d..%d / %d..%d", a.Timeline.Phases[0].Start, a.Timeline.Phases[0].End, b.Timeline.Phases[0].Start, b.Timeline.Phases[0].End)
}

// The largest buffer (32 MiB) is shown with several lines per cell, and
// stays fast enough to record.
func TestLargeBufferCoarseCells(t *testing.T) {
	if testing.Short() {
		t.Skip("32 MiB run")
	}
	r := runWith(t, string(WholeWhenFull), ParamBuffer, "32MiB", ParamAUX, "32MiB")
	g := r.Timeline.Grids[0]
	require.EqualValues(t, 65536, g.Cells, "grid %+v", g)
	require.EqualValues(t, 512, g.CellBytes, "grid %+v", g)
	require.EqualValues(t, 32<<20, metric(t, r, "copied_bytes"), "copied %v stale %v lost %v", metric(t, r, "copied_bytes"), metric(t, r, MetricStale), metric(t, r, MetricLost))
	require.EqualValues(t, 0, metric(t, r, MetricStale), "copied %v stale %v lost %v", metric(t, r, "copied_bytes"), metric(t, r, MetricStale), metric(t, r, MetricLost))
	require.EqualValues(t, 0, metric(t, r, MetricLost), "copied %v stale %v lost %v", metric(t, r, "copied_bytes"), metric(t, r, MetricStale), metric(t, r, MetricLost))
}
