package sgsync

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// The narration of a bug policy ends on its consequence: the last step says
// the CPU read stale data, and how much (the stale_bytes check).
func TestSkipUnmapNarrationEndsOnTheStaleData(t *testing.T) {
	s := New()
	p, err := s.Spec().Defaults()
	require.NoError(t, err)
	require.NoError(t, s.Spec().Set(p, "total", "256KiB"))
	require.NoError(t, s.Spec().Set(p, "iterations", "4"))
	res, err := s.Run(t.Context(), p, PolicySkipUnmap, nil)
	require.NoError(t, err)
	stale, _ := res.Metric("stale_bytes")
	for _, c := range res.Checks {
		if c.Name == "stale_bytes" {
			stale = c.Value
		}
	}
	require.Positive(t, stale, "the skip-unmap bug read no stale data")
	last := res.Narration[len(res.Narration)-1].Text
	assert.Contains(t, last, "the CPU read "+scenario.FormatBytes(int64(stale))+" of stale data")

	ok, err := s.Run(t.Context(), p, PolicyBatched, nil)
	require.NoError(t, err)
	assert.False(t, strings.Contains(ok.Narration[len(ok.Narration)-1].Text, "stale data"), "a correct policy's narration speaks of stale data")
}
