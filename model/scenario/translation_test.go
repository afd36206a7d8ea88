package scenario_test

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
)

// Fills, an eviction and an invalidation read back at each time.
func TestTLBStateAtCursor(t *testing.T) {
	r := scenario.NewRecorder()
	k := r.AddTLB(scenario.TLBSpec{Name: "l1", Entries: 2, Ways: 2})
	e := func(va uint64) scenario.TLBEntryRec {
		return scenario.TLBEntryRec{VA: va, PA: va + 0x1000, Bytes: 4096, Owner: 1}
	}
	r.TLBFill(10, k, 0, e(0x1000))
	r.TLBFill(20, k, 1, e(0x2000))
	r.TLBFill(30, k, 0, e(0x3000)) // evicts 0x1000
	r.TLBInvalidateAll(40, k)
	tl := r.Finish(50)
	x := tl.Translation
	require.NotNil(t, x)
	var st scenario.TLBState
	x.TLBsAt(5, &st)
	assert.False(t, st.Entries[k][0].Valid)
	assert.Equal(t, -1, st.Last[k].Index)
	x.TLBsAt(25, &st)
	assert.Equal(t, uint64(0x1000), st.Entries[k][0].VA)
	assert.Equal(t, uint64(0x2000), st.Entries[k][1].VA)
	assert.Equal(t, 1, st.Last[k].Index)
	assert.False(t, st.Last[k].Evicted)
	x.TLBsAt(30, &st)
	assert.Equal(t, uint64(0x3000), st.Entries[k][0].VA)
	assert.True(t, st.Last[k].Evicted)
	assert.Equal(t, uint64(0x1000), st.Last[k].Old.VA)
	x.TLBsAt(45, &st)
	assert.False(t, st.Entries[k][0].Valid)
	assert.False(t, st.Entries[k][1].Valid)
}

// Past the ceilings the data stays bounded and the state at a late time
// is still the live one at snapshot times.
func TestTranslationCeilings(t *testing.T) {
	r := scenario.NewRecorder()
	k := r.AddTLB(scenario.TLBSpec{Name: "l2", Entries: 64, Ways: 4})
	p := r.AddPointer(scenario.PointerSpec{ID: "trbe", Agent: 2})
	n := scenario.MaxTLBEvents + 3*scenario.TLBKeyEvery
	for i := 0; i < n; i++ {
		ts := sim.Time(i)
		r.TLBFill(ts, k, i%64, scenario.TLBEntryRec{VA: uint64(i) << 12, Bytes: 4096})
		if i%8 == 0 {
			r.BeginWalk()
			for l := 0; l < 4; l++ {
				r.WalkStep(scenario.WalkStep{T: ts, Level: l})
			}
		}
		r.MovePointer(ts, p, uint64(i)<<12)
		r.MapRun(scenario.Mapping{VA: uint64(i) << 12, PA: uint64(2*i) << 12, Bytes: 4096, Leaf: 4096, Chunk: -1})
	}
	x := r.Finish(sim.Time(n)).Translation
	assert.Len(t, x.TLBEvents, scenario.MaxTLBEvents)
	assert.Equal(t, n-scenario.MaxTLBEvents, x.Dropped)
	assert.LessOrEqual(t, len(x.TLBKeys), scenario.MaxTLBKeys)
	assert.LessOrEqual(t, len(x.Walks), scenario.MaxWalkSteps)
	assert.Greater(t, x.WalkStride, 1)
	assert.LessOrEqual(t, len(x.Moves), scenario.MaxPointerMoves+1)
	assert.LessOrEqual(t, len(x.Mappings), scenario.MaxMappings)
	assert.True(t, x.Mappings[len(x.Mappings)-1].Scattered)
	// The last snapshot holds the last fills.
	last := x.TLBKeys[len(x.TLBKeys)-1]
	var st scenario.TLBState
	x.TLBsAt(last.T, &st)
	assert.Equal(t, last.Entries[k], st.Entries[k])
	// Right at a snapshot the last fill is still known.
	require.GreaterOrEqual(t, st.Last[k].Index, 0)
	assert.Equal(t, last.T, st.Last[k].T)
	// Walks are whole (4 steps each) after thinning.
	steps, arrived := x.WalkAt(sim.Time(n))
	assert.Len(t, steps, 4)
	assert.Equal(t, 4, arrived)
	va, ok := x.PointerAt(p, sim.Time(n))
	require.True(t, ok)
	assert.Greater(t, va, uint64(n/2)<<12)
}

// A trace port writing a vmapped page list: the adapter sees its TLB
// fills (one-entry L1, shared L2) and its four-level walks.
func TestRecordingTLBsAndWalks(t *testing.T) {
	m, err := platform.New("neoverse-n1", 1)
	require.NoError(t, err)
	r := scenario.NewRecorder()
	rec := scenario.NewRecording(m, r)
	require.True(t, rec.WatchTLBs())
	var pages []uint64
	for i := 0; i < 4; i++ {
		c, err := m.Buddy().Alloc(0)
		require.NoError(t, err)
		_, err = m.Buddy().Alloc(0)
		require.NoError(t, err)
		pages = append(pages, c.PA())
	}
	va, _, err := m.Vmap("aux", pages, mem.Normal, false)
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
		assert.Equal(t, uint64(scenario.Leaf4K), mp.Leaf)
		assert.Equal(t, "normal-wb", mp.Attr)
	}
	var st scenario.TLBState
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
		want := scenario.DescTable
		if l == 3 {
			want = scenario.DescPage
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

// The ceilings bound a recording's translation data to about 30 MiB.
func TestTranslationWorstCaseBytes(t *testing.T) {
	worst := scenario.MaxMappings*unsafe.Sizeof(scenario.Mapping{}) +
		scenario.MaxChunks*unsafe.Sizeof(scenario.Chunk{}) +
		scenario.MaxTLBEvents*unsafe.Sizeof(scenario.TLBEvent{}) +
		scenario.MaxTLBKeys*scenario.MaxTLBEntries*unsafe.Sizeof(scenario.TLBEntryRec{}) +
		scenario.MaxWalkSteps*unsafe.Sizeof(scenario.WalkStep{}) +
		(scenario.MaxPointerMoves+1)*unsafe.Sizeof(scenario.PointerMove{})
	assert.Less(t, worst, uintptr(31<<20), "%d bytes", worst)
}

// Past MaxWalkSteps the recorder keeps every 2^k-th walk; the MMU runs the
// others untraced (mmu.MMU.KeepWalk). What is recorded is what recording
// every step and dropping the unkept ones gives.
func TestDeclinedWalksRecordTheSame(t *testing.T) {
	record := func(ask bool) *scenario.Translation {
		m, err := platform.New("neoverse-n1", 1)
		require.NoError(t, err)
		r := scenario.NewRecorder()
		rec := scenario.NewRecording(m, r)
		require.True(t, rec.WatchTLBs())
		if !ask {
			m.MMU().KeepWalk = nil
		}
		const n = 3 * scenario.MaxWalkSteps // scattered pages: a walk each, and sampling
		pages := make([]uint64, n)
		for i := range pages {
			c, err := m.Buddy().Alloc(0)
			require.NoError(t, err)
			_, err = m.Buddy().Alloc(0)
			require.NoError(t, err)
			pages[i] = c.PA()
		}
		va, _, err := m.Vmap("aux", pages, mem.Normal, false)
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
