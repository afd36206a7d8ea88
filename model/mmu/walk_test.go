package mmu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/sim"
)

// Table frames of a fresh 128 MiB kernel space, in allocation order: the
// root (PA 0), the linear map's level-1 and level-2 tables, then the
// vmalloc area's level-1, level-2 and level-3 tables on the first vmap.
// V = 0xffff_8000_8000_0000 has indices 256, 2, 0, 0.
const (
	root  = 0x0000
	linL2 = 0x2000
	vmL1  = 0x3000
	vmL2  = 0x4000
	vmL3  = 0x5000
)

var caches = Config{WalkCache: [3]WalkCacheConfig{{4, 4}, {4, 4}, {16, 4}}}

func TestWalkReadsOneDescriptorPerLevel(t *testing.T) {
	k, m, _ := kernel(t, ram)
	_, _, err := k.Vmap(run(P, 16), PageKernel, VmapMainline)
	require.NoError(t, err)
	port := &FixedPort{Mem: m, Read: 25 * sim.Nanosecond, Logging: true}
	w, err := NewWalker(DefaultConfig(), k.PT, port)
	require.NoError(t, err)
	for _, c := range []struct {
		name  string
		va    uint64
		reads []uint64
		ok    bool
		level int // leaf or fault level
	}{
		{"linear map 2M block", LinearBase + 5*MiB, []uint64{root, 0x1000, linL2 + 2*8}, true, 2},
		{"vmap 4K page", V + 3*PageSize, []uint64{root + 256*8, vmL1 + 2*8, vmL2, vmL3 + 3*8}, true, 3},
		{"hole in a level-3 table", V + 64*KiB, []uint64{root + 256*8, vmL1 + 2*8, vmL2, vmL3 + 16*8}, false, 3},
		{"hole at level 1", V + GiB, []uint64{root + 256*8, vmL1 + 3*8}, false, 1},
		{"user half on the kernel table", 0x1000, nil, false, 0},
	} {
		port.Log = nil
		r := w.Walk(c.va)
		assert.Equal(t, c.reads, port.Log, c.name)
		assert.Equal(t, len(c.reads), r.Reads, c.name)
		assert.Equal(t, sim.Time(len(c.reads))*25*sim.Nanosecond, r.Cost, c.name)
		require.Equal(t, c.ok, r.OK, c.name)
		if c.ok {
			assert.Equal(t, c.level, r.Leaf.Level, c.name)
		} else {
			assert.Equal(t, c.level, r.Fault.Level, c.name)
			assert.Equal(t, c.va, r.Fault.VA, c.name)
		}
	}
	assert.Equal(t, uint64(5), w.Stats.Walks)
	assert.Equal(t, uint64(3), w.Stats.Faults)
	assert.Equal(t, uint64(13), w.Stats.Reads)
}

func TestTraceRecordsEachLevelAndWalkCacheHits(t *testing.T) {
	k, m, _ := kernel(t, ram)
	_, _, err := k.Vmap(run(P, 16), PageKernel, VmapMainline)
	require.NoError(t, err)
	w, err := NewWalker(caches, k.PT, &FixedPort{Mem: m, Read: 10 * sim.Nanosecond})
	require.NoError(t, err)
	d := func(pa uint64) uint64 { v, _ := m.Read64(pa); return v }
	ns10 := 10 * sim.Nanosecond
	r, steps := w.Trace(V, nil)
	require.True(t, r.OK)
	assert.Equal(t, []Step{
		{0, root + 256*8, d(root + 256*8), Table, false, ns10},
		{1, vmL1 + 2*8, d(vmL1 + 2*8), Table, false, ns10},
		{2, vmL2, d(vmL2), Table, false, ns10},
		{3, vmL3, d(vmL3), Page, false, ns10},
	}, steps)
	assert.Equal(t, uint64(vmL3|3), d(vmL2), "a table descriptor points at the level-3 frame")
	r, steps = w.Trace(V+PageSize, steps[:0])
	require.True(t, r.OK)
	assert.Equal(t, []Step{
		{2, vmL2, d(vmL2), Table, true, 0},
		{3, vmL3 + 8, d(vmL3 + 8), Page, false, ns10},
	}, steps)
	assert.Equal(t, ns10, r.Cost)
	assert.Equal(t, [3]uint64{0, 0, 1}, w.Stats.CacheHits)
}

