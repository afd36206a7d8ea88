package mmu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	V   = VmallocStart // the first vm area of a fresh kernel space
	P   = 16 * MiB     // frame of the contiguous-hint cases (64 KiB aligned)
	P2  = 32 * MiB     // 2 MiB aligned
	rw  = "normal-wb rw xn"
	ram = 128 * MiB
)

// Page-table contents after vmap, for each mapping mode, at the alignment
// edges of the contiguous hint and of 2 MiB blocks.
func TestVmapTables(t *testing.T) {
	cases := []struct {
		name  string
		pages []uint64
		large bool
		want  []row
	}{
		{"16 pages, 4K PTEs", run(P, 16), false, []row{{V, V + 64*KiB, P, 4 * KiB, rw}}},
		{"16 aligned pages, contiguous", run(P, 16), true, []row{{V, V + 64*KiB, P, 64 * KiB, rw}}},
		{"15 pages: too short for the hint", run(P, 15), true, []row{{V, V + 60*KiB, P, 4 * KiB, rw}}},
		{"17 pages: one run and a page", run(P, 17), true, []row{
			{V, V + 64*KiB, P, 64 * KiB, rw},
			{V + 64*KiB, V + 68*KiB, P + 64*KiB, 4 * KiB, rw}}},
		{"17 pages one page early: VA and PA never agree mod 64K", run(P-4*KiB, 17), true, []row{
			{V, V + 68*KiB, P - 4*KiB, 4 * KiB, rw}}},
		{"32 pages one page late", run(P+4*KiB, 32), true, []row{{V, V + 128*KiB, P + 4*KiB, 4 * KiB, rw}}},
		{"two 64K runs far apart", cat(run(P, 16), run(P+MiB, 16)), true, []row{
			{V, V + 64*KiB, P, 64 * KiB, rw},
			{V + 64*KiB, V + 128*KiB, P + MiB, 64 * KiB, rw}}},
		{"a run broken after 8 pages", cat(run(P, 8), run(P+MiB, 8)), true, []row{
			{V, V + 32*KiB, P, 4 * KiB, rw},
			{V + 32*KiB, V + 64*KiB, P + MiB, 4 * KiB, rw}}},
		{"512 pages, 4K PTEs", run(P2, 512), false, []row{{V, V + 2*MiB, P2, 4 * KiB, rw}}},
		{"512 aligned pages: a 2M block", run(P2, 512), true, []row{{V, V + 2*MiB, P2, 2 * MiB, rw}}},
		{"513 pages: block and a page", run(P2, 513), true, []row{
			{V, V + 2*MiB, P2, 2 * MiB, rw},
			{V + 2*MiB, V + 2*MiB + 4*KiB, P2 + 2*MiB, 4 * KiB, rw}}},
		{"511 pages: 31 runs and 15 pages", run(P2, 511), true, []row{
			{V, V + 1984*KiB, P2, 64 * KiB, rw},
			{V + 1984*KiB, V + 2044*KiB, P2 + 1984*KiB, 4 * KiB, rw}}},
		{"512 pages 64K off 2M: runs, no block", run(P2+64*KiB, 512), true, []row{
			{V, V + 2*MiB, P2 + 64*KiB, 64 * KiB, rw}}},
		{"two blocks from two chunks", cat(run(P2, 512), run(P2+8*MiB, 512)), true, []row{
			{V, V + 2*MiB, P2, 2 * MiB, rw},
			{V + 2*MiB, V + 4*MiB, P2 + 8*MiB, 2 * MiB, rw}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k, _, _ := kernel(t, ram)
			a, st, err := k.Vmap(c.pages, PageKernel, vmapOf(c.large))
			require.NoError(t, err)
			assert.Equal(t, uint64(V), a.VA)
			assert.Equal(t, c.want, rows(k.PT, a.VA, a.Bytes))
			require.NoError(t, k.PT.Verify())
			// The same listing from the hardware's point of view: every page
			// translates to its own frame.
			w, err := NewWalker(DefaultConfig(), k.PT, nil)
			require.NoError(t, err)
			for i, pa := range c.pages {
				r := w.Walk(a.VA + uint64(i)*PageSize + 123)
				require.True(t, r.OK, "page %d", i)
				assert.Equal(t, pa+123, r.Leaf.PA+(a.VA+uint64(i)*PageSize+123-r.Leaf.VA), "page %d", i)
			}
			leaves := st.Pages + st.Contig + st.Blocks2M + st.Blocks1G
			assert.Equal(t, len(k.PT.Leaves(a.VA, a.Bytes)), leaves)
		})
	}
}

