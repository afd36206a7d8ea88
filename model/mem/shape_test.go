package mem

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/sim"
)

func TestAllocBlockAtSplitsTowardsTheBlock(t *testing.T) {
	b, err := NewBuddy(64<<10, 4) // 16 frames, one order-4 block
	require.NoError(t, err)
	require.True(t, b.AllocBlockAt(4, 2)) // frames 4..7
	assert.False(t, b.AllocBlockAt(4, 2), "already allocated")
	assert.False(t, b.AllocBlockAt(6, 1), "inside an allocated block")
	assert.False(t, b.AllocBlockAt(2, 2), "unaligned")
	assert.False(t, b.AllocBlockAt(16, 0), "beyond memory")
	// Left free: 0..3 (order 2) and 8..15 (order 3).
	assert.Equal(t, uint64(1), b.FreeBlocks(2))
	assert.Equal(t, uint64(1), b.FreeBlocks(3))
	for pfn := uint64(0); pfn < 16; pfn++ {
		assert.Equal(t, pfn < 4 || pfn >= 8, b.IsFree(pfn), "pfn %d", pfn)
	}
	require.NoError(t, b.Free(Chunk{4, 2}))
	assert.Equal(t, uint64(1), b.FreeBlocks(4), "merged back")
}

func TestSplitPageFreesPageByPage(t *testing.T) {
	b, _ := NewBuddy(64<<10, 4)
	c, err := b.Alloc(2)
	require.NoError(t, err)
	require.NoError(t, b.SplitPage(c))
	assert.Error(t, b.Free(c), "the order-2 block no longer exists after split_page")
	assert.Error(t, b.SplitPage(Chunk{c.PFN + 1, 1}))
	for i := uint64(0); i < 4; i++ {
		require.NoError(t, b.Free(Chunk{c.PFN + i, 0}))
	}
	assert.Equal(t, uint64(16), b.FreePages())
	assert.Equal(t, uint64(1), b.FreeBlocks(4))
}

// Shape puts the requested share of free memory into blocks of each order
// (exactly, up to one block of rounding) and leaves no two free buddies
// unmerged.
func TestShapeSharesOfFreeMemory(t *testing.T) {
	b, err := NewBuddy(256<<20, 10) // 64 order-10 blocks
	require.NoError(t, err)
	shares := make([]float64, 11)
	shares[0], shares[4], shares[9], shares[10] = 0.25, 0.25, 0.25, 0.25
	counts, err := b.Shape(sim.NewRNG(7), shares)
	require.NoError(t, err)
	sum := 0
	for _, c := range counts {
		sum += c
	}
	assert.Equal(t, 64, sum)
	free := float64(b.FreePages())
	for k, want := range shares {
		got := float64(b.FreeBlocks(k)<<k) / free
		assert.InDelta(t, want, got, 512.0/free, "order %d share", k)
	}
	// Buddy invariant: no free block has a free buddy of the same order.
	for pfn := uint64(0); pfn < b.Frames(); pfn++ {
		for o := 0; o < 10; o++ {
			if pfn&(1<<o-1) == 0 && b.ft.free(pfn) == int8(o) {
				assert.NotEqual(t, int8(o), b.ft.free(pfn^1<<o), "unmerged buddies at %#x order %d", pfn, o)
			}
		}
	}
	// Same seed, same memory; another seed moves the blocks.
	b2, _ := NewBuddy(256<<20, 10)
	_, _ = b2.Shape(sim.NewRNG(7), shares)
	b3, _ := NewBuddy(256<<20, 10)
	_, _ = b3.Shape(sim.NewRNG(8), shares)
	same, diff := true, false
	for pfn := uint64(0); pfn < b.Frames(); pfn++ {
		same = same && b.IsFree(pfn) == b2.IsFree(pfn)
		diff = diff || b.IsFree(pfn) != b3.IsFree(pfn)
	}
	assert.True(t, same)
	assert.True(t, diff)
}

