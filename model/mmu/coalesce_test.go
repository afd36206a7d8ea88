package mmu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/hwevent"
)

// a76L2 is a Cortex-A76-like L2 TLB that coalesces four contiguous pages.
var a76L2 = TLBConfig{Entries: 64, Ways: 4, Sizes: Sizes(4*KiB, 16*KiB, 64*KiB, 2*MiB), Coalesce: 4}

// Sixteen pages vmapped with 4 KiB PTEs, written once each by a trace
// port: groups of four VA-aligned, physically consecutive pages share one
// L2 entry (four refills for sixteen pages), also when the PA is not
// 16 KiB aligned; a group whose pages are not consecutive gets one entry
// per page, a group with two consecutive pages one coalesced entry for
// both and one entry for each other page.
func TestL2TLBCoalescesConsecutivePages(t *testing.T) {
	k, _, _ := kernel(t, 256*MiB)
	port := &FixedPort{Mem: k.PT.mem}
	u, err := NewMMU(a76L2, DefaultConfig(), k.PT, port, 1)
	require.NoError(t, err)
	trbe, err := u.Requester("trbe_tlb", 9, TLBConfig{Entries: 1, Ways: 1, Sizes: a76L2.Sizes}, false)
	require.NoError(t, err)
	// vmap maps pages built by mk from the VA's page offset within its
	// 16 KiB group (vmap aligns areas to 4 KiB only): the area's VA is
	// found first with a dummy mapping of the same size.
	vmap := func(n int, mk func(phase uint64) []uint64) Area {
		probe, _, err := k.Vmap(run(0x7f0_0000, n), PageKernel, VmapMainline)
		require.NoError(t, err)
		_, err = k.Vunmap(probe)
		require.NoError(t, err)
		a, _, err := k.Vmap(mk((probe.VA>>PageShift)&3), PageKernel, VmapMainline)
		require.NoError(t, err)
		require.Equal(t, probe.VA, a.VA)
		return a
	}
	write := func(va uint64, pages int) {
		for i := 0; i < pages; i++ {
			_, err := trbe.Translate(va+uint64(i)*PageSize, true)
			require.NoError(t, err)
		}
	}

	a := vmap(16, func(ph uint64) []uint64 { return run(0x100_0000+ph*PageSize, 16) })
	require.Zero(t, a.VA&(16*KiB-1), "the first area is 16 KiB aligned")
	write(a.VA, 16)
	assert.Equal(t, uint64(4), u.L2.Stats.Refills, "one coalesced entry per four pages")
	assert.Equal(t, uint64(4), trbe.Stats.Walks, "and one walk: the other three hit the coalesced entry")
	assert.Equal(t, uint64(16), trbe.L1.Stats.Refills, "the one-entry L1 TLB holds a page at a time")
	write(a.VA, 16)
	assert.Equal(t, uint64(4), u.L2.Stats.Refills, "a second pass hits in the L2 TLB")

	b := vmap(4, func(ph uint64) []uint64 {
		return []uint64{0x200_0000 + ph*PageSize, 0x300_1000 + ph*PageSize, 0x400_2000 + ph*PageSize, 0x500_3000 + ph*PageSize}
	})
	write(b.VA, 4)
	assert.Equal(t, uint64(8), u.L2.Stats.Refills, "not consecutive: one entry per page")

	// Eight pages; the aligned VA group inside them maps 0x600_1000..: consecutive, PA not 16 KiB aligned.
	c := vmap(8, func(ph uint64) []uint64 { return run(0x600_1000-((4-ph)&3)*PageSize, 8) })
	cg := (c.VA + 16*KiB - 1) &^ (16*KiB - 1)
	write(cg, 4)
	assert.Equal(t, uint64(9), u.L2.Stats.Refills, "consecutive pages coalesce whatever the PA's alignment")

	// Eight pages from a group boundary: pages 0, 1 of the group share a
	// block, 2 and 3 come from other blocks.
	d := vmap(8, func(ph uint64) []uint64 {
		skip := (4 - ph) & 3
		out := run(0x7c0_0000, int(skip)) // to the group boundary: scattered below
		for i := range out {
			out[i] += uint64(i) * 16 * KiB
		}
		return append(out, 0x700_0000, 0x700_1000, 0x710_2000, 0x720_3000, 0x730_0000, 0x740_0000, 0x750_0000, 0x760_0000)[:8]
	})
	g := (d.VA + 16*KiB - 1) &^ (16*KiB - 1)
	before := u.L2.Stats.Refills
	write(g+2*PageSize, 2) // the two stray pages first
	write(g, 2)
	assert.Equal(t, before+3, u.L2.Stats.Refills, "pages 2 and 3 alone, then 0 and 1 together")
	n := 0
	for _, s := range u.L2.Entries() {
		if s.Valid != 0 {
			n++
			assert.Equal(t, uint64(16*KiB), s.Bytes)
		}
	}
	assert.Equal(t, 6, n, "six coalesced entries: four of the first area, one each of the third and the last")

	core, err := u.Requester("l1d_tlb", hwevent.Core, TLBConfig{Entries: 8, Ways: 8, Sizes: Sizes(4*KiB, 16*KiB)}, true)
	require.NoError(t, err)
	tr, err := core.Translate(a.VA+5*PageSize+8, false)
	require.NoError(t, err)
	assert.Equal(t, uint64(0x100_5008), tr.PA)
	assert.Equal(t, uint64(PageSize-8), tr.Contig, "an L1 TLB without coalescing takes the page, not the group")
	assert.Equal(t, uint64(0), core.Stats.Walks)

	_, err = NewTLB("x", TLBConfig{Entries: 4, Ways: 4, Sizes: Sizes(4 * KiB), Coalesce: 3})
	require.ErrorContains(t, err, "x.coalesce: 3")
}