// A vm area is aligned so large entries are possible, and areas are
// separated by a guard page.
func TestVmapAreaAlignmentAndGuard(t *testing.T) {
	k, _, _ := kernel(t, ram)
	a1, _, err := k.Vmap(run(P, 3), PageKernel, VmapBatch)
	require.NoError(t, err)
	assert.Equal(t, uint64(V), a1.VA)
	a2, _, err := k.Vmap(run(P+MiB, 2), PageKernel, VmapBatch)
	require.NoError(t, err)
	assert.Equal(t, uint64(V+4*PageSize), a2.VA, "3 pages + guard")
	a3, _, err := k.Vmap(run(P2, 512), PageKernel, VmapBatch)
	require.NoError(t, err)
	assert.Equal(t, uint64(V+2*MiB), a3.VA, "2 MiB aligned")
	a4, _, err := k.Vmap(run(P2+4*MiB, 16), PageKernel, VmapBatch)
	require.NoError(t, err)
	assert.Equal(t, uint64(V+64*KiB), a4.VA, "lowest 64 KiB aligned hole")
	// Freeing makes room again; a 2 MiB area does not fit below a3 (its
	// guard page), so it goes after a3.
	_, err = k.Vunmap(a1)
	require.NoError(t, err)
	_, err = k.Vunmap(a2)
	require.NoError(t, err)
	_, err = k.Vunmap(a4)
	require.NoError(t, err)
	a5, _, err := k.Vmap(run(P2+8*MiB, 512), PageKernel, VmapBatch)
	require.NoError(t, err)
	assert.Equal(t, []row{{V + 6*MiB, V + 8*MiB, P2 + 8*MiB, 2 * MiB, rw}}, rows(k.PT, a5.VA, a5.Bytes))
	a6, _, err := k.Vmap(run(P, 1), PageKernel, VmapMainline)
	require.NoError(t, err)
	assert.Equal(t, uint64(V), a6.VA)
}

func TestLinearMapIsBlockMapped(t *testing.T) {
	k, _, _ := kernel(t, ram)
	all := "normal-wb rw xn"
	assert.Equal(t, []row{{LinearBase, LinearBase + ram, 0, 2 * MiB, all}}, rows(k.PT, LinearBase, ram))
	va, err := k.LinearVA(5 * MiB)
	require.NoError(t, err)
	assert.Equal(t, uint64(LinearBase+5*MiB), va)
	_, err = k.LinearVA(ram)
	assert.ErrorContains(t, err, "not RAM")

	k2, _, _ := kernel(t, GiB+2*MiB+8*KiB)
	assert.Equal(t, []row{
		{LinearBase, LinearBase + GiB, 0, GiB, all},
		{LinearBase + GiB, LinearBase + GiB + 2*MiB, GiB, 2 * MiB, all},
		{LinearBase + GiB + 2*MiB, LinearBase + GiB + 2*MiB + 8*KiB, GiB + 2*MiB, 4 * KiB, all},
	}, rows(k2.PT, LinearBase, 2*GiB))
}

// An IOMMU domain maps with 4K/2M/1G (no contiguous hint), IOVAs size
// aligned from the top of the DMA range down.
func TestIOSpaceMap(t *testing.T) {
	k, m, b := kernel(t, ram)
	_ = k
	io, err := NewIOSpace("smmu", m, b, nil, 1<<32)
	require.NoError(t, err)
	a, st, err := io.Map(run(P2, 513), Prot{Attr: 0})
	require.NoError(t, err)
	assert.Equal(t, uint64(1<<32-4*MiB), a.VA, "aligned to 4 MiB, the power of two above 2 MiB + 4 KiB")
	assert.Equal(t, 1, st.Blocks2M)
	assert.Equal(t, []row{
		{a.VA, a.VA + 2*MiB, P2, 2 * MiB, rw},
		{a.VA + 2*MiB, a.VA + 2*MiB + 4*KiB, P2 + 2*MiB, 4 * KiB, rw},
	}, rows(io.PT, a.VA, a.Bytes))
	a2, _, err := io.Map(run(P, 16), PageKernel)
	require.NoError(t, err)
	assert.Equal(t, uint64(1<<32-64*KiB), a2.VA, "highest fit: above the first area")
	assert.Equal(t, []row{{a2.VA, a2.VA + 64*KiB, P, 4 * KiB, rw}}, rows(io.PT, a2.VA, a2.Bytes))
	_, err = io.Unmap(a)
	require.NoError(t, err)
	assert.Empty(t, io.PT.Leaves(a.VA, a.Bytes))
	_, err = NewIOSpace("smmu", m, b, nil, 1<<20)
	assert.ErrorContains(t, err, "dma limit")
}