func TestShapeRejectsBadShares(t *testing.T) {
	b, _ := NewBuddy(16<<20, 10)
	for _, c := range []struct {
		shares []float64
		msg    string
	}{
		{[]float64{1}, "one per order 0..10"},
		{[]float64{-0.5, 1.5, 0, 0, 0, 0, 0, 0, 0, 0, 0}, "shares[0]"},
		{[]float64{0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, "sum to 1"},
	} {
		_, err := b.Shape(sim.NewRNG(1), c.shares)
		require.Error(t, err)
		assert.Contains(t, err.Error(), c.msg)
	}
	assert.Equal(t, uint64(4), b.FreeBlocks(10), "rejected shapes change nothing")
}

// Shape calls Progress every shapeProgress max-order blocks and shapes
// memory as it does without it.
func TestShapeReportsProgress(t *testing.T) {
	shares := make([]float64, 11)
	shares[0], shares[10] = 0.5, 0.5
	b, err := NewBuddy(256<<20, 10) // 64 order-10 blocks
	require.NoError(t, err)
	calls := 0
	b.Progress = func() { calls++ }
	counts, err := b.Shape(sim.NewRNG(3), shares)
	require.NoError(t, err)
	assert.Equal(t, 64/shapeProgress, calls)

	plain, err := NewBuddy(256<<20, 10)
	require.NoError(t, err)
	want, err := plain.Shape(sim.NewRNG(3), shares)
	require.NoError(t, err)
	assert.Equal(t, want, counts)
	assert.Equal(t, plain.ft, b.ft, "the frames Progress saw shaped differ")
}

// shapeByAllocBlockAt is Shape's pinning as AllocBlockAt calls, one per
// pair (what Buddy.pinPairs writes out).
func shapeByAllocBlockAt(b *Buddy, r *sim.RNG, orders []int) {
	top := b.maxOrder
	for i, k := range orders {
		base := uint64(i) << top
		if k == top {
			continue
		}
		half := uint64(1) << k
		for pair := base; pair < base+1<<top; pair += 2 * half {
			if !b.AllocBlockAt(pair+half*r.Uint64n(2), k) {
				panic("pair not free")
			}
		}
	}
}

// Shape's written-out pinning leaves the allocator as AllocBlockAt per
// pair does: the same frame states and free counts, and the same chunks
// for any allocations and frees that follow.
func TestShapeMatchesAllocBlockAt(t *testing.T) {
	const top = 6
	orders := []int{0, 6, 3, 5, 1, 2, 6, 4, 0, 5, 2}
	shares := make([]float64, top+1)
	for _, k := range orders {
		shares[k]++
	}
	for k := range shares {
		shares[k] /= float64(len(orders))
	}
	a, err := NewBuddy(uint64(len(orders))<<(top+PageShift), top)
	require.NoError(t, err)
	ref, err := NewBuddy(uint64(len(orders))<<(top+PageShift), top)
	require.NoError(t, err)
	// Shape draws which blocks get which order before pinning: replay its
	// draws on the reference with the orders Shape chose.
	ra, rr := sim.NewRNG(11), sim.NewRNG(11)
	_, err = a.Shape(ra, shares)
	require.NoError(t, err)
	chosen := make([]int, len(orders))
	for i := range chosen {
		base := uint64(i) << top
		chosen[i] = top
		for k := 0; k < top; k++ {
			if a.ft.alloc(base) == int8(k) || a.ft.alloc(base+1<<k) == int8(k) {
				chosen[i] = k
				break
			}
		}
	}
	n := len(orders)
	for i := n - 1; i > 0; i-- { // Shape's Fisher-Yates draws
		rr.Uint64n(uint64(i + 1))
	}
	shapeByAllocBlockAt(ref, rr, chosen)
	sameAllocator(t, ref, a, 5)
}

// sameAllocator requires a and ref to hold the same frame states and free
// counts and to hand out the same chunks for a run of random allocations
// and frees.
func sameAllocator(t *testing.T, ref, a *Buddy, seed uint64) {
	t.Helper()
	require.Equal(t, ref.nfree, a.nfree)
	for pfn := uint64(0); pfn < a.frames; pfn++ {
		require.Equal(t, ref.ft.get(pfn), a.ft.get(pfn), "pfn %d", pfn)
	}
	draw := sim.NewRNG(seed)
	var held []Chunk
	for step := 0; step < 2000; step++ {
		if len(held) > 0 && draw.Intn(3) == 0 {
			i := draw.Intn(len(held))
			require.NoError(t, a.Free(held[i]))
			require.NoError(t, ref.Free(held[i]))
			held = append(held[:i], held[i+1:]...)
			continue
		}
		o := draw.Intn(a.maxOrder + 1)
		ca, ea := a.Alloc(o)
		cr, er := ref.Alloc(o)
		require.Equal(t, er == nil, ea == nil, "step %d", step)
		require.Equal(t, cr, ca, "step %d", step)
		if ea == nil {
			held = append(held, ca)
		}
	}
}

// FreePageRun leaves what freeing the run's pages one by one in address
// order leaves: for split blocks of every order and for order-0 pages
// allocated in a row, on fragmented memory; a bad run is refused and
// changes nothing.
func TestFreePageRunMatchesFree(t *testing.T) {
	const top = 6
	build := func() (*Buddy, [][]uint64) {
		b, err := NewBuddy(32<<(top+PageShift), top)
		require.NoError(t, err)
		shares := make([]float64, top+1)
		for k := range shares {
			shares[k] = 1 / float64(top+1)
		}
		_, err = b.Shape(sim.NewRNG(3), shares)
		require.NoError(t, err)
		var runs [][]uint64
		for k := 0; k <= top; k++ {
			c, err := b.Alloc(k)
			require.NoError(t, err)
			require.NoError(t, b.SplitPage(c))
			run := make([]uint64, 1<<k)
			for i := range run {
				run[i] = c.PFN + uint64(i)
			}
			runs = append(runs, run)
		}
		var row []uint64 // order-0 pages as they come
		for range 200 {
			c, err := b.Alloc(0)
			require.NoError(t, err)
			row = append(row, c.PFN)
		}
		return b, append(runs, row)
	}
	a, runs := build()
	ref, _ := build()
	// The order-0 pages: every aligned power-of-two stretch in a row.
	row := runs[len(runs)-1]
	for i := 0; i < len(row); {
		n := 1
		for 2*n <= len(row)-i && row[i]%uint64(2*n) == 0 && row[i+2*n-1] == row[i]+uint64(2*n-1) {
			n *= 2
		}
		k := 0
		for 1<<k < n {
			k++
		}
		require.NoError(t, a.FreePageRun(row[i], k))
		for j := 0; j < n; j++ {
			require.NoError(t, ref.Free(Chunk{PFN: row[i+j]}))
		}
		i += n
	}
	for k, run := range runs[:len(runs)-1] {
		if k > 0 {
			require.Error(t, a.FreePageRun(run[0]+1, k), "unaligned")
		}
		require.NoError(t, a.FreePageRun(run[0], k))
		require.Error(t, a.FreePageRun(run[0], k), "already free")
		for _, pfn := range run {
			require.NoError(t, ref.Free(Chunk{PFN: pfn}))
		}
	}
	sameAllocator(t, ref, a, 9)
}

// AllocPages hands out what as many Alloc(0) calls hand out, on
// fragmented memory, and stops at the same error when memory runs out.
func TestAllocPagesIsAllocOfOrderZero(t *testing.T) {
	build := func() *Buddy {
		b, err := NewBuddy(64<<20, 6)
		require.NoError(t, err)
		shares := []float64{0.3, 0.1, 0.1, 0, 0.2, 0, 0.3}
		_, err = b.Shape(sim.NewRNG(3), shares)
		require.NoError(t, err)
		return b
	}
	a, ref := build(), build()
	free := int(a.FreePages())
	got, err := a.AllocPages(nil, free/2)
	require.NoError(t, err)
	var want []Chunk
	for range free / 2 {
		ch, err := ref.Alloc(0)
		require.NoError(t, err)
		want = append(want, ch)
	}
	require.Equal(t, want, got)
	sameAllocator(t, ref, a, 4)
	// Past the end of memory: the same pages, then the same error.
	a, ref = build(), build()
	got, err = a.AllocPages(got[:0], free+3)
	want = want[:0]
	var werr error
	for range free + 3 {
		ch, err := ref.Alloc(0)
		if err != nil {
			werr = err
			break
		}
		want = append(want, ch)
	}
	require.Error(t, err)
	require.Equal(t, werr, err)
	require.Equal(t, want, got)
	require.Len(t, got, free)
}
