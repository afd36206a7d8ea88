package smmu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/sim"
)

// A hit's PA and route come from the TBU's copy of each entry's PA-VA
// and level, kept at every fill: with translated and cached-bypass
// entries competing for a small TLB (so entries are evicted and
// refilled), every hit translates as the tables (or the identity) say,
// and the copy matches every valid entry.
func TestHitsUseTheFilledEntry(t *testing.T) {
	_, tbu, b := rig(t, testConfig(), ACRSMTNMBTLBEN, 0)
	rng := sim.NewRNG(3)
	at := sim.Time(0)
	hits := 0
	for i := 0; i < 400; i++ {
		x := Txn{SID: 2, Addr: 0x4000_0000 + rng.Uint64n(16)<<12, Bytes: 64, Tag: int32(i)} // unmatched: bypass
		wantPA, wantRoute := x.Addr, RouteUnmatched
		if rng.Uint64n(2) == 0 { // translated: 0x100000.. maps to 0x800000..
			x.SID, x.Addr = 1, 0x100000+rng.Uint64n(16)<<12+rng.Uint64n(64)*64 // the 64 KiB mapped
			wantPA, wantRoute = x.Addr-0x100000+0x800000, RouteTranslate
		}
		o := b.access(t, tbu, at, x)
		require.False(t, o.Aborted)
		assert.Equal(t, wantPA, o.PA, "txn %d (hit %v)", i, o.Hit)
		assert.Equal(t, wantRoute, o.Route, "txn %d", i)
		if o.Hit {
			hits++
		}
		at = o.Done
	}
	assert.Greater(t, hits, 50)
	assert.Greater(t, tbu.TLB().Stats.Evictions, uint64(50))
	for e := range tbu.offset {
		if ent, ok := tbu.TLB().Entry(e); ok {
			assert.Equal(t, ent.PA-ent.VA, tbu.offset[e], "entry %d", e)
			assert.Equal(t, ent.Level, tbu.level[e], "entry %d", e)
		}
	}
}
