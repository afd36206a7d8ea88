package mem

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/sim"
)

func TestBuddySplitMergeAndCounts(t *testing.T) {
	b, err := NewBuddy(8<<20, 10) // two order-10 blocks
	require.NoError(t, err)
	require.EqualValues(t, 2, b.FreeBlocks(10), "fresh: %d order-10 blocks, %d pages", b.FreeBlocks(10), b.FreePages())
	require.EqualValues(t, 2048, b.FreePages(), "fresh: %d order-10 blocks, %d pages", b.FreeBlocks(10), b.FreePages())
	c, err := b.Alloc(0)
	require.NoError(t, err, "Alloc(0) = %+v, %v; want pfn 0", c, err)
	require.EqualValues(t, 0, c.PFN, "Alloc(0) = %+v, %v; want pfn 0", c, err)
	// Splitting one order-10 block leaves one free block of each order 0..9.
	for o := 0; o < 10; o++ {
		require.EqualValues(t, 1, b.FreeBlocks(o), "after split: %d free blocks of order %d, want 1", b.FreeBlocks(o), o)
	}
	require.NoError(t, b.Free(c))
	require.EqualValues(t, 2, b.FreeBlocks(10), "after merge: %d order-10 blocks", b.FreeBlocks(10))
	require.EqualValues(t, 2048, b.FreePages(), "after merge: %d order-10 blocks", b.FreeBlocks(10))
	{
		err := b.Free(c)
		require.Error(t, err, "double free accepted")
	}
	{
		_, err := b.Alloc(11)
		require.Error(t, err, "Alloc(11) error %v should name range", err)
		require.Contains(t, err.Error(), "0..10", "Alloc(11) error %v should name range", err)
	}
}

func TestBuddyExhaustionIsAnError(t *testing.T) {
	b, _ := NewBuddy(64<<10, 4) // 16 pages
	for i := 0; i < 16; i++ {
		{
			_, err := b.Alloc(0)
			require.NoError(t, err, "alloc %d", i)
		}
	}
	{
		_, err := b.Alloc(0)
		require.Error(t, err, "allocation from empty memory succeeded")
	}
	{
		_, err := b.AllocPreferLarge(17, 4)
		require.Error(t, err, "oversized request: %v", err)
		require.Contains(t, err.Error(), "larger than memory", "oversized request: %v", err)
	}
}

// Fragmentation pins one frame in a fraction of max-order blocks, so a
// prefer-large allocation falls back to smaller chunks; with no
// fragmentation it gets max-order chunks.
func TestPreferLargeFallsBackUnderFragmentation(t *testing.T) {
	for _, c := range []struct {
		frac     float64
		wantBig  bool
		minChunk int
	}{{0, true, 1}, {1, false, 2}} {
		b, _ := NewBuddy(64<<20, 10) // 16 order-10 blocks
		pinned, err := b.Fragment(sim.NewRNG(3), c.frac)
		require.NoError(t, err)
		chunks, err := b.AllocPreferLarge(4096, 10) // 16 MiB
		require.NoError(t, err, "frac %v: %v (pinned %d)", c.frac, err, pinned)
		var pages uint64
		big := 0
		for _, ch := range chunks {
			pages += 1 << ch.Order
			if ch.Order == 10 {
				big++
			}
		}
		require.EqualValues(t, 4096, pages, "frac %v: got %d pages", c.frac, pages)
		require.False(t, c.wantBig && (big != 4 || len(chunks) != 4), "unfragmented: %d chunks, %d of order 10", len(chunks), big)
		require.False(t, !c.wantBig && big != 0, "fully fragmented memory still gave %d order-10 chunks", big)
	}
	b, _ := NewBuddy(1<<20, 8)
	{
		_, err := b.Fragment(sim.NewRNG(1), 1.5)
		require.Error(t, err, "bad fraction: %v", err)
		require.Contains(t, err.Error(), "fragmentation", "bad fraction: %v", err)
	}
}