// A hot walk cache removes descriptor reads: a 4 MiB buffer of 4K PTEs
// walked page by page reads 4 descriptors for the first page, 2 for the
// first page of the second 2 MiB (level-1 hit) and 1 for every other page.
func TestWalkCacheRemovesReads(t *testing.T) {
	k, m, _ := kernel(t, ram)
	a, _, err := k.Vmap(run(P2, 1024), PageKernel, VmapMainline)
	require.NoError(t, err)
	for _, c := range []struct {
		cfg   Config
		reads uint64
		hits  [3]uint64
	}{
		{DefaultConfig(), 4 * 1024, [3]uint64{}},
		{caches, 4 + 511 + 2 + 511, [3]uint64{0, 1, 1022}},
	} {
		port := &FixedPort{Mem: m}
		w, err := NewWalker(c.cfg, k.PT, port)
		require.NoError(t, err)
		for i := uint64(0); i < 1024; i++ {
			require.True(t, w.Walk(a.VA+i*PageSize).OK)
		}
		assert.Equal(t, c.reads, w.Stats.Reads)
		assert.Equal(t, c.reads, port.Reads)
		assert.Equal(t, c.hits, w.Stats.CacheHits)
		w.Invalidate()
		r := w.Walk(a.VA)
		assert.Equal(t, 4, r.Reads, "after TLBI the walk starts at the root")
	}
}

// Freeing a table (a block replacing an empty level-3 table) must not
// leave the walk cache pointing at the freed frame.
func TestWalkCacheDropsFreedTables(t *testing.T) {
	k, _, b := kernel(t, ram)
	a, _, err := k.Vmap(run(P, 1), PageKernel, VmapMainline)
	require.NoError(t, err)
	w, err := NewWalker(caches, k.PT, nil)
	require.NoError(t, err)
	require.True(t, w.Walk(a.VA).OK)
	_, err = k.Vunmap(a)
	require.NoError(t, err)
	free := b.FreePages()
	st, err := k.PT.MapRange(a.VA, P2, BlockL2, PageKernel, Size2M)
	require.NoError(t, err)
	assert.Equal(t, 1, st.Blocks2M)
	assert.Equal(t, free+1, b.FreePages(), "the empty level-3 table went back to the allocator")
	r := w.Walk(a.VA + 5*PageSize)
	require.True(t, r.OK, "%v", &r.Fault)
	assert.Equal(t, Leaf{VA: a.VA, PA: P2, Bytes: BlockL2, Level: 2, Prot: PageKernel}, r.Leaf)
	assert.Equal(t, 3, r.Reads)
}

// Invalid and reserved descriptors, and table pointers to frames that are
// not tables, end in a translation fault with the level, never a panic.
func TestCorruptDescriptorsFault(t *testing.T) {
	k, m, _ := kernel(t, ram)
	_, _, err := k.Vmap(run(P, 16), PageKernel, VmapMainline)
	require.NoError(t, err)
	w, _ := NewWalker(DefaultConfig(), k.PT, nil)

	m.Write64(vmL3+2*8, P|dValid) // bits[1:0]=01 at level 3: reserved
	r := w.Walk(V + 2*PageSize)
	require.False(t, r.OK)
	assert.Equal(t, Fault{VA: V + 2*PageSize, Level: 3, DescAddr: vmL3 + 2*8, Desc: P | dValid}, r.Fault)
	assert.Contains(t, r.Fault.Error(), "level 3")
	assert.Contains(t, r.Fault.Error(), "reserved")

	m.Write64(vmL2, 64*MiB|dValid|dTable) // points at a data frame
	r = w.Walk(V)
	require.False(t, r.OK)
	assert.Equal(t, 3, r.Fault.Level)
	assert.Equal(t, uint64(64*MiB), r.Fault.DescAddr)

	m.Write64(root+256*8, 0x4000|dValid) // a block at level 0: not allowed with 4K pages
	r = w.Walk(V)
	require.False(t, r.OK)
	assert.Equal(t, 0, r.Fault.Level)
	_, err = k.PT.Lookup(V)
	var f *Fault
	require.ErrorAs(t, err, &f)
	assert.Equal(t, 0, f.Level)
}

func TestConfigValidation(t *testing.T) {
	for _, c := range []struct {
		wc  WalkCacheConfig
		msg string
	}{
		{WalkCacheConfig{-1, 1}, "l1.entries"},
		{WalkCacheConfig{8, 3}, "l1.ways"},
		{WalkCacheConfig{12, 4}, "not a power of two"},
		{WalkCacheConfig{8192, 4}, "0..4096"},
	} {
		cfg := DefaultConfig()
		cfg.WalkCache[1] = c.wc
		_, err := NewWalker(cfg, nil, nil)
		assert.ErrorContains(t, err, c.msg)
	}
	_, err := NewWalker(DefaultConfig(), nil, nil)
	assert.ErrorContains(t, err, "no page table")
}
