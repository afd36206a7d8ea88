package mmu

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

func chunks(cs ...[2]int) []mem.Chunk {
	out := make([]mem.Chunk, len(cs))
	for i, c := range cs {
		out[i] = mem.Chunk{PFN: uint64(c[0]), Order: c[1]}
	}
	return out
}

// Exact chunk lists on fresh 16 MiB memory (the allocator hands out the
// lowest block first).
func TestRbAllocAuxChunkLists(t *testing.T) {
	order0 := make([]mem.Chunk, 8)
	for i := range order0 {
		order0[i] = mem.Chunk{PFN: uint64(i)}
	}
	for _, c := range []struct {
		name      string
		cfg       AuxConfig
		maxOrder  int
		watermark uint64
		want      []mem.Chunk
	}{
		{"default: order-0 pages", AuxConfig{Pages: 8}, 0, 16 * KiB, order0},
		{"prefer large: get_order(half the buffer)", AuxConfig{Pages: 64, PreferLarge: true}, 5, 128 * KiB,
			chunks([2]int{0, 5}, [2]int{32, 5})},
		{"overwrite: ilog2(nr_pages)", AuxConfig{Pages: 64, PreferLarge: true, Overwrite: true}, 6, 0,
			chunks([2]int{0, 6})},
		{"48 pages: the tail is ilog2 of what is left", AuxConfig{Pages: 48, PreferLarge: true}, 5, 96 * KiB,
			chunks([2]int{0, 5}, [2]int{32, 4})},
		{"a 9 KiB watermark rounds up to order 2", AuxConfig{Pages: 8, PreferLarge: true, Watermark: 9 * KiB}, 2, 9 * KiB,
			chunks([2]int{0, 2}, [2]int{4, 2})},
		{"16 MiB: clamped to MAX_PAGE_ORDER", AuxConfig{Pages: 4096, NoSG: true}, 11, 8 * MiB,
			chunks([2]int{0, 10}, [2]int{1024, 10}, [2]int{2048, 10}, [2]int{3072, 10})},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := mem.NewBuddy(16*MiB, 10)
			require.NoError(t, err)
			a, err := RbAllocAux(b, c.cfg)
			require.NoError(t, err)
			assert.Equal(t, c.want, a.Chunks)
			assert.Equal(t, c.maxOrder, a.MaxOrder)
			assert.Equal(t, c.watermark, a.Watermark)
			require.Len(t, a.Pages, c.cfg.Pages)
			for i, pa := range a.Pages {
				require.NoError(t, b.Free(mem.Chunk{PFN: pa >> PageShift}), "page %d is its own order-0 allocation (split_page)", i)
			}
			assert.Equal(t, uint64(4), b.FreeBlocks(10), "everything merged back")
		})
	}
}

// With all free memory in order-3 blocks, a prefer-large request for
// order 5 falls back to order 3 for every chunk; with a quarter in order-9
// blocks it gets those first.
func TestRbAllocAuxFallsBackUnderFragmentation(t *testing.T) {
	shares := func(m map[int]float64) []float64 {
		s := make([]float64, 11)
		for k, v := range m {
			s[k] = v
		}
		return s
	}
	b, _ := mem.NewBuddy(64*MiB, 10)
	_, err := b.Shape(sim.NewRNG(1), shares(map[int]float64{3: 1}))
	require.NoError(t, err)
	a, err := RbAllocAux(b, AuxConfig{Pages: 64, PreferLarge: true})
	require.NoError(t, err)
	assert.Equal(t, 5, a.MaxOrder)
	require.Len(t, a.Chunks, 8)
	for _, c := range a.Chunks {
		assert.Equal(t, 3, c.Order)
	}

	b, _ = mem.NewBuddy(64*MiB, 10)
	_, err = b.Shape(sim.NewRNG(2), shares(map[int]float64{0: 0.75, 9: 0.25}))
	require.NoError(t, err)
	a, err = RbAllocAux(b, AuxConfig{Pages: 4096, PreferLarge: true, Overwrite: true})
	require.NoError(t, err)
	got := map[int]int{}
	for _, c := range a.Chunks {
		got[c.Order]++
	}
	nine := int(b.FreeBlocks(9)) // what is left of order 9 after the buffer
	assert.Equal(t, 0, nine, "order-9 blocks are used up before order 0")
	assert.Equal(t, 4096, got[9]*512+got[0], "%v", got)
	assert.NotZero(t, got[9])
	assert.NotZero(t, got[0])
	for o := range got {
		assert.Contains(t, []int{0, 9}, o, "no other orders are free")
	}

	// No-SG in overwrite mode needs one chunk: fragmented memory fails,
	// and the failure frees what it took.
	free := b.FreePages()
	a.Free(b)
	free2 := b.FreePages()
	assert.Equal(t, free+4096, free2)
	_, err = RbAllocAux(b, AuxConfig{Pages: 1024, NoSG: true, Overwrite: true})
	assert.ErrorContains(t, err, "one chunk of order 10")
	assert.Equal(t, free2, b.FreePages())
}

