package mmu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/sim"
)

// a53 entry sizes: micro TLB 4K/64K/1M, main TLB up to 512M (a 1 GiB
// block is split), as the preset gives them.
var (
	a53L1 = TLBConfig{Entries: 10, Ways: 10, Sizes: Sizes(4*KiB, 64*KiB, 1*MiB)}
	a53L2 = TLBConfig{Entries: 512, Ways: 4, Sizes: Sizes(4*KiB, 64*KiB, 1*MiB, 2*MiB, 512*MiB), Hit: 3 * sim.Nanosecond}
)

func TestTLBStoresLeavesInTheSizesItHolds(t *testing.T) {
	cases := []struct {
		name      string
		cfg       TLBConfig
		leaf      TLBEntry
		va        uint64
		wantVA    uint64
		wantBytes uint64
	}{
		{"1G block in a53 L2 splits to 512M", a53L2, TLBEntry{VA: 0x4000_0000, PA: 0x8000_0000, Bytes: GiB}, 0x6000_1234, 0x6000_0000, 512 * MiB},
		{"1G block in a53 L1 is 1M", a53L1, TLBEntry{VA: 0x4000_0000, PA: 0x8000_0000, Bytes: GiB}, 0x4012_3456, 0x4010_0000, MiB},
		{"64K run in a TLB with 64K entries", a53L1, TLBEntry{VA: 0x1_0000, PA: 0x20_0000, Bytes: 64 * KiB}, 0x1_5123, 0x1_0000, 64 * KiB},
		{"64K run without 64K entries is 4K", TLBConfig{Entries: 8, Ways: 8, Sizes: Sizes(4*KiB, 2*MiB)},
			TLBEntry{VA: 0x1_0000, PA: 0x20_0000, Bytes: 64 * KiB}, 0x1_5123, 0x1_5000, 4 * KiB},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tl, err := NewTLB("t", c.cfg)
			require.NoError(t, err)
			e, _, _ := tl.Fill(1, c.va, c.leaf, 7)
			got, ok := tl.Entry(e)
			require.True(t, ok)
			assert.Equal(t, c.wantVA, got.VA)
			assert.Equal(t, c.wantBytes, got.Bytes)
			assert.Equal(t, c.leaf.PA+(c.wantVA-c.leaf.VA), got.PA)
			assert.Equal(t, uint8(7), got.Owner)
			assert.Equal(t, e, tl.Lookup(1, c.va), "the filled entry translates va")
			assert.Equal(t, e, tl.Lookup(1, c.wantVA+c.wantBytes-1), "and the last byte of the entry")
			assert.Equal(t, -1, tl.Lookup(1, c.wantVA+c.wantBytes), "not the byte after it")
			assert.Equal(t, -1, tl.Lookup(2, c.va), "nor another address space")
		})
	}
}

func TestTLBEvictsLRUAndInvalidates(t *testing.T) {
	tl, err := NewTLB("t", TLBConfig{Entries: 2, Ways: 2, Sizes: Sizes(4*KiB, 2*MiB)})
	require.NoError(t, err)
	page := func(i uint64) TLBEntry {
		return TLBEntry{VA: i * PageSize, PA: 0x100_0000 + i*PageSize, Bytes: PageSize}
	}
	tl.Fill(0, 0, page(0), 1)
	tl.Fill(0, PageSize, page(1), 1)
	require.GreaterOrEqual(t, tl.Lookup(0, 0), 0) // page 0 is now the most recent
	_, victim, evicted := tl.Fill(0, 2*PageSize, page(2), 1)
	require.True(t, evicted)
	assert.Equal(t, uint64(PageSize), victim.VA, "the least recently used entry leaves")
	block := TLBEntry{VA: 0x20_0000, PA: 0x40_0000, Bytes: 2 * MiB}
	tl.Fill(0, 0x20_0000, block, 1)
	assert.Equal(t, TLBStats{Lookups: 1, Hits: 1, Refills: 4, Evictions: 2}, tl.Stats)
	tl.InvalidateVA(0, 0x21_2345)
	assert.Equal(t, -1, tl.Lookup(0, 0x20_0000), "TLBI by any VA in the block removes it")
	assert.Len(t, tl.Entries(), 1)
	g := tl.Gen()
	tl.InvalidateAll()
	assert.Empty(t, tl.Entries())
	assert.Greater(t, tl.Gen(), g)
}

