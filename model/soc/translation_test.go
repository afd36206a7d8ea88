package soc

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
)

// translating is testConfig with page tables and small TLBs: a 4-entry
// L1 DTLB, a 64-entry 4-way L2 TLB (3 ns), no walk caches unless wc.
func translating(wc bool) func(*Config) {
	return func(c *Config) {
		sizes := mmu.Sizes(4<<10, 64<<10, 2<<20, 1<<30)
		c.TLB = TLBConfig{Enabled: true,
			L1:     mmu.TLBConfig{Entries: 4, Ways: 4, Sizes: sizes},
			L2:     mmu.TLBConfig{Entries: 64, Ways: 4, Sizes: sizes, Hit: 3 * sim.Nanosecond},
			Trace:  mmu.TLBConfig{Entries: 1, Ways: 1, Sizes: sizes},
			Linear: mmu.Size4K | mmu.Size2M | mmu.Size1G}
		if wc {
			c.TLB.Walk.WalkCache = [3]mmu.WalkCacheConfig{{Entries: 4, Ways: 4}, {Entries: 4, Ways: 4}, {Entries: 16, Ways: 4}}
		}
	}
}

// Eight scattered pages vmapped as Normal-NC (dma_alloc_coherent's remap)
// read once each: eight walks of four descriptor reads. The first walk's
// reads miss every cache (DRAM), later walks find the upper levels'
// lines cached; a hot walk cache removes the upper-level reads.
func TestWalkReadsGoThroughTheCaches(t *testing.T) {
	read := func(wc bool) (*Machine, Buffer) {
		m := newMachine(t, translating(wc))
		var pages []uint64
		for i := 0; i < 8; i++ {
			c, err := m.Buddy().Alloc(0)
			require.NoError(t, err)
			_, err = m.Buddy().Alloc(0) // a gap: not contiguous
			require.NoError(t, err)
			pages = append(pages, c.PA())
		}
		b, err := m.MapPages("nc", pages, mem.NormalNC)
		require.NoError(t, err)
		require.GreaterOrEqual(t, b.VA, uint64(mmu.VmallocStart), "an NC alias is a vmap")
		_, err = m.Read(b.VA, b.Size, 8)
		require.NoError(t, err)
		return m, b
	}
	m, _ := read(false)
	assert.Equal(t, uint64(8), m.Count(DTLBWalk))
	assert.Equal(t, uint64(8), m.Count(L1DTLBRefill))
	assert.Equal(t, uint64(8), m.Count(L2DTLBRefill))
	// NC loads do not look up L1D: every l1d_cache is a descriptor read.
	assert.Equal(t, uint64(32), m.Count(L1DCache), "4 descriptor reads per walk")
	// Level 0, 1, 2 lines: one miss each; the 8 PTEs share one line.
	assert.Equal(t, uint64(4), m.Count(L1DCacheRefill))
	assert.Equal(t, uint64(4), m.Count(BusReadLine), "each descriptor line came from DRAM once")

	h, _ := read(true)
	assert.Equal(t, uint64(8), h.Count(DTLBWalk))
	assert.Equal(t, uint64(4+7), h.Count(L1DCache), "a hot walk cache leaves one read (the PTE) per walk")
	assert.Equal(t, uint64(4), h.Count(BusReadLine))
}

// The linear map is block-mapped (2 MiB blocks in 64 MiB of RAM): two
// 1 MiB buffers cost one walk per block they touch, however accessed.
func TestLinearMapBufferWalksOnce(t *testing.T) {
	m := newMachine(t, translating(false))
	b := alloc(t, m, "buf", 1<<20, mem.Normal, false)
	lin, err := m.Kernel().LinearVA(b.Pages[0])
	require.NoError(t, err)
	assert.Equal(t, lin, b.VA)
	dst := alloc(t, m, "dst", 1<<20, mem.Normal, false)
	_, err = m.Copy(dst.VA, b.VA, b.Size, 16)
	require.NoError(t, err)
	_, err = m.DC(CIVAC, b.VA, b.Size)
	require.NoError(t, err)
	blocks := map[uint64]bool{}
	for _, pa := range append(append([]uint64(nil), b.Pages...), dst.Pages...) {
		blocks[pa>>21] = true
	}
	assert.Equal(t, uint64(len(blocks)), m.Count(DTLBWalk), "one walk per 2 MiB block")
	assert.Equal(t, uint64(len(blocks)), m.Count(L2DTLBRefill))
	assert.LessOrEqual(t, len(blocks), 2)
}

// A trace unit's walks refill the shared L2 TLB (l2d_tlb_refill) but are
// never dtlb_walk, and its refills are not l1d_tlb_refill.
func TestTracePortCounts(t *testing.T) {
	m := newMachine(t, translating(false))
	pages, va := scatteredVmap(t, m, 4, "aux")
	p, err := m.AddTracePort("trbe", 9)
	require.NoError(t, err)
	l1 := m.Count(L1DCache)
	for i := uint64(0); i < 4; i++ {
		tr, err := p.Translate(va+i*mem.PageSize, true, m.Now())
		require.NoError(t, err)
		assert.Equal(t, pages[i], tr.PA)
	}
	assert.Equal(t, uint64(0), m.Count(DTLBWalk))
	assert.Equal(t, uint64(0), m.Count(L1DTLBRefill))
	assert.Equal(t, uint64(4), m.Count(L2DTLBRefill))
	assert.Equal(t, uint64(4), p.R.Stats.Walks)
	assert.Equal(t, l1+16, m.Count(L1DCache), "its walks read through the core's L1D")
	// The core now finds those pages in the L2 TLB: no walk of its own.
	_, err = m.Read(va, 4*mem.PageSize, 8)
	require.NoError(t, err)
	assert.Equal(t, uint64(0), m.Count(DTLBWalk))
	assert.Equal(t, uint64(4), m.Count(L1DTLBRefill))
}

