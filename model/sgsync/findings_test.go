package sgsync

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Without the unmap, a bounced list's data stays in the SWIOTLB slots: the
// CPU reads its buffer as it was before the DMA. Flagged in every
// direction the device writes, with the buffer's address; with the unmap,
// nothing.
func TestSWIOTLBSkipUnmapIsFlagged(t *testing.T) {
	for _, dir := range []string{"from-device", "bidirectional", "to-device"} {
		for _, mapping := range []string{"streaming", "persistent"} {
			kv := with(small, "path", "swiotlb", "direction", dir, "mapping", mapping)
			r := runP(t, PolicySkipUnmap, kv...)
			if dir == "to-device" {
				assert.Zero(t, metric(t, r, "stale_bytes"), "%v: the device only read", kv)
				continue
			}
			// Every byte of the list, in each of the 3 transfers.
			assert.Equal(t, float64(3*64<<10), metric(t, r, "stale_bytes"), "%v", kv)
			require.NotEmpty(t, r.Hazards, "%v", kv)
			h := r.Hazards[0]
			assert.Contains(t, h.Cause, "SWIOTLB bounce slot", "%v", kv)
			assert.Equal(t, 0, h.Grid, "%v: located in the physical grid", kv)
			// The address is the list's first entry (not the slot).
			res, err := setup(mustParse(t, kv...), policyOf(PolicySkipUnmap), false)
			require.NoError(t, err)
			assert.Equal(t, res.list.buf.PA(res.list.entries[0].off), h.Addr, "%v", kv)

			ok := runP(t, PolicyBatched, kv...)
			assert.Zero(t, metric(t, ok, "stale_bytes"), "%v with the unmap", kv)
			assert.Empty(t, ok.Hazards, "%v with the unmap", kv)
		}
	}
}

func mustParse(t *testing.T, kv ...string) config {
	t.Helper()
	c, err := parse(New().Spec(), params(t, kv...))
	require.NoError(t, err)
	return c
}

// stale_bytes counts distinct bytes per transfer: never more than the list
// times the iterations, even when the CPU reads every line twice per
// iteration (cpu=writes reads, then writes, then reads back), and the
// extrapolated figure equals a full simulation.
func TestStaleBytesAreDistinctPerTransfer(t *testing.T) {
	for _, extra := range [][]string{
		{"cpu", "writes"},
		{"cpu", "reads"},
		{"cpu", "writes", "entry-offset", "40", "entry", "1000", "scatter", "false"},
		{"cpu", "writes", "path", "swiotlb"},
	} {
		kv := with(with(small, "iterations", "10"), extra...)
		r := runP(t, PolicySkipUnmap, kv...)
		stale, lines := metric(t, r, "stale_bytes"), metric(t, r, "stale_lines_read")
		total := float64(64 << 10)
		assert.Greater(t, stale, 0.0, "%v", kv)
		assert.LessOrEqual(t, stale, total*10, "%v: at most the list per transfer", kv)
		if extra[1] == "writes" && len(extra) == 2 {
			assert.Greater(t, lines*64, stale, "%v: the CPU read lines more than once", kv)
		}
		c := mustParse(t, kv...)
		c.fullSim = true
		full, err := runConfig(c, PolicySkipUnmap)
		require.NoError(t, err)
		assert.Equal(t, metric(t, full, "stale_bytes"), stale, "%v: extrapolation", kv)
	}
	var label string
	for _, m := range runP(t, PolicySkipUnmap, small...).Checks {
		if m.Name == "stale_bytes" {
			label = m.Label
		}
	}
	assert.Contains(t, label, "distinct bytes")
	assert.Contains(t, label, "per transfer")
}