func TestNewBuddyValidation(t *testing.T) {
	for _, c := range []struct {
		bytes uint64
		order int
		field string
	}{{0, 10, "mem.bytes"}, {5000, 10, "mem.bytes"}, {1 << 20, -1, "mem.max_order"}, {1 << 20, 21, "mem.max_order"}} {
		{
			_, err := NewBuddy(c.bytes, c.order)
			require.Error(t, err, "NewBuddy(%d,%d) = %v, want error naming %s", c.bytes, c.order, err, c.field)
			assert.Contains(t, err.Error(), c.field, "NewBuddy(%d,%d) = %v, want error naming %s", c.bytes, c.order, err, c.field)
		}
	}
}

func TestVersionsStaleAndLost(t *testing.T) {
	v := NewVersions(6)
	require.NoError(t, v.Track(0x10000, 256))
	{
		err := v.Track(0x10040, 64)
		require.Error(t, err, "overlapping track accepted")
	}
	require.EqualValues(t, -1, v.Index(0x10000>>6-1), "untracked line has an index")
	require.EqualValues(t, -1, v.Index(0x10100>>6), "untracked line has an index")
	i := v.Index(0x10040 >> 6)
	require.EqualValues(t, 1, i, "index %d, want 1", i)
	cached := v.WriteCached(i) // CPU writes its cached copy
	dev := v.WriteMem(i, 2)    // a device then writes DRAM
	require.True(t, (cached < dev), "device write is not the newest")
	require.Equal(t, dev, v.Latest[i], "device write is not the newest")
	require.EqualValues(t, 2, v.LatestWriter[i], "device write is not the newest")
	require.True(t, v.WriteBack(i, cached), "write-back of older CPU data over device data not reported lost")
	require.Less(t, v.Mem[i], v.Latest[i], "after lost write-back, DRAM should be older than latest")
}

func TestSpaceAliasAndFaults(t *testing.T) {
	var s Space
	pages := []uint64{0x80000, 0x200000}
	require.NoError(t, s.Map(Mapping{Name: "lin", VA: 0x1000, Pages: pages, Attr: Normal}))
	require.NoError(t, s.Map(Mapping{Name: "nc", VA: 0x100000, Pages: pages, Attr: NormalNC}))
	{
		err := s.Map(Mapping{Name: "bad", VA: 0x2000, Pages: pages})
		require.Error(t, err, "overlap accepted")
	}
	tr, err := s.Translate(0x2010, false)
	require.NoError(t, err, "linear: %+v %v", tr, err)
	require.EqualValues(t, 0x200010, tr.PA, "linear: %+v %v", tr, err)
	require.EqualValues(t, Normal, tr.Attr, "linear: %+v %v", tr, err)
	require.EqualValues(t, PageSize-0x10, tr.Contig, "linear: %+v %v", tr, err)
	tr, err = s.Translate(0x101010, true)
	require.NoError(t, err, "alias: %+v %v", tr, err)
	require.EqualValues(t, 0x200010, tr.PA, "alias: %+v %v", tr, err)
	require.EqualValues(t, NormalNC, tr.Attr, "alias: %+v %v", tr, err)
	{
		_, err := s.Translate(0x5000, false)
		require.Error(t, err, "unmapped: %v", err)
		require.Contains(t, err.Error(), "not mapped", "unmapped: %v", err)
	}
}

func TestVersionsRun(t *testing.T) {
	v := NewVersions(6)
	// Two regions tracked out of line order, adjacent in line space.
	require.NoError(t, v.Track(10<<6, 10<<6))
	require.NoError(t, v.Track(0, 10<<6))
	for _, c := range []struct {
		line, n uint64
		idx     int
		ok      bool
	}{{10, 10, 0, true}, {12, 8, 2, true}, {12, 9, 2, false}, {5, 10, 15, false}, {0, 10, 10, true}, {20, 1, -1, false}, {3, 0, 13, false}} {
		idx, ok := v.Run(c.line, c.n)
		assert.Equal(t, c.idx, idx, "Run(%d,%d) = %d,%v; want %d,%v", c.line, c.n, idx, ok, c.idx, c.ok)
		assert.Equal(t, c.ok, ok, "Run(%d,%d) = %d,%v; want %d,%v", c.line, c.n, idx, ok, c.idx, c.ok)
	}
	require.EqualValues(t, -1, v.Index(25), "Index across out-of-order regions")
	require.EqualValues(t, 9, v.Index(19), "Index across out-of-order regions")
	require.EqualValues(t, 10, v.Index(0), "Index across out-of-order regions")
}