// The copy loop keeps a translation for the rest of its TLB entry; a
// loop that translates every access (16-byte loads and stores, one DC op
// per line) gives the same machine.
func TestFastPathMatchesPerAccessTranslation(t *testing.T) {
	run := func(perAccess uint64) *Machine {
		m := newMachine(t, translating(false))
		m.x.perAccess = perAccess
		_, err := m.Buddy().Fragment(m.RNG(), 0.3)
		require.NoError(t, err)
		src, err := m.AllocChunks("src", 256<<10, mem.Normal, 2) // a page list
		require.NoError(t, err)
		dst := alloc(t, m, "dst", 256<<10, mem.Normal, true)
		nc, err := m.Alias(dst, "dst-nc", mem.NormalNC)
		require.NoError(t, err)
		_, err = m.Copy(dst.VA+8, src.VA+24, 200<<10, 16)
		require.NoError(t, err)
		_, err = m.Read(nc.VA, 16<<10, 8)
		require.NoError(t, err)
		if perAccess != 0 {
			m.x.perAccess = 64 // a DC op is one access per line
		}
		_, err = m.DC(CIVAC, src.VA, src.Size)
		require.NoError(t, err)
		return m
	}
	fast, slow := run(0), run(16)
	assert.NotZero(t, fast.Count(DTLBWalk))
	for _, c := range []Counter{L1DTLBRefill, L2DTLBRefill, DTLBWalk, L1DCache, L1DCacheRefill, L2DCache, L2DCacheRefill,
		BusAccess, MemAccess, DCOps, BusReadLine, BusWriteLine, BusReadNC} {
		assert.Equal(t, fast.Count(c), slow.Count(c), c.Name())
	}
	// The time differs by a few ns out of 267 us: the per-access loop
	// issues a line's loads in 16-byte pieces (the per-line path's MLP
	// slot is taken at a slightly different moment), not a translation.
	assert.InEpsilon(t, float64(fast.Now()), float64(slow.Now()), 1e-4)
	assert.Greater(t, slow.CoreTLB().Stats.Translations, 10*fast.CoreTLB().Stats.Translations, "the slow loop translated far more often")
}

func TestTLBConfigErrors(t *testing.T) {
	for _, c := range []struct {
		mut  func(*TLBConfig)
		want string
	}{
		{func(t *TLBConfig) { t.L1.Entries = 0 }, "tlb.l1.entries"},
		{func(t *TLBConfig) { t.L2.Ways = 3 }, "tlb.l2.ways"},
		{func(t *TLBConfig) { t.Trace.Sizes = 0 }, "tlb.trace.sizes"},
		{func(t *TLBConfig) { t.Linear = mmu.Size2M }, "tlb.linear"},
	} {
		cfg := testConfig()
		translating(false)(&cfg)
		c.mut(&cfg.TLB)
		_, err := New(cfg, 1)
		require.Error(t, err)
		assert.Contains(t, err.Error(), c.want)
	}
}

// The instruction side's L1 TLB refills from the same L2 TLB: its walks
// are l2d_tlb_refill (the L2 TLB is unified: L2D_TLB_REFILL counts
// instruction fetch too) but never dtlb_walk, and its refills are not
// l1d_tlb_refill. A preset without tlb.l1i has no fetch port.
func TestFetchPortCounts(t *testing.T) {
	m := newMachine(t, translating(false))
	_, err := m.FetchPort(1)
	require.ErrorContains(t, err, "tlb.l1i")
	m = newMachine(t, func(c *Config) {
		translating(false)(c)
		c.TLB.L1I = mmu.TLBConfig{Entries: 2, Ways: 2, Sizes: c.TLB.L1.Sizes}
	})
	_, va := scatteredVmap(t, m, 3, "text")
	f, err := m.FetchPort(1)
	require.NoError(t, err)
	for pass := 0; pass < 2; pass++ {
		for i := uint64(0); i < 3; i++ {
			_, err := f.TranslateCost(va+i*mem.PageSize, false, m.Now())
			require.NoError(t, err)
		}
	}
	assert.Equal(t, uint64(3), m.Count(L2DTLBRefill), "three pages, walked once each")
	assert.Equal(t, uint64(6), f.R.L1.Stats.Refills, "three pages through two entries: every fetch refills")
	assert.Equal(t, uint64(3), f.R.Stats.Walks)
	assert.Zero(t, m.Count(DTLBWalk))
	assert.Zero(t, m.Count(L1DTLBRefill))
	m.InvalidateTLBs()
	assert.Empty(t, f.R.L1.Entries(), "TLBI VMALLE1 empties the instruction side too")
}

// scatteredVmap vmaps n order-0 pages with a free page between each two
// (not physically consecutive) as buffer name, with 4 KiB PTEs.
func scatteredVmap(t *testing.T, m *Machine, n int, name string) ([]uint64, uint64) {
	t.Helper()
	var pages []uint64
	for range n {
		c, err := m.Buddy().Alloc(0)
		require.NoError(t, err)
		_, err = m.Buddy().Alloc(0)
		require.NoError(t, err)
		pages = append(pages, c.PA())
	}
	va, _, err := m.Vmap(name, pages, mem.Normal, mmu.VmapMainline)
	require.NoError(t, err)
	return pages, va
}
