package vmapdemo

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
)

func runWith(t *testing.T, policy string, kv ...string) *scenario.Result {
	t.Helper()
	s := New()
	p, err := s.Spec().Defaults()
	require.NoError(t, err)
	for i := 0; i+1 < len(kv); i += 2 {
		require.NoError(t, s.Spec().Set(p, kv[i], kv[i+1]))
	}
	r, err := s.Run(t.Context(), p, policy, nil)
	require.NoError(t, err)
	return r
}

func metric(t *testing.T, r *scenario.Result, name string) float64 {
	t.Helper()
	v, ok := r.Metric(name)
	require.True(t, ok, name)
	return v
}

// A 64 KiB buffer from one order-4 chunk (watermark 64 KiB): 16 PTEs and
// 16 walks on A; one contiguous-hint run, one TLB entry and one walk on B.
// Every walk is the trace unit's: l2d_tlb_refill counts it, dtlb_walk
// never does.
func TestOneChunkHandCounted(t *testing.T) {
	for _, c := range []struct {
		policy           string
		walks, l4k, l64k float64
	}{{PolicyPTE, 16, 16, 0}, {PolicyLarge, 1, 0, 1}} {
		r := runWith(t, c.policy, ParamBuffer, "64KiB", ParamWatermark, "64KiB")
		assert.Equal(t, 1.0, metric(t, r, "aux_chunks"))
		assert.Equal(t, c.walks, metric(t, r, "trace_walks"), c.policy)
		assert.Equal(t, c.walks, metric(t, r, "l2d_tlb_refill"), c.policy)
		assert.Equal(t, c.walks, metric(t, r, "trace_tlb_refill"), c.policy)
		assert.Equal(t, 0.0, metric(t, r, "dtlb_walk"), c.policy)
		assert.Equal(t, 0.0, metric(t, r, "l1d_tlb_refill"), c.policy)
		assert.Equal(t, c.l4k, metric(t, r, "leaves_4k"), c.policy)
		assert.Equal(t, c.l64k, metric(t, r, "leaves_64k"), c.policy)
		x := r.Timeline.Translation
		require.NotNil(t, x)
		require.Len(t, x.Chunks, 1)
		assert.Equal(t, 4, x.Chunks[0].Order)
		var bytes uint64
		for _, m := range x.Mappings {
			bytes += m.Bytes
			assert.Equal(t, 0, m.Chunk)
			assert.Equal(t, x.Chunks[0].PA+(m.VA-x.Chunks[0].VA), m.PA, "the chunk is mapped in order")
		}
		assert.Equal(t, uint64(64<<10), bytes)
		// The pointer ends at the buffer's end.
		va, ok := x.PointerAt(0, r.End)
		require.True(t, ok)
		assert.Equal(t, x.Chunks[0].VA+64<<10, va)
	}
}

// The default 8 MiB buffer: large mappings take 2 MiB blocks, one walk
// each; 4 KiB PTEs walk once per page, and translation costs more.
func TestDefaultLargeBlocks(t *testing.T) {
	a, b := runWith(t, PolicyPTE), runWith(t, PolicyLarge)
	assert.Equal(t, 2048.0, metric(t, a, "trace_walks"))
	assert.Equal(t, 2048.0, metric(t, a, "leaves_4k"))
	assert.Equal(t, 0.0, metric(t, a, "leaves_2m"))
	assert.Equal(t, 4.0, metric(t, b, "leaves_2m"))
	assert.Equal(t, 4.0, metric(t, b, "trace_walks"))
	assert.Greater(t, metric(t, a, "translate_us"), 10*metric(t, b, "translate_us"))
	// Without PREFER_LARGE the pages are scattered: no large mapping is
	// possible and B is A.
	c := runWith(t, PolicyLarge, ParamPreferLarge, "false", ParamBuffer, "256KiB")
	assert.Equal(t, 64.0, metric(t, c, "leaves_4k"))
	assert.Equal(t, 64.0, metric(t, c, "trace_walks"))
}

// Bad input is an error naming the field.
func TestBadInput(t *testing.T) {
	s := New()
	p, err := s.Spec().Defaults()
	require.NoError(t, err)
	assert.ErrorContains(t, s.Spec().Set(p, ParamBuffer, "4GiB"), ParamBuffer)
	assert.ErrorContains(t, s.Spec().Set(p, ParamRate, "0"), ParamRate)
	_, err = s.Run(t.Context(), p, "nope", nil)
	assert.ErrorContains(t, err, "policy")
}

// The narration walks through the run, not only its start and end: the
// first write's walk and how far one entry reaches, then the walks at
// halfway, each at the moment it describes.
func TestNarrationStepsThroughTheWrite(t *testing.T) {
	for _, c := range []struct {
		policy, perWalk string
	}{{"pte-4k", "one per 4KiB"}, {"large", "one per 2MiB"}} {
		r := runWith(t, c.policy)
		require.Len(t, r.Narration, 4, c.policy)
		for i := 1; i < len(r.Narration); i++ {
			assert.Greater(t, r.Narration[i].T, r.Narration[i-1].T, "%s step %d", c.policy, i)
		}
		assert.Equal(t, "The first write walks", r.Narration[1].Title)
		assert.Contains(t, r.Narration[2].Text, c.perWalk, c.policy)
		assert.Less(t, r.Narration[2].T, r.End, c.policy)
	}
}
