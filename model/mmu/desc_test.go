package mmu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// The raw descriptors vmap writes, in the arm64 format: a 64 KiB run is 16
// PTEs with PTE_CONT and consecutive output addresses; a 2 MiB block is one
// level-2 descriptor with bits[1:0]=01.
func TestDescriptorEncoding(t *testing.T) {
	const (
		page  = 0x0060_0000_0000_0703 // UXN|PXN, AF, SH inner, AttrIndx 0, page
		cont  = 0x0070_0000_0000_0703 // the same with PTE_CONT
		block = 0x0060_0000_0000_0701 // a block
	)
	k, m, _ := kernel(t, ram)
	_, _, err := k.Vmap(cat(run(P, 16), run(P+MiB, 1)), PageKernel, VmapBatch)
	require.NoError(t, err)
	d := func(pa uint64) uint64 { v, _ := m.Read64(pa); return v }
	for i := uint64(0); i < 16; i++ {
		assert.Equal(t, uint64(cont|P+i*PageSize), d(vmL3+i*8), "pte %d", i)
	}
	assert.Equal(t, uint64(page|P+MiB), d(vmL3+16*8))
	assert.Zero(t, d(vmL3+17*8))
	assert.Equal(t, uint64(vmL3|3), d(vmL2), "table descriptor")

	k2, m2, _ := kernel(t, ram)
	_, _, err = k2.Vmap(run(P2, 512), PageKernel, VmapBatch)
	require.NoError(t, err)
	v, _ := m2.Read64(vmL2)
	assert.Equal(t, uint64(block|P2), v)

	for _, c := range []struct {
		prot Prot
		bits uint64
	}{
		{Prot{Attr: mem.NormalNC}, 0x0060_0000_0000_0708},
		{Prot{Attr: mem.Device, ReadOnly: true}, 0x0060_0000_0000_0790},
		{Prot{Attr: mem.Normal, Exec: true}, 0x0000_0000_0000_0700},
	} {
		assert.Equal(t, c.bits, c.prot.bits(), "%v", c.prot)
		assert.Equal(t, c.prot, protOf(c.bits|3), "%v", c.prot)
	}
	for _, c := range []struct {
		d     uint64
		level int
		kind  Kind
	}{{0, 1, Invalid}, {2, 2, Invalid}, {3, 0, Table}, {1, 0, Reserved}, {1, 1, Block}, {1, 2, Block}, {3, 3, Page}, {1, 3, Reserved}} {
		assert.Equal(t, c.kind, KindOf(c.d, c.level), "%#x at level %d", c.d, c.level)
	}
}

// Mapping creation is priced on the table's port: every descriptor read
// and write. A 4 MiB vmap writes 1024 PTEs and 4 table descriptors with
// 4 KiB pages, and 2 blocks and 2 table descriptors with large mappings;
// the cursor keeps the reads to one per leaf after the first.
func TestVmapPricing(t *testing.T) {
	for _, c := range []struct {
		large         bool
		reads, writes int
		tables        int
	}{
		{false, 4 + 511 + 2 + 511, 1024 + 4, 4},
		{true, 3 + 1, 2 + 2, 2},
	} {
		b, _ := mem.NewBuddy(ram, mem.DefaultMaxOrder)
		m := NewMemory()
		port := &FixedPort{Mem: m, Read: 3 * sim.Nanosecond, Write: 5 * sim.Nanosecond}
		k, lin, err := NewKernelSpace(m, b, port, Size4K|Size2M|Size1G)
		require.NoError(t, err)
		assert.Equal(t, 64, lin.Blocks2M)
		_, st, err := k.Vmap(run(P2, 1024), PageKernel, vmapOf(c.large))
		require.NoError(t, err)
		assert.Equal(t, c.reads, st.Reads, "large=%v", c.large)
		assert.Equal(t, c.writes, st.Writes, "large=%v", c.large)
		assert.Equal(t, c.tables, st.Tables, "large=%v", c.large)
		assert.Equal(t, sim.Time(c.reads)*3*sim.Nanosecond+sim.Time(c.writes)*5*sim.Nanosecond, st.Cost)
	}
}
