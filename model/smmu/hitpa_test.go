package smmu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
)

// A hit's PA and route come from the entry it hit: with translated and
// cached-bypass entries competing for a small TLB (so entries are evicted
// and refilled), every hit translates as the tables (or the identity)
// say, and the TBU's count of entries per StreamID bucket matches the
// valid entries.
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
	var spaces [64]int32
	for e := 0; e < tbu.TLB().Sets()*tbu.TLB().Ways(); e++ {
		if ent, ok := tbu.TLB().Entry(e); ok {
			spaces[spaceBucket(ent.Space)]++
		}
	}
	assert.Equal(t, spaces, tbu.spaces, "valid entries per StreamID bucket")
}

// The TBU's lookup shortcuts (a master's last hit, a stream with no entry
// held) find what TLB.Lookup finds and count and touch the same: a
// reference TLB of the same shape, looked up for every transaction and
// filled with what the TBU filled, holds the same entries after every one
// (so the LRU state agrees too: a small TLB evicts often).
func TestLookupShortcutsMatchLookup(t *testing.T) {
	for _, acr := range []uint32{0, ACRSMTNMBTLBEN} { // unmatched streams never or always cached
		s, tbu, b := rig(t, testConfig(), acr, 0)
		ref, err := mmu.NewTLB("ref", s.cfg.tlbConfig())
		require.NoError(t, err)
		rng := sim.NewRNG(5)
		at := sim.Time(0)
		for i := 0; i < 3000; i++ {
			// The unmatched stream 2 (bypass) keeps to a few pages, mostly
			// the one it used last; the translated stream 1 to 16 pages.
			x := Txn{SID: 2, Addr: 0x4000_0000 + rng.Uint64n(3)<<12 + rng.Uint64n(64)*64, Bytes: 64, Agent: 1}
			if rng.Uint64n(2) == 0 {
				x.SID, x.Addr, x.Agent = 1, 0x100000+rng.Uint64n(16)<<12+rng.Uint64n(64)*64, 2
			}
			e := ref.Lookup(x.SID, x.Addr)
			o := b.access(t, tbu, at, x)
			require.Equal(t, e >= 0, o.Hit, "acr %#x txn %d", acr, i)
			if o.Fill >= 0 {
				ent, ok := tbu.TLB().Entry(o.Fill)
				require.True(t, ok)
				ref.Fill(x.SID, x.Addr, ent, x.Agent)
			}
			require.Equal(t, ref.Entries(), tbu.TLB().Entries(), "acr %#x txn %d", acr, i)
			at = o.Done
		}
		assert.Equal(t, ref.Stats, tbu.TLB().Stats, "acr %#x", acr)
		assert.Greater(t, tbu.TLB().Stats.Evictions, uint64(100), "acr %#x", acr)
		assert.Greater(t, tbu.TLB().Stats.Hits, uint64(500), "acr %#x", acr)
	}
}
