package demo

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/timeline"
)

func runDemo(t *testing.T, policy string, set map[string]string) *scenario.Result {
	t.Helper()
	s := New()
	p, err := s.Spec().Defaults()
	require.NoError(t, err)
	for k, v := range set {
		require.NoError(t, s.Spec().Set(p, k, v))
	}
	r, err := s.Run(t.Context(), p, policy, nil)
	require.NoError(t, err, "Run(%s)", policy)
	return r
}

func TestPoliciesCorrectnessAndCost(t *testing.T) {
	nc := runDemo(t, PolicyNoncacheable, nil)
	sync := runDemo(t, PolicyCacheableSync, nil)
	bug := runDemo(t, PolicyCacheableNoSync, nil)
	for _, r := range []*scenario.Result{nc, sync} {
		{
			v, _ := r.Metric("stale_bytes")
			assert.EqualValues(t, 0, v, "%s: stale_bytes = %v, want 0", r.Policy, v)
		}
		assert.Len(t, r.Hazards, 0, "%s: hazards %v", r.Policy, r.Hazards)
	}
	// 16 KiB fits in the 32 KiB L1D, so without a sync every line was cached
	// before the device wrote it and every byte is read stale.
	{
		v, _ := bug.Metric("stale_bytes")
		assert.EqualValues(t, 16<<10, v, "no-sync stale_bytes = %v, want %d", v, 16<<10)
	}
	assert.Len(t, bug.Hazards, 1, "no-sync hazards = %+v, want one covering the buffer", bug.Hazards)
	assert.EqualValues(t, BufferBase, bug.Hazards[0].Addr, "no-sync hazards = %+v, want one covering the buffer", bug.Hazards)
	assert.EqualValues(t, 16<<10, bug.Hazards[0].Bytes, "no-sync hazards = %+v, want one covering the buffer", bug.Hazards)
	ncT, _ := nc.Metric("readout_us")
	syncT, _ := sync.Metric("readout_us")
	assert.True(t, (syncT < ncT), "cacheable+sync readout %v us not faster than Normal-NC %v us", syncT, ncT)
	{
		v, _ := sync.Metric("dc_ops")
		assert.EqualValues(t, 256, v, "dc_ops = %v, want 256 (one per line)", v)
	}
	for _, r := range []*scenario.Result{nc, sync, bug} {
		{
			v, ok := r.Metric("lost_bytes")
			assert.True(t, ok, "%s: lost_bytes = %v, %v", r.Policy, v, ok)
			assert.EqualValues(t, 0, v, "%s: lost_bytes = %v, %v", r.Policy, v, ok)
		}
	}
}

// Staleness comes from what is still cached, not from the policy name: a
// buffer that fits in the 32 KiB L1D is read stale in full; with a 64 KiB
// buffer the copy's own fills evict (LRU) each old line before the copy
// reaches it, so nothing is stale even without a sync.
func TestStaleOnlyWhatWasCached(t *testing.T) {
	bug := runDemo(t, PolicyCacheableNoSync, map[string]string{"buffer": "24KiB"})
	{
		v, _ := bug.Metric("stale_bytes")
		require.EqualValues(t, 24<<10, v, "24KiB: stale_bytes = %v, want %d", v, 24<<10)
	}
	bug = runDemo(t, PolicyCacheableNoSync, map[string]string{"buffer": "64KiB"})
	{
		v, _ := bug.Metric("stale_bytes")
		require.EqualValues(t, 0, v, "64KiB: stale_bytes = %v, want 0", v)
	}
	{
		v, _ := bug.Metric("l1d_cache_refill")
		require.EqualValues(t, 1024, v, "64KiB: refills = %v, want 1024 (every line of the copy missed)", v)
	}
}

func TestTimelineEndState(t *testing.T) {
	for _, pol := range []string{PolicyNoncacheable, PolicyCacheableSync, PolicyCacheableNoSync} {
		r := runDemo(t, pol, map[string]string{"buffer": "4KiB", "preset": "neoverse-n1"})
		tl := r.Timeline
		var st timeline.State
		tl.StateAt(len(tl.Events), &st)
		want := timeline.CellCopied
		if pol == PolicyCacheableNoSync {
			want = timeline.CellStale
		}
		for i, c := range st.Cells[0] {
			require.EqualValues(t, want, c.State, "%s: cell %d = %v by %s, want %v by dev", pol, i, c.State, tl.WriterName(c.Writer), want)
			require.EqualValues(t, "dev", tl.WriterName(c.Writer), "%s: cell %d = %v by %s, want %v by dev", pol, i, c.State, tl.WriterName(c.Writer), want)
		}
		assert.EqualValues(t, 64, st.Values[1], "%s: cpu pointer at end = %d, want 64", pol, st.Values[1])
		marks := 0
		for _, e := range tl.Events {
			if e.Kind == timeline.EvMark {
				marks++
			}
		}
		assert.Equal(t, len(r.Narration), marks, "%s: %d marks for %d narration steps", pol, marks, len(r.Narration))
		assert.False(t, marks < 3, "%s: %d marks for %d narration steps", pol, marks, len(r.Narration))
		assert.NotEqualValues(t, 0, len(tl.Phases), "%s: phases %d, end %v vs %v", pol, len(tl.Phases), tl.End, r.End)
		assert.EqualValues(t, r.End, tl.End, "%s: phases %d, end %v vs %v", pol, len(tl.Phases), tl.End, r.End)
	}
}

func TestBadInput(t *testing.T) {
	s := New()
	p, _ := s.Spec().Defaults()
	{
		_, err := s.Run(t.Context(), p, "nope", nil)
		require.Error(t, err, "unknown policy accepted")
	}
	p["preset"] = scenario.Value{Text: "pdp11"}
	{
		_, err := s.Run(t.Context(), p, PolicyNoncacheable, nil)
		require.Error(t, err, "unknown preset accepted")
	}
	p, _ = s.Spec().Defaults()
	p["zz"], p["colour"] = scenario.Value{}, scenario.Value{}
	for i := 0; i < 5; i++ {
		{
			_, err := s.Run(t.Context(), p, PolicyNoncacheable, nil)
			require.Error(t, err, "unknown parameters: %v", err)
			require.EqualValues(t, "colour: unknown parameter for scenario demo", err.Error(), "unknown parameters: %v", err)
		}
	}
	p, _ = s.Spec().Defaults()
	p["buffer"] = scenario.Value{Num: -5}
	{
		_, err := s.Run(t.Context(), p, PolicyNoncacheable, nil)
		require.Error(t, err, "negative buffer accepted")
	}
}
