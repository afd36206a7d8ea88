package timeline

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/sim"
)

// Fills, an eviction and an invalidation read back at each time.
func TestTLBStateAtCursor(t *testing.T) {
	r := NewRecorder()
	k := r.AddTLB(TLBSpec{Name: "l1", Entries: 2, Ways: 2})
	e := func(va uint64) TLBEntryRec {
		return TLBEntryRec{VA: va, PA: va + 0x1000, Bytes: 4096, Owner: 1}
	}
	r.TLBFill(10, k, 0, e(0x1000))
	r.TLBFill(20, k, 1, e(0x2000))
	r.TLBFill(30, k, 0, e(0x3000)) // evicts 0x1000
	r.TLBInvalidateAll(40, k)
	tl := r.Finish(50)
	x := tl.Translation
	require.NotNil(t, x)
	var st TLBState
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
	r := NewRecorder()
	k := r.AddTLB(TLBSpec{Name: "l2", Entries: 64, Ways: 4})
	p := r.AddPointer(PointerSpec{ID: "trbe", Agent: 2})
	n := MaxTLBEvents + 3*TLBKeyEvery
	for i := 0; i < n; i++ {
		ts := sim.Time(i)
		r.TLBFill(ts, k, i%64, TLBEntryRec{VA: uint64(i) << 12, Bytes: 4096})
		if i%8 == 0 {
			r.BeginWalk()
			for l := 0; l < 4; l++ {
				r.WalkStep(WalkStep{T: ts, Level: l})
			}
		}
		r.MovePointer(ts, p, uint64(i)<<12)
		r.MapRun(Mapping{VA: uint64(i) << 12, PA: uint64(2*i) << 12, Bytes: 4096, Leaf: 4096, Chunk: -1})
	}
	x := r.Finish(sim.Time(n)).Translation
	assert.Len(t, x.TLBEvents, MaxTLBEvents)
	assert.Equal(t, n-MaxTLBEvents, x.Dropped)
	assert.LessOrEqual(t, len(x.TLBKeys), MaxTLBKeys)
	assert.LessOrEqual(t, len(x.Walks), MaxWalkSteps)
	assert.Greater(t, x.WalkStride, 1)
	assert.LessOrEqual(t, len(x.Moves), MaxPointerMoves+1)
	assert.LessOrEqual(t, len(x.Mappings), MaxMappings)
	assert.True(t, x.Mappings[len(x.Mappings)-1].Scattered)
	// The last snapshot holds the last fills.
	last := x.TLBKeys[len(x.TLBKeys)-1]
	var st TLBState
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

// The ceilings bound a recording's translation data to about 30 MiB.
func TestTranslationWorstCaseBytes(t *testing.T) {
	worst := MaxMappings*unsafe.Sizeof(Mapping{}) +
		MaxChunks*unsafe.Sizeof(Chunk{}) +
		MaxTLBEvents*unsafe.Sizeof(TLBEvent{}) +
		MaxTLBKeys*MaxTLBEntries*unsafe.Sizeof(TLBEntryRec{}) +
		MaxWalkSteps*unsafe.Sizeof(WalkStep{}) +
		(MaxPointerMoves+1)*unsafe.Sizeof(PointerMove{})
	assert.Less(t, worst, uintptr(31<<20), "%d bytes", worst)
}
