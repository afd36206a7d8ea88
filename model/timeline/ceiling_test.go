package timeline

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/sim"
)

// A run that records tens of millions of events (none of which coalesce)
// keeps the recorder within its ceiling: MaxEvents events, at most
// MaxKeyframes keyframes, MaxPhases phases, and a heap that does not grow
// with the events past the ceiling; the timeline still ends in the live
// state and replays consistently up to where it stopped.
func TestRecorderMemoryCeiling(t *testing.T) {
	const events = 30_000_000
	r := NewRecorder()
	g := r.AddGrid(GridSpec{ID: "buf", Cells: 65536, CellBytes: 64})
	c := r.AddCache(CacheSpec{ID: "l2", Sets: 16, Ways: 16, TotalSets: 1024})
	v := r.AddValue(ValueSpec{ID: "rwp", Kind: ValuePointer, Grid: g}, 0)
	runtime.GC()
	var before, mid runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := 0; i < events; i++ {
		tm := sim.Time(i)
		switch i % 3 {
		case 0: // scattered cells: never adjacent to the previous event's
			r.Cells(tm, g, (i*7919)%65536, 1, CellState(1+i%5), uint8(i%3))
		case 1:
			r.CacheLine(tm, c, i%256, uint64(i), true, i%2 == 0)
		case 2:
			r.Value(tm, v, int64(i))
		}
		if i%64 == 0 {
			r.Phase(Phase{Lane: "cpu", Kind: "copy", Label: "copy", Start: tm, End: tm + 1})
		}
		if i == 70*MaxPhases { // both ceilings reached
			runtime.GC()
			runtime.ReadMemStats(&mid)
		}
	}
	live := r.Live().Clone()
	tl := r.Finish(events)
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)

	assert.LessOrEqual(t, len(tl.Events), MaxEvents+1)
	assert.LessOrEqual(t, len(tl.Keyframes), MaxKeyframes)
	assert.Len(t, tl.Phases, MaxPhases)
	assert.True(t, tl.PhasesTruncated)
	require.True(t, tl.Truncated)
	assert.Equal(t, sim.Time(MaxEvents), tl.TruncatedAt, "every event up to the ceiling is kept")
	assert.Equal(t, sim.Time(events), tl.End)

	// The heap after the ceiling grew by about the final keyframe only.
	grew := int64(after.HeapAlloc) - int64(mid.HeapAlloc)
	assert.Less(t, grew, int64(8<<20), "heap grew %d MiB after the ceiling", grew>>20)
	total := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	const ceiling = MaxEvents*40 + MaxPhases*64 + (MaxKeyframes+2)*(65536*2+256*24+8)
	assert.Less(t, total, int64(ceiling)*5/4, "recorder heap %d MiB", total>>20)

	// The end shows the final state; the last recorded event replays from
	// the keyframes as a full replay does.
	var got State
	tl.StateAt(len(tl.Events), &got)
	assert.Equal(t, live, got)
	ref := tl.Keyframes[0].State.Clone()
	for _, e := range tl.Events[:MaxEvents] {
		ref.Apply(&e)
	}
	tl.StateAt(MaxEvents, &got)
	assert.Equal(t, ref, got)
	runtime.KeepAlive(tl)
}

// Reserve sizes the event slice once (within the ceiling) and records the
// same timeline as growing it from empty; recording past the reserve
// still works.
func TestRecorderReserve(t *testing.T) {
	record := func(reserve int) *Timeline {
		r := NewRecorder()
		g := r.AddGrid(GridSpec{ID: "buf", Cells: 1024, CellBytes: 64})
		r.Reserve(reserve)
		if reserve > 0 {
			assert.Equal(t, min(reserve, MaxEvents+1), cap(r.tl.Events))
		}
		for i := 0; i < 10_000; i++ {
			r.Cells(sim.Time(i), g, (i*37)%1024, 1, CellState(1+i%4), 0)
		}
		return r.Finish(10_000)
	}
	want := record(0)
	for _, n := range []int{100, 10_000, 50_000} {
		assert.Equal(t, want, record(n), "reserve %d", n)
	}
	r := NewRecorder()
	r.Reserve(10 * MaxEvents)
	assert.Equal(t, MaxEvents+1, cap(r.tl.Events), "never past the ceiling and its closing mark")
	r.Reserve(16)
	assert.Equal(t, MaxEvents+1, cap(r.tl.Events), "a smaller reserve keeps the room")
}