func TestTLBConfigErrorsNameTheField(t *testing.T) {
	for _, c := range []struct {
		cfg  TLBConfig
		want string
	}{
		{TLBConfig{Entries: 0, Ways: 1, Sizes: Sizes(4 * KiB)}, "t.entries"},
		{TLBConfig{Entries: 10, Ways: 3, Sizes: Sizes(4 * KiB)}, "t.ways"},
		{TLBConfig{Entries: 12, Ways: 4, Sizes: Sizes(4 * KiB)}, "3 sets"},
		{TLBConfig{Entries: 8, Ways: 8, Sizes: Sizes(2 * MiB)}, "t.sizes"},
		{TLBConfig{Entries: 8, Ways: 8, Sizes: Sizes(4*KiB, 4*GiB)}, "t.sizes"},
		{TLBConfig{Entries: 8, Ways: 8, Sizes: Sizes(4 * KiB), Hit: -1}, "t.hit"},
	} {
		_, err := NewTLB("t", c.cfg)
		require.Error(t, err)
		assert.Contains(t, err.Error(), c.want)
	}
}

// core returns an MMU over a fresh kernel space with the a53 TLBs, its
// core port and a TRBE port (one-entry L1 TLB).
func coreMMU(t *testing.T, walk Config) (*KernelSpace, *MMU, *Requester, *Requester, *FixedPort) {
	k, m, _ := kernel(t, 256*MiB)
	port := &FixedPort{Mem: m, Read: 50 * sim.Nanosecond}
	u, err := NewMMU(a53L2, walk, k.PT, port, 1)
	require.NoError(t, err)
	core, err := u.Requester("l1d_tlb", hwevent.Core, a53L1, true)
	require.NoError(t, err)
	trbe, err := u.Requester("trbe_tlb", 9, TLBConfig{Entries: 1, Ways: 1, Sizes: a53L2.Sizes}, false)
	require.NoError(t, err)
	return k, u, core, trbe, port
}

// Eight pages vmapped with 4 KiB PTEs, read once each by the core, then
// by TRBE, then TRBE writes eight pages nobody has touched: every count is
// by hand.
func TestWalkAndRefillCountsPerRequester(t *testing.T) {
	k, u, core, trbe, port := coreMMU(t, DefaultConfig())
	a, _, err := k.Vmap(run(0x100_0000, 8), PageKernel, VmapMainline)
	require.NoError(t, err)
	b, _, err := k.Vmap(run(0x200_0000, 8), PageKernel, VmapMainline)
	require.NoError(t, err)
	for i := uint64(0); i < 8; i++ {
		tr, err := core.Translate(a.VA+i*PageSize+8, false)
		require.NoError(t, err)
		assert.Equal(t, 0x100_0000+i*PageSize+8, tr.PA)
		assert.Equal(t, uint64(PageSize-8), tr.Contig)
	}
	assert.Equal(t, uint64(8), core.L1.Stats.Refills, "l1d_tlb_refill: one per page")
	assert.Equal(t, uint64(8), u.L2.Stats.Refills, "l2d_tlb_refill: one per walk")
	assert.Equal(t, uint64(8), core.Stats.DTLBWalks, "dtlb_walk: the core's own misses")
	assert.Equal(t, uint64(32), port.Reads, "no walk cache: four descriptor reads per walk")

	for i := uint64(0); i < 8; i++ {
		_, err := trbe.Translate(a.VA+i*PageSize, true)
		require.NoError(t, err)
	}
	assert.Equal(t, uint64(8), trbe.L1.Stats.Refills, "TRBE's one entry refills per page, from L2")
	assert.Equal(t, uint64(0), trbe.Stats.Walks, "the L2 TLB held every page")
	assert.Equal(t, uint64(8), u.L2.Stats.Refills)

	for i := uint64(0); i < 8; i++ {
		_, err := trbe.Translate(b.VA+i*PageSize, true)
		require.NoError(t, err)
	}
	assert.Equal(t, uint64(8), trbe.Stats.Walks)
	assert.Equal(t, uint64(0), trbe.Stats.DTLBWalks, "a trace unit's walks are never dtlb_walk")
	assert.Equal(t, uint64(8), core.Stats.DTLBWalks, "and not the core's either")
	assert.Equal(t, uint64(16), u.L2.Stats.Refills, "but its L2 allocations are l2d_tlb_refill")
	assert.Equal(t, uint64(8), core.L1.Stats.Refills, "nor refills of the core's L1 DTLB")
	owners := map[uint8]int{}
	for _, s := range u.L2.Entries() {
		owners[s.Owner]++
	}
	assert.Equal(t, map[uint8]int{hwevent.Core: 8, 9: 8}, owners, "L2 entries remember who allocated them")
}

