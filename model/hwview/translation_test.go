package hwview_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/hwview"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// A trace port writing a vmapped page list: the adapter sees its TLB
// fills (one-entry L1, shared L2) and its four-level walks.
func TestRecordingTLBsAndWalks(t *testing.T) {
	m, err := platform.New("neoverse-n1", 1)
	require.NoError(t, err)
	r := timeline.NewRecorder()
	rec := hwview.NewRecording(m, r)
	require.True(t, rec.WatchTLBs())
	var pages []uint64
	for i := 0; i < 4; i++ {
		c, err := m.Buddy().Alloc(0)
		require.NoError(t, err)
		_, err = m.Buddy().Alloc(0)
		require.NoError(t, err)
		pages = append(pages, c.PA())
	}
	va, _, err := m.Vmap("aux", pages, mem.Normal, mmu.VmapMainline)
	require.NoError(t, err)
	require.NoError(t, rec.MapBuffer("aux", va, 4*mem.PageSize, nil))
	p, err := m.AddTracePort("trbe_tlb", 2)
	require.NoError(t, err)
	rec.WatchRequester(p.R, "TRBE L1 TLB")
	for i := uint64(0); i < 4; i++ {
		_, err := p.Translate(va+i*mem.PageSize, true, sim.Time(i)*sim.Microsecond)
		require.NoError(t, err)
	}
	x := r.Finish(10 * sim.Microsecond).Translation
	require.NotNil(t, x)
	require.Len(t, x.TLBs, 3)
	require.Len(t, x.Mappings, 4, "scattered pages: one run each")
	for i, mp := range x.Mappings {
		assert.Equal(t, pages[i], mp.PA)
		assert.Equal(t, uint64(timeline.Leaf4K), mp.Leaf)
		assert.Equal(t, "normal-wb", mp.Attr)
	}
	var st timeline.TLBState
	// A fill lands when its walk's last descriptor has arrived.
	for _, e := range x.TLBEvents {
		var last sim.Time
		for _, w := range x.Walks {
			if w.VA == e.Entry.VA && w.T > last {
				last = w.T
			}
		}
		assert.Equal(t, last, e.T, "fill of %#x", e.Entry.VA)
	}
	x.TLBsAt(10*sim.Microsecond, &st)
	trbe := st.Entries[2]
	require.Len(t, trbe, 1)
	assert.Equal(t, va+3*mem.PageSize, trbe[0].VA, "the one-entry TLB holds the last page")
	assert.Equal(t, pages[3], trbe[0].PA)
	assert.True(t, st.Last[2].Evicted)
	valid := 0
	for _, e := range st.Entries[1] {
		if e.Valid {
			valid++
			assert.Equal(t, uint8(2), e.Owner, "L2 entries are the trace unit's")
		}
	}
	assert.Equal(t, 4, valid)
	for _, e := range st.Entries[0] {
		assert.False(t, e.Valid, "the core's L1 TLB saw nothing")
	}
	// The first walk reads all four levels; the last one finds the
	// level-2 table in the walk cache (neoverse-n1 caches levels 1 and 2).
	first, arrived := x.WalkAt(500 * sim.Nanosecond)
	require.Len(t, first, 4)
	assert.Equal(t, 4, arrived)
	for l, s := range first {
		assert.Equal(t, l, s.Level)
		assert.False(t, s.WalkCache)
		want := timeline.DescTable
		if l == 3 {
			want = timeline.DescPage
			assert.Equal(t, pages[0], s.Desc&0xfffffffff000, "the PTE holds the page's address")
		}
		assert.Equal(t, want, s.Kind)
		assert.Equal(t, va, s.VA)
	}
	last, _ := x.WalkAt(10 * sim.Microsecond)
	require.Len(t, last, 2)
	assert.Equal(t, 2, last[0].Level)
	assert.True(t, last[0].WalkCache)
	assert.False(t, last[1].WalkCache)
	assert.Equal(t, pages[3], last[1].Desc&0xfffffffff000)
	assert.Equal(t, 3, last[1].Walk, "the fourth walk")
	assert.Equal(t, va+3*mem.PageSize, last[1].VA)
}

// Past MaxWalkSteps the recorder keeps every 2^k-th walk; the MMU runs the
// others untraced (mmu.MMU.KeepWalk). What is recorded is what recording
// every step and dropping the unkept ones gives.
func TestDeclinedWalksRecordTheSame(t *testing.T) {
	record := func(ask bool) *timeline.Translation {
		m, err := platform.New("neoverse-n1", 1)
		require.NoError(t, err)
		r := timeline.NewRecorder()
		rec := hwview.NewRecording(m, r)
		require.True(t, rec.WatchTLBs())
		if !ask {
			m.MMU().KeepWalk = nil
		}
		const n = 3 * timeline.MaxWalkSteps // scattered pages: a walk each, and sampling
		pages := make([]uint64, n)
		for i := range pages {
			c, err := m.Buddy().Alloc(0)
			require.NoError(t, err)
			_, err = m.Buddy().Alloc(0)
			require.NoError(t, err)
			pages[i] = c.PA()
		}
		va, _, err := m.Vmap("aux", pages, mem.Normal, mmu.VmapMainline)
		require.NoError(t, err)
		p, err := m.AddTracePort("trbe_tlb", 2)
		require.NoError(t, err)
		rec.WatchRequester(p.R, "TRBE L1 TLB")
		at := sim.Time(0)
		for i := uint64(0); i < n; i++ {
			tr, err := p.Translate(va+i*mem.PageSize, true, at)
			require.NoError(t, err)
			at += tr.Cost + sim.Nanosecond
		}
		return r.Finish(at).Translation
	}
	asked, all := record(true), record(false)
	require.Greater(t, all.WalkStride, 1, "walks were sampled")
	assert.Equal(t, all, asked)
}