func TestRbAllocAuxErrors(t *testing.T) {
	b, _ := mem.NewBuddy(1*MiB, 10)
	_, err := RbAllocAux(b, AuxConfig{Pages: 0})
	assert.ErrorContains(t, err, "aux.pages")
	_, err = RbAllocAux(b, AuxConfig{Pages: 257})
	assert.ErrorContains(t, err, "1..256")
	_, err = b.Alloc(0)
	require.NoError(t, err)
	_, err = RbAllocAux(b, AuxConfig{Pages: 256, PreferLarge: true})
	assert.ErrorContains(t, err, "255 of 256 pages")
	assert.Equal(t, uint64(255), b.FreePages(), "a failed allocation gives back every page")
	_, err = RbAllocAux(nil, AuxConfig{Pages: 1})
	assert.Error(t, err)
}

// refMaxOrder is the chunking order written straight from MODEL.md: 0, or
// with prefer-large get_order(watermark) / ilog2(nr_pages) in overwrite.
func refMaxOrder(c AuxConfig) int {
	if !c.PreferLarge && !c.NoSG {
		return 0
	}
	if c.Overwrite {
		o := 0
		for 2<<o <= c.Pages {
			o++
		}
		return o
	}
	wm := c.Watermark
	if wm == 0 {
		wm = uint64(c.Pages) * PageSize / 2
	}
	o := 0
	for PageSize<<o < wm {
		o++
	}
	return o
}

// Property test against a reference: before each allocation the free
// memory is copied into a plain bitmap; every chunk must be a free aligned
// block of it, its order must be the first order, counting down from
// min(max_order, ilog2(pages left), MAX_PAGE_ORDER), at which the bitmap
// has any free aligned block.
func TestRbAllocAuxMatchesReference(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		r := sim.NewRNG(seed)
		b, _ := mem.NewBuddy(32*MiB, 10)
		shares := make([]float64, 11)
		left := 1.0
		for k := 0; k < 10; k++ {
			s := left * r.Float64() * 0.5
			shares[k], left = s, left-s
		}
		shares[10] = left
		_, err := b.Shape(r, shares)
		require.NoError(t, err)
		for range r.Intn(200) { // some unrelated allocations
			_, _ = b.Alloc(r.Intn(4))
		}
		free := make([]bool, b.Frames())
		for pfn := range free {
			free[pfn] = b.IsFree(uint64(pfn))
		}
		hasBlock := func(o int) bool {
			n := 1 << o
			for base := 0; base+n <= len(free); base += n {
				all := true
				for i := base; i < base+n && all; i++ {
					all = free[i]
				}
				if all {
					return true
				}
			}
			return false
		}
		cfg := AuxConfig{Pages: 1 + r.Intn(3000), PreferLarge: r.Intn(3) > 0, Overwrite: r.Intn(2) == 0}
		if r.Intn(3) == 0 {
			cfg.Watermark = uint64(1+r.Intn(2000)) * KiB
		}
		name := fmt.Sprintf("seed %d %+v", seed, cfg)
		a, err := RbAllocAux(b, cfg)
		require.NoError(t, err, name)
		want := refMaxOrder(cfg)
		assert.Equal(t, want, a.MaxOrder, name)
		got := 0
		for _, c := range a.Chunks {
			try := min(want, 10)
			for 1<<try > cfg.Pages-got {
				try--
			}
			for ; try > c.Order; try-- {
				require.False(t, hasBlock(try), "%s: order %d was free but chunk %+v is smaller", name, try, c)
			}
			require.Equal(t, try, c.Order, name)
			require.Zero(t, c.PFN&(1<<c.Order-1), name)
			for i := c.PFN; i < c.PFN+1<<c.Order; i++ {
				require.True(t, free[i], "%s: pfn %#x was not free", name, i)
				free[i] = false
			}
			got += 1 << c.Order
		}
		require.Equal(t, cfg.Pages, got, name)
		for pfn := range free {
			require.Equal(t, free[pfn], b.IsFree(uint64(pfn)), "%s: pfn %#x", name, pfn)
		}
	}
}