// The linear map is block-mapped (2 MiB blocks: 256 MiB of RAM is too
// little for a 1 GiB one): a 4 MiB buffer in it costs two walks and, with
// 1 MiB micro-TLB entries, four L1 refills.
func TestLinearMapNeedsFewWalks(t *testing.T) {
	k, u, core, _, _ := coreMMU(t, DefaultConfig())
	va, err := k.LinearVA(0x40_0000)
	require.NoError(t, err)
	for off := uint64(0); off < 4*MiB; off += PageSize {
		_, err := core.Translate(va+off, false)
		require.NoError(t, err)
	}
	assert.Equal(t, uint64(2), core.Stats.DTLBWalks)
	assert.Equal(t, uint64(2), u.L2.Stats.Refills)
	assert.Equal(t, uint64(4), core.L1.Stats.Refills)
}

func TestWalkCacheShortensWalks(t *testing.T) {
	walk := Config{WalkCache: [3]WalkCacheConfig{{Entries: 4, Ways: 4}, {Entries: 4, Ways: 4}, {Entries: 16, Ways: 4}}}
	k, _, core, _, port := coreMMU(t, walk)
	a, _, err := k.Vmap(run(0x100_0000, 8), PageKernel, VmapMainline)
	require.NoError(t, err)
	for i := uint64(0); i < 8; i++ {
		_, err := core.Translate(a.VA+i*PageSize, false)
		require.NoError(t, err)
	}
	assert.Equal(t, uint64(8), core.Stats.DTLBWalks)
	assert.Equal(t, uint64(4+7), port.Reads, "the first walk reads four levels, the rest only the PTE")
}

func TestTranslateFaults(t *testing.T) {
	k, _, core, _, _ := coreMMU(t, DefaultConfig())
	_, err := core.Translate(VmallocStart+64*MiB, false)
	require.Error(t, err)
	var f *Fault
	require.ErrorAs(t, err, &f)
	assert.Equal(t, uint64(VmallocStart+64*MiB), f.VA)
	a, _, err := k.Vmap(run(0x100_0000, 1), Prot{ReadOnly: true}, VmapMainline)
	require.NoError(t, err)
	_, err = core.Translate(a.VA, true)
	require.ErrorContains(t, err, "permission fault")
	assert.Equal(t, uint64(2), core.Stats.Faults)
}

func TestInvalidateReachesEveryLevel(t *testing.T) {
	k, u, core, _, port := coreMMU(t, Config{WalkCache: [3]WalkCacheConfig{{Entries: 4, Ways: 4}, {Entries: 4, Ways: 4}, {Entries: 4, Ways: 4}}})
	a, _, err := k.Vmap(run(0x100_0000, 1), PageKernel, VmapMainline)
	require.NoError(t, err)
	_, err = core.Translate(a.VA, false)
	require.NoError(t, err)
	g := core.Gen()
	core.InvalidateVA(a.VA)
	assert.NotEqual(t, g, core.Gen())
	reads := port.Reads
	_, err = core.Translate(a.VA, false)
	require.NoError(t, err)
	assert.Equal(t, uint64(2), u.L2.Stats.Refills, "the entry was gone from L2 too")
	assert.Equal(t, reads+4, port.Reads, "and the walk caches were emptied")
}

func TestTLBEventsReachTheObserver(t *testing.T) {
	k, u, core, _, _ := coreMMU(t, DefaultConfig())
	log := &hwevent.Log{}
	u.Obs = log
	a, _, err := k.Vmap(run(0x100_0000, 1), PageKernel, VmapMainline)
	require.NoError(t, err)
	core.At = 1000
	_, err = core.Translate(a.VA, false)
	require.NoError(t, err)
	var kinds []string
	for _, e := range log.Events {
		kinds = append(kinds, e.Kind.String()+"/L"+string(rune('1'+e.Level)))
	}
	assert.Equal(t, []string{"tlb-lookup/L1", "tlb-lookup/L2", "walk-step/L1", "walk-step/L2", "walk-step/L3", "walk-step/L4",
		"tlb-fill/L2", "tlb-fill/L1"}, kinds)
	last := log.Events[5]
	assert.Equal(t, 3*50*sim.Nanosecond, last.T-log.Events[2].T, "walk steps are stamped when their read completes")
	assert.Greater(t, log.Events[2].T, sim.Time(1000)+50*sim.Nanosecond, "the walk starts after the lookups that missed")
	assert.Equal(t, log.Events[6].T, last.T, "the L2 fill lands when the walk's last read completes")
	assert.Equal(t, uint64(0x100_0000), log.Events[7].Victim, "a fill carries the entry's PA")
}
