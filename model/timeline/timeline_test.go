package timeline

import (
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/sim"
)

// Seeking to any event count through keyframes must give the same state as
// replaying every event from the start, including after keyframe thinning.
func TestStateAtMatchesFullReplay(t *testing.T) {
	for _, seed := range []int64{1, 2, 3} {
		rng := rand.New(rand.NewSource(seed))
		r := NewRecorder()
		r.keyEvery = 7
		g := r.AddGrid(GridSpec{ID: "buf", Cells: 50, CellBytes: 64})
		c := r.AddCache(CacheSpec{ID: "l1d", Sets: 4, Ways: 2, TotalSets: 4})
		v := r.AddValue(ValueSpec{ID: "rwp", Kind: ValuePointer, Grid: g}, 0)
		s := r.AddSpan(SpanSpec{ID: "sync", Grid: g})
		initial := r.Live().Clone()
		n := 3000
		for i := 0; i < n; i++ {
			tm := sim.Time(i * 10)
			switch rng.Intn(4) {
			case 0:
				r.Cells(tm, g, rng.Intn(60)-5, rng.Intn(10)+1, CellState(rng.Intn(int(NumCellStates))), uint8(rng.Intn(3)))
			case 1:
				r.CacheLine(tm, c, rng.Intn(8), uint64(rng.Intn(1000)), rng.Intn(2) == 0, rng.Intn(2) == 0)
			case 2:
				r.Value(tm, v, int64(rng.Intn(50)))
			case 3:
				r.Span(tm, s, rng.Intn(50), rng.Intn(20))
			}
		}
		tl := r.Finish(sim.Time(n * 10))
		require.False(t, len(tl.Keyframes) > MaxKeyframes, "seed %d: %d keyframes, limit %d", seed, len(tl.Keyframes), MaxKeyframes)
		require.False(t, len(tl.Keyframes) < 2, "seed %d: only %d keyframes", seed, len(tl.Keyframes))
		ref := initial.Clone()
		var got State
		for i := 0; i <= len(tl.Events); i++ {
			if i > 0 {
				ref.Apply(&tl.Events[i-1])
			}
			if i%37 != 0 && i != len(tl.Events) {
				continue
			}
			tl.StateAt(i, &got)
			require.Equal(t, ref, got, "seed %d: state after %d events differs from replay", seed, i)
		}
	}
}

func TestEventsUntil(t *testing.T) {
	r := NewRecorder()
	g := r.AddGrid(GridSpec{Cells: 4})
	for i, tm := range []sim.Time{5, 5, 10, 20} {
		r.Cells(tm, g, i, 1, CellCopied, 1)
	}
	tl := r.Finish(30)
	for _, c := range []struct {
		t    sim.Time
		want int
	}{{0, 0}, {5, 2}, {9, 2}, {10, 3}, {25, 4}} {
		{
			got := tl.EventsUntil(c.t)
			assert.Equal(t, c.want, got, "EventsUntil(%d) = %d, want %d", c.t, got, c.want)
		}
	}
}