// rb_alloc_aux and rb_free_aux of a large buffer of order-0 pages give
// way every freeProgress pages (the allocator's Progress), and the
// buffer is the one allocated without the hook.
func TestRbAllocAuxAndFreeReportProgress(t *testing.T) {
	const pages = 3*freeProgress + 100
	alloc := func(progress func()) (*AuxBuffer, *mem.Buddy, int) {
		b, err := mem.NewBuddy(512*MiB, 10)
		require.NoError(t, err)
		calls := 0
		if progress != nil {
			b.Progress = func() { calls++; progress() }
		}
		a, err := RbAllocAux(b, AuxConfig{Pages: pages})
		require.NoError(t, err)
		return a, b, calls
	}
	a, b, calls := alloc(func() {})
	assert.Equal(t, 3, calls, "allocating %d pages", pages)
	plain, _, _ := alloc(nil)
	assert.Equal(t, plain.Pages, a.Pages)
	n := 0
	b.Progress = func() { n++ }
	a.Free(b)
	assert.Equal(t, 3, n, "freeing %d pages", pages)
}

// rb_alloc_aux refuses a page array larger than kcalloc_node can allocate
// (PAGE_SIZE << MAX_PAGE_ORDER): with 4 KiB pages and order 10 the AUX
// buffer is at most 524,288 pages (2 GiB), whatever memory is free; 4 GiB
// fails with -ENOMEM (kernel/events/ring_buffer.c rb_alloc_aux).
func TestRbAllocAuxPageArrayLimit(t *testing.T) {
	assert.Equal(t, 524288, MaxAuxPages(10))
	b, err := mem.NewBuddy(8*GiB, 10)
	require.NoError(t, err)
	free := b.FreePages()
	for _, large := range []bool{false, true} {
		_, err = RbAllocAux(b, AuxConfig{Pages: 1 << 20, PreferLarge: large})
		require.Error(t, err, "4 GiB of AUX with %d frames free", b.Frames())
		for _, want := range []string{"aux.pages", "1048576 pages", "8MiB page array", "4MiB", "MAX_PAGE_ORDER 10", "ENOMEM",
			"failed to mmap with 12 (Cannot allocate memory)", "524288 pages (2GiB)"} {
			assert.Contains(t, err.Error(), want)
		}
		assert.Equal(t, free, b.FreePages(), "nothing allocated")
	}
	a, err := RbAllocAux(b, AuxConfig{Pages: 1 << 19, PreferLarge: true})
	require.NoError(t, err, "2 GiB: a 4 MiB array, order 10, allowed")
	assert.Len(t, a.Pages, 1<<19)
	_, err = RbAllocAux(b, AuxConfig{Pages: 1<<19 + 1})
	assert.ErrorContains(t, err, "ENOMEM", "one page more needs an order-11 array")
}
