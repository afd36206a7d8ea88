package mmu

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/sim"
)

// A requester that remembers its last L1 hit or fill translates exactly as
// one that looks every address up: the same results, counts, TLB contents
// and LRU order, over pages, coalesced groups, 64 KiB runs and 2 MiB
// blocks, with fills and invalidations in between; a one-entry L1 TLB
// (whose misses the memo rules out without a lookup) among them; and runs
// of hits counted at once (Requester.Hits) count what translating each
// would.
func TestHitMemoChangesNothing(t *testing.T) {
	type side struct {
		u     *MMU
		reqs  []*Requester
		areas []Leaf
	}
	build := func() side {
		k, _, _ := kernel(t, 256*MiB)
		r := sim.NewRNG(5)
		var pages []uint64
		for len(pages) < 2048 { // scattered, consecutive and 64 KiB-aligned runs
			base, n := uint64(16+r.Intn(1<<12))*PageSize, 1+r.Intn(9)
			if r.Intn(3) == 0 {
				base, n = base&^(ContigSize-1), ContigPTEs
			}
			pages = append(pages, run(base, n)...)
		}
		small, _, err := k.Vmap(pages, PageKernel, VmapBatch)
		require.NoError(t, err)
		big, _, err := k.Vmap(run(128*MiB, 1024), PageKernel, VmapBatch) // 2 MiB blocks
		require.NoError(t, err)
		areas := append(k.PT.Leaves(small.VA, small.Bytes), k.PT.Leaves(big.VA, big.Bytes)...)
		u, err := NewMMU(a76L2, DefaultConfig(), k.PT, &FixedPort{Mem: k.PT.mem, Read: sim.Nanosecond}, 1)
		require.NoError(t, err)
		core, err := u.Requester("l1d_tlb", hwevent.Core, TLBConfig{Entries: 8, Ways: 8, Sizes: Sizes(4*KiB, 16*KiB, 64*KiB, 2*MiB), Coalesce: 4}, true)
		require.NoError(t, err)
		trbe, err := u.Requester("trbe_tlb", 9, TLBConfig{Entries: 1, Ways: 1, Sizes: a76L2.Sizes}, false)
		require.NoError(t, err)
		// One entry that coalesces: a lookup the memo cannot rule out.
		one, err := u.Requester("one_tlb", 10, TLBConfig{Entries: 1, Ways: 1, Sizes: a76L2.Sizes, Coalesce: 4}, false)
		require.NoError(t, err)
		return side{u, []*Requester{core, trbe, one}, areas}
	}
	a, b := build(), build()
	areas := a.areas
	r := sim.NewRNG(9)
	li, va := 0, areas[0].VA
	runs := 0
	for i := 0; i < 40000; i++ {
		if r.Intn(4) == 0 { // a random leaf, else bursts on from the last address
			li = r.Intn(len(areas))
			va = areas[li].VA + uint64(r.Intn(int(areas[li].Bytes)))&^63
		} else if va += uint64(r.Intn(3)) << (6 + r.Intn(7)); va >= areas[li].VA+areas[li].Bytes {
			li = (li + 1) % len(areas)
			va = areas[li].VA
		}
		k := r.Intn(3)
		switch r.Intn(200) {
		case 0:
			a.reqs[k].InvalidateVA(va)
			b.reqs[k].InvalidateVA(va)
			requireHeld(t, a.reqs[k].L1)
			requireHeld(t, a.u.L2)
			continue
		case 1:
			a.reqs[k].InvalidateAll()
			b.reqs[k].InvalidateAll()
			continue
		}
		if r.Intn(8) == 0 { // a run of hits counted at once, one by one on b
			stride := uint64(64) << r.Intn(8)
			remembers := a.reqs[k].Remembers(va)
			n, c := a.reqs[k].Hits(va, stride, 1+r.Intn(600), true)
			if n > 0 { // (a remembered entry may have changed since: no hits)
				require.True(t, remembers, "Remembers %#x", va)
			}
			for j := 0; j < n; j++ {
				b.reqs[k].hit = hitMemo{}
				tb, eb := b.reqs[k].Translate(va+uint64(j)*stride, true)
				require.NoError(t, eb)
				require.Equal(t, c, tb.Cost, "hit %d of a run from %#x", j, va)
			}
			runs += n
			if n > 0 {
				va += uint64(n-1) * stride
			}
			continue
		}
		b.reqs[k].hit = hitMemo{} // b looks every address up
		ta, ea := a.reqs[k].Translate(va, true)
		tb, eb := b.reqs[k].Translate(va, true)
		require.Equal(t, eb, ea)
		require.Equal(t, tb, ta, "translation %d of %#x", i, va)
	}
	for k := range a.reqs {
		ra, rb := a.reqs[k], b.reqs[k]
		require.Equal(t, rb.Stats, ra.Stats)
		require.Equal(t, rb.L1.Stats, ra.L1.Stats)
		require.Equal(t, rb.L1.ent, ra.L1.ent)
		require.Equal(t, rb.L1.arr.Repl, ra.L1.arr.Repl, "LRU order")
	}
	require.Equal(t, b.u.L2.Stats, a.u.L2.Stats)
	for _, s := range []side{a, b} {
		requireHeld(t, s.u.L2)
		for _, q := range s.reqs {
			requireHeld(t, q.L1)
		}
	}
	require.Positive(t, a.reqs[0].L1.Stats.Hits)
	require.Greater(t, runs, 1000, "hits counted in runs")
	coalesced := 0
	for _, e := range a.u.L2.ent {
		if e.Valid != 0 {
			coalesced++
		}
	}
	require.Positive(t, coalesced, "coalesced entries were used")
}
