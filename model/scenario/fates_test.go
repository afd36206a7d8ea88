package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Fates.Why picks its sentence from the counts: nothing outdated, all
// evicted, all invalidated, a split; and for dirty lines none, all
// discarded, or a split; with the scenario's clauses after a colon.
func TestFatesWhy(t *testing.T) {
	w := FateWords{Device: "the ETR", Sync: "dma_sync_single_for_cpu"}
	for _, c := range []struct {
		f    Fates
		w    FateWords
		want string
	}{
		{Fates{}, FateWords{Device: "the ETR", Clause: "prior=cold"},
			"Nothing the CPU had cached was written by the ETR, so no cached copy went stale and no dirty line lay under its data: prior=cold."},
		{Fates{Stale: 16384, Evicted: 16384}, w,
			"The CPU's own fills evicted all 16,384 stale copies (lines it had cached before the ETR wrote them) before it read them, so every read fetched the new data."},
		{Fates{Stale: 1, Invalidated: 1}, FateWords{Clause: "no wrap"},
			"The sync this policy still does (the sync) invalidated the one stale copy before the CPU read them: no wrap."},
		{Fates{Stale: 10, Evicted: 4, Invalidated: 3, Cached: 3}, w,
			"Of the 10 stale copies the ETR left in the caches, 4 were evicted before being read, 3 were invalidated, 3 were still cached at the end, and none was read."},
		{Fates{Stale: 8, Invalidated: 8}, FateWords{Device: "the device", Sync: "dma_unmap_sg", Dirty: true, DirtyClause: "cpu=reads"},
			"The sync this policy still does (dma_unmap_sg) invalidated all 8 stale copies before the CPU read them; no line was dirty when the device wrote it, so no write-back could destroy its data: cpu=reads."},
		{Fates{Doomed: 256, Discarded: 256}, FateWords{Device: "the device", Dirty: true},
			"DC IVAC dropped all 256 dirty copies the device wrote under without writing them back (it does not clean on this core), so its data survived."},
		{Fates{Doomed: 3, Discarded: 1, Overwritten: 2}, FateWords{Device: "the device"},
			"Of the 3 dirty copies the device wrote under, 1 was dropped by DC IVAC without a write-back, 2 were written again or still cached at the end, and none was written back over new data."},
	} {
		assert.Equal(t, c.want, c.f.Why(c.w))
	}
	assert.Equal(t, "1,234,567", Thousands(1234567))
	assert.Equal(t, "-1,000", Thousands(-1000))
	assert.Equal(t, "999", Thousands(999))
}
