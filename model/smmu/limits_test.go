package smmu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The 129th outstanding write waits for the first write slot to free, and
// the input is in order: a read behind it waits too, though every read
// slot is free.
func TestOutstandingWriteLimit(t *testing.T) {
	cfg := testConfig()
	_, tbu, b := rig(t, cfg, ACRSMTNMBTLBEN, 0)
	warm := b.access(t, tbu, 0, Txn{SID: 2, Addr: 0x4000, Bytes: 64}) // caches the bypass: the writes hit
	at := warm.Done
	for i := 0; i < 129; i++ {
		tbu.Issue(at, Txn{SID: 2, Addr: 0x4000, Bytes: 64, Write: true, Tag: int32(i)})
	}
	tbu.Issue(at, Txn{SID: 2, Addr: 0x4000, Bytes: 64, Tag: 500})
	b.run(t)
	for i := 0; i < 128; i++ {
		require.Equal(t, at, b.outs[int32(i)].Accept, "write %d accepted at once", i+1)
		require.True(t, b.outs[int32(i)].Hit, "write %d", i+1)
	}
	assert.Greater(t, b.outs[128].Accept, at, "the 129th write waits for a slot")
	assert.Equal(t, b.outs[0].Done, b.outs[128].Accept, "it takes the first write slot that frees")
	assert.Equal(t, cfg.Cycles(2)+b.write(), b.outs[0].Done-at, "a write hit: the lookup, then the write response")
	assert.Equal(t, uint64(1), tbu.Stats.OutstandingStalls)
	assert.Equal(t, uint64(129), tbu.Stats.Writes)
	assert.Equal(t, b.outs[128].Accept, b.outs[500].Accept, "in-order input: the read behind it waits too")
}

// Hit-under-miss: while a walk for one page is outstanding, a hit on
// another completes in the hit time, before the miss.
func TestHitUnderMiss(t *testing.T) {
	cfg := testConfig()
	s, tbu, b := rig(t, cfg, 0, 0)
	warm := b.access(t, tbu, 0, Txn{SID: 1, Addr: 0x100000, Bytes: 64}) // walks and fills page 0x100000
	require.True(t, warm.Walked)
	at := warm.Done
	walks := s.TCUStats().Walks
	tbu.Issue(at, Txn{SID: 1, Addr: 0x108000, Bytes: 64, Tag: 1}) // another page: a miss, a walk
	b.until(at + cfg.Cycles(1))
	tbu.Issue(at+cfg.Cycles(1), Txn{SID: 1, Addr: 0x100040, Bytes: 64, Tag: 2}) // the warm page: a hit
	b.run(t)
	miss, hit := b.outs[1], b.outs[2]
	require.False(t, miss.Hit)
	require.True(t, miss.Walked)
	assert.Equal(t, walks+1, s.TCUStats().Walks, "one walk for the miss")
	require.True(t, hit.Hit)
	assert.Equal(t, hit.Issue, hit.Accept, "the hit is not held behind the outstanding miss")
	assert.Equal(t, cfg.Cycles(2)+b.read(), hit.Done-hit.Issue, "the hit takes the hit time, not the walk's")
	assert.Less(t, hit.Done, miss.Done, "the hit completes while the walk is outstanding")
	assert.Greater(t, miss.Done-miss.Issue, hit.Done-hit.Issue+cfg.Cycles(2*cfg.LinkCycles))
	assert.Equal(t, uint64(0x800040), hit.PA)
	assert.Equal(t, uint64(0x808000), miss.PA)
}
