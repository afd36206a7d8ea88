package mmu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// A table on a free port (its Memory) maps and unmaps pages in the
// level-3 frame itself; the result, the leaves and the counted reads and
// writes are those of the descent a priced port takes.
func TestDirectMappingMatchesDescent(t *testing.T) {
	r := sim.NewRNG(3)
	var pages []uint64
	for len(pages) < 3000 {
		base, n := uint64(r.Intn(1<<12))*PageSize, 1+r.Intn(40)
		if r.Intn(4) == 0 { // an aligned 64 KiB run
			base, n = base&^(ContigSize-1), ContigPTEs
		}
		pages = append(pages, run(base, n)...)
	}
	const va = 1 << 30
	do := func(direct bool) (MapStats, []Leaf, MapStats) {
		b, err := mem.NewBuddy(64*MiB, 10)
		require.NoError(t, err)
		m := NewMemory()
		var port Port
		if !direct {
			port = &FixedPort{Mem: m}
		}
		pt, err := NewPageTable("t", m, b, port, false)
		require.NoError(t, err)
		require.Equal(t, direct, pt.direct)
		st, err := pt.MapPages(va, pages, PageKernel, Size4K|Size64K)
		require.NoError(t, err)
		_, err = pt.MapPages(va+PageSize*100, pages[:1], PageKernel, Size4K)
		require.ErrorContains(t, err, "overlaps")
		leaves := pt.Leaves(va, uint64(len(pages))*PageSize)
		un, err := pt.Unmap(va, uint64(len(pages))*PageSize)
		require.NoError(t, err)
		assert.Empty(t, pt.Leaves(va, uint64(len(pages))*PageSize))
		return st, leaves, un
	}
	st, leaves, un := do(true)
	st2, leaves2, un2 := do(false)
	assert.Equal(t, st2, st)
	assert.Equal(t, leaves2, leaves)
	assert.Equal(t, un2, un)
	assert.Positive(t, st.Contig)
	assert.Positive(t, st.Pages)
}
