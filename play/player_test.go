package play

import (
	"context"
	"math/rand"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/demo"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

func demoPair(t testing.TB, size string) (*scenario.Result, *scenario.Result) {
	t.Helper()
	s := demo.New()
	p, _ := s.Spec().Defaults()
	require.NoError(t, s.Spec().Set(p, "buffer", size))
	a, err := s.Run(context.Background(), p, demo.PolicyNoncacheable, nil)
	require.NoError(t, err)
	b, err := s.Run(context.Background(), p, demo.PolicyCacheableSync, nil)
	require.NoError(t, err)
	return a, b
}

// reference computes a side's state at the cursor from scratch.
func reference(p *Player, side int) timeline.State {
	var st timeline.State
	tl := p.Result(side).Timeline
	tl.StateAt(tl.EventsUntil(p.SideTime(side)), &st)
	return st
}

func snapshot(p *Player) [2]timeline.State {
	a, b := p.States()
	return [2]timeline.State{a.Clone(), b.Clone()}
}

func TestStepForwardThenBack(t *testing.T) {
	for _, align := range []Align{AlignTime, AlignProgress} {
		p := New(demoPair(t, "4KiB"))
		p.SetAlign(align)
		var trail [][2]timeline.State
		var cursors []sim.Time
		for steps := 0; ; steps++ {
			trail = append(trail, snapshot(p))
			cursors = append(cursors, p.Cursor())
			if !p.StepEvent(1) {
				break
			}
			require.LessOrEqual(t, steps, 10000, "stepping forward never ends")
		}
		require.Equal(t, p.Length(), p.Cursor(), "%v: where stepping forward stopped", align)
		require.GreaterOrEqual(t, len(trail), 100, "%v: steps over a 64-line run", align)
		for i := len(trail) - 1; i >= 0; i-- {
			require.Equal(t, trail[i], snapshot(p), "%v: stepping back to step %d (cursor %v, want %v): states differ", align, i, p.Cursor(), cursors[i])
			for side := A; side <= B; side++ {
				require.Equal(t, reference(p, side), *p.State(side), "%v: step %d side %d differs from a fresh StateAt", align, i, side)
			}
			moved := p.StepEvent(-1)
			require.Equal(t, i > 0, moved, "%v: StepEvent(-1) at step %d moved", align, i)
		}
	}
}

func TestSeekEqualsReplay(t *testing.T) {
	a, b := demoPair(t, "64KiB")
	for _, align := range []Align{AlignTime, AlignProgress} {
		played := New(a, b)
		played.SetAlign(align)
		played.SetSpeed(4)
		played.Play()
		sought := New(a, b)
		sought.SetAlign(align)
		rng := rand.New(rand.NewSource(1))
		for played.Playing() {
			played.Tick(time.Duration(rng.Intn(40)+1) * time.Millisecond)
			played.States() // incremental forward replay
			sought.Seek(played.Cursor())
			for side := A; side <= B; side++ {
				require.Equal(t, *played.State(side), *sought.State(side), "%v: at %v side %d: played and sought states differ", align, played.Cursor(), side)
			}
			// Random jumps on the sought player must not disturb it.
			sought.Seek(sim.Time(rng.Int63n(int64(sought.Length()) + 1)))
			sought.States()
		}
		require.Equal(t, played.Length(), played.Cursor(), "where playback stopped")
	}
}

func TestAlignment(t *testing.T) {
	a, b := demoPair(t, "16KiB")
	p := New(a, b)
	require.Greater(t, a.End, b.End, "expected the Normal-NC run to be longer")
	p.Seek(b.End)
	require.Equal(t, [2]sim.Time{b.End, b.End}, [2]sim.Time{p.SideTime(A), p.SideTime(B)}, "time align: side times A, B")
	p.SetAlign(AlignProgress)
	p.Seek(p.Length() / 2)
	require.InDelta(t, float64(b.End/2), float64(p.SideTime(B)), 1, "progress align: B's time (ps)")
	p.End()
	require.Equal(t, [2]sim.Time{a.End, b.End}, [2]sim.Time{p.SideTime(A), p.SideTime(B)}, "progress align: both sides must end together")
}

func TestNarrationCaptions(t *testing.T) {
	p := New(demoPair(t, "4KiB"))
	s, i, ok := p.Caption(A)
	require.True(t, ok, "caption at start")
	require.Equal(t, 0, i, "caption index at start")
	require.NotEmpty(t, s.Title, "caption title at start")
	var titles []string
	for {
		s, _, _ := p.Caption(B)
		titles = append(titles, s.Title)
		if !p.StepNarration(1) {
			break
		}
	}
	require.GreaterOrEqual(t, len(titles), len(p.Result(B).Narration), "captions of B visited (want all): %q", titles)
	require.Equal(t, "Done", titles[len(titles)-1], "last caption")
	for p.StepNarration(-1) {
	}
	require.Equal(t, sim.Time(0), p.Cursor(), "where narration steps back to")
}

func TestSpeedAndTick(t *testing.T) {
	p := New(demoPair(t, "4KiB"))
	p.SetDwell(false) // the linear map of wall time onto the run; holds: dwell_test.go
	p.SetSpeed(100)
	require.Equal(t, MaxSpeed, p.Speed(), "speed not clamped")
	p.SetSpeed(0)
	p.Play()
	p.Tick(BaseDuration / 2)
	require.InDelta(t, 0.5, p.Progress(), 0.01, "half the base duration at speed 0: share of the run played")
	p.Faster()
	p.Tick(BaseDuration / 4)
	require.Equal(t, 1.0, p.Progress(), "at double speed a quarter more should finish")
	require.False(t, p.Playing(), "at double speed a quarter more should finish: still playing")
	v := p.Version()
	require.False(t, p.Tick(time.Second), "a paused player moved (Tick reports a change)")
	require.Equal(t, v, p.Version(), "a paused player moved (version changed)")
}

func TestNoAllocationWhilePlaying(t *testing.T) {
	p := New(demoPair(t, "64KiB"))
	p.SetSpeed(2)
	p.Play()
	p.Tick(time.Millisecond)
	p.States()
	allocs := testing.AllocsPerRun(200, func() {
		if !p.Playing() {
			p.Seek(0)
			p.Play()
		}
		p.Tick(16 * time.Millisecond)
		p.States()
		p.StepEvent(-1)
		p.StepEvent(1)
		p.Play()
	})
	require.Zero(t, allocs, "allocations per frame")
}

func TestNilResults(t *testing.T) {
	p := New(nil, nil)
	p.Play()
	p.Tick(time.Second)
	p.StepEvent(1)
	p.StepNarration(-1)
	a, b := p.States()
	require.NotNil(t, a, "nil state A")
	require.NotNil(t, b, "nil state B")
	_, _, ok := p.Caption(A)
	require.False(t, ok, "caption without results")
	_, err := ParseAlign("sideways")
	require.Error(t, err, "bad align accepted")
}