func TestOneGiBBlockAndUnalignedBlock(t *testing.T) {
	_, m, b := kernel(t, ram)
	pt, err := NewPageTable("io", m, b, nil, false)
	require.NoError(t, err)
	st, err := pt.MapRange(GiB, 3*GiB, GiB, Prot{Attr: 1, ReadOnly: true}, Size1G)
	require.NoError(t, err)
	assert.Equal(t, 1, st.Blocks1G)
	assert.Equal(t, []row{{GiB, 2 * GiB, 3 * GiB, GiB, "normal-nc ro xn"}}, rows(pt, 0, 4*GiB))
	_, err = pt.MapRange(2*GiB, 3*GiB+2*MiB, GiB, PageKernel, Size1G)
	assert.ErrorContains(t, err, "unaligned block")
	assert.Empty(t, pt.Leaves(2*GiB, GiB), "a failed map leaves nothing")
	_, err = pt.MapRange(2*GiB, 5*GiB+2*MiB, GiB, PageKernel, Size1G|Size2M)
	require.NoError(t, err, "2M blocks where 1G is not aligned")
	assert.Equal(t, []row{{2 * GiB, 3 * GiB, 5*GiB + 2*MiB, 2 * MiB, rw}}, rows(pt, 2*GiB, GiB))
}

// The vmap batching series (v4) stops scanning for contiguous pages at the
// first order-0 step: every page after it gets a 4 KiB PTE, even a later
// 2 MiB-aligned chunk whose VA is 2 MiB aligned too. Mainline vmap maps
// every page with a 4 KiB PTE. (A 2 MiB block, one page, a 511-page run
// ending on a 2 MiB boundary, then a second 2 MiB chunk at a 2 MiB VA.)
func TestVmapBatchStopsAtTheFirstOrder0Page(t *testing.T) {
	const Z = 64 * MiB // 2 MiB aligned
	pages := cat(run(P2, 512), run(P, 1), run(Z+4*KiB, 511), run(P2+8*MiB, 512))
	k, _, _ := kernel(t, ram)
	a, st, err := k.Vmap(pages, PageKernel, VmapBatch)
	require.NoError(t, err)
	assert.Equal(t, uint64(V), a.VA)
	assert.Equal(t, MapStats{Blocks2M: 1, Pages: 1024}, MapStats{Blocks2M: st.Blocks2M, Contig: st.Contig, Pages: st.Pages},
		"one block, then 4 KiB PTEs from the order-0 page on")
	assert.Equal(t, []row{
		{V, V + 2*MiB, P2, 2 * MiB, rw},
		{V + 2*MiB, V + 2*MiB + 4*KiB, P, 4 * KiB, rw},
		{V + 2*MiB + 4*KiB, V + 4*MiB, Z + 4*KiB, 4 * KiB, rw},
		{V + 4*MiB, V + 6*MiB, P2 + 8*MiB, 4 * KiB, rw},
	}, rows(k.PT, a.VA, a.Bytes))
	require.NoError(t, k.PT.Verify())

	k2, _, _ := kernel(t, ram)
	_, st, err = k2.Vmap(pages, PageKernel, VmapMainline)
	require.NoError(t, err)
	assert.Equal(t, 1536, st.Pages, "mainline vmap: a 4 KiB PTE per page")
	assert.Zero(t, st.Blocks2M+st.Contig)
}

// A step is min(ilog2 of the contiguous pages, the PFN's alignment): a
// list that starts at an odd PFN starts with an order-0 step, so nothing
// in it is mapped large, although its second run has VA and PA congruent
// modulo 64 KiB over 512 pages.
func TestVmapBatchOddPFNStartsOrder0(t *testing.T) {
	pages := cat(run(P+4*KiB, 15), run(P2+60*KiB, 516))
	k, _, _ := kernel(t, ram)
	a, st, err := k.Vmap(pages, PageKernel, VmapBatch)
	require.NoError(t, err)
	assert.Equal(t, uint64(V), a.VA)
	assert.Equal(t, MapStats{Pages: 531}, MapStats{Pages: st.Pages, Contig: st.Contig, Blocks2M: st.Blocks2M})
}
