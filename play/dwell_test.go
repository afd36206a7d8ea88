package play

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// stepsAt is a run of length end whose narration steps start at ts, each
// with a text of n characters.
func stepsAt(end sim.Time, n int, ts ...sim.Time) *scenario.Result {
	r := &scenario.Result{End: end, Timeline: &timeline.Timeline{End: end}}
	for i, t := range ts {
		text := fmt.Sprintf("%-*s", n, fmt.Sprintf("step %d", i+1))
		r.Narration = append(r.Narration, scenario.Step{T: t, Title: fmt.Sprint(i + 1), Text: text})
	}
	return r
}

// shown plays p from the start in frames of frame and returns, per side,
// how long each narration step was the current one, the order in which
// steps came on screen, and the wall time the run took.
func shown(t *testing.T, p *Player, frame time.Duration) (on [2]map[int]time.Duration, order [2][]int, total time.Duration) {
	t.Helper()
	p.Start()
	p.Play()
	on = [2]map[int]time.Duration{{}, {}}
	for {
		for side := A; side <= B; side++ {
			if _, i, ok := p.Caption(side); ok {
				if o := order[side]; len(o) == 0 || o[len(o)-1] != i {
					order[side] = append(order[side], i)
				}
				on[side][i] += frame
			}
		}
		if !p.Playing() {
			return on, order, total
		}
		p.Tick(frame)
		total += frame
		require.Less(t, total, time.Hour, "playback never ends")
	}
}

// Steps 1 ns apart in a 38.8 µs run (etr's barrier packet and copy) each
// stay on screen for their dwell at ×1, in order, none skipped; two steps
// of one side that start together are shown one after the other; the
// whole run takes PlayTime, bounded by the base duration and the dwells.
func TestEveryStepStaysItsDwell(t *testing.T) {
	const frame = 16 * time.Millisecond
	a := stepsAt(38_840_000, 200, 0, 7_041_000, 7_042_000, 7_043_000, 7_043_000, 7_044_000, 38_840_000)
	b := stepsAt(19_260_000, 60, 0, 7_041_000, 7_041_001, 12_000_000)
	for _, speed := range []int{0, 1, 3} {
		p := New(a, b)
		p.SetSpeed(speed)
		if speed == 1 {
			p.SetAlign(AlignProgress)
		}
		f := time.Duration(1 << speed)
		on, order, total := shown(t, p, frame)
		for side, r := range []*scenario.Result{a, b} {
			var want []int
			for i := range r.Narration {
				want = append(want, i)
			}
			require.Equal(t, want, order[side], "x%d side %d: the steps shown, in order", f, side)
			for i, s := range r.Narration {
				if s.T == p.end(side) && side == A {
					continue // playback stops on the last step
				}
				assert.GreaterOrEqual(t, on[side][i], Dwell(s)/f-frame, "x%d side %d step %d at %v: time on screen", f, side, i+1, s.T)
			}
		}
		var dwells time.Duration
		for _, r := range []*scenario.Result{a, b} {
			for _, s := range r.Narration {
				dwells += Dwell(s)
			}
		}
		assert.InDelta(t, float64(p.PlayTime()), float64(total), float64(frame), "x%d: PlayTime against the time played", f)
		assert.LessOrEqual(t, total, (BaseDuration+dwells)/f+frame, "x%d: the run's playing time", f)
		assert.Greater(t, total, BaseDuration/f+4*Dwell(a.Narration[1])/f, "x%d: the run's playing time (held less than the four steps close together need)", f)
	}
}

// Steps already further apart than their dwell are not held: the run
// plays in the base duration, as without holds; slower speeds do not
// lengthen a hold.
func TestHoldsOnlyTopUp(t *testing.T) {
	r := stepsAt(10_000_000, 50, 0, 4_000_000, 7_000_000, 10_000_000)
	p := New(r, r)
	assert.Equal(t, BaseDuration, p.PlayTime(), "a run with steps 3 s apart at x1")
	_, _, total := shown(t, p, 10*time.Millisecond)
	assert.InDelta(t, float64(BaseDuration), float64(total), float64(10*time.Millisecond), "played for")

	close := stepsAt(10_000_000, 50, 0, 5_000_000, 5_000_001, 10_000_000)
	p = New(close, nil)
	x1 := p.PlayTime() - BaseDuration
	require.InDelta(t, float64(DwellMin), float64(x1), float64(time.Millisecond), "holds at x1 for two steps 1 ps apart: the first's dwell")

	// A's step at 5 µs is on screen while playback holds at B's, 1 ps
	// later: it needs no hold of its own.
	a := stepsAt(10_000_000, 50, 0, 5_000_000, 5_000_002, 10_000_000)
	b := stepsAt(10_000_000, 50, 0, 5_000_001, 5_000_003)
	p = New(a, b)
	assert.InDelta(t, float64(BaseDuration+DwellMin), float64(p.PlayTime()), float64(time.Millisecond), "playing time with steps of A and B 1 ps apart")
	on, _, _ := shown(t, p, 10*time.Millisecond)
	assert.GreaterOrEqual(t, on[A][1], DwellMin-10*time.Millisecond, "A's step at 5 µs on screen")
	assert.GreaterOrEqual(t, on[B][1], DwellMin-10*time.Millisecond, "B's step at 5 µs + 1 ps on screen")

	p = New(close, nil)
	p.SetSpeed(-2)
	assert.LessOrEqual(t, p.PlayTime()-4*BaseDuration, x1, "holds at ÷4 against x1")
	p.SetDwell(false)
	assert.Equal(t, 4*BaseDuration, p.PlayTime(), "without holds, at ÷4")
}

// Seeking, scrubbing and stepping never hold: the cursor moves on at the
// next frame.
func TestNoHoldWhenSeekingOrStepping(t *testing.T) {
	r := stepsAt(38_840_000, 300, 0, 7_041_000, 7_042_000, 7_043_000, 38_840_000)
	p := New(r, nil)
	p.Play()
	require.True(t, p.Holding(), "playing from the start holds at the first step")
	for _, c := range []sim.Time{7_041_000, 7_042_000, 7_000_000, 7_041_500} { // a scrub over the steps
		p.Seek(c)
		assert.False(t, p.Holding(), "holding after a seek to %v", c)
		p.Tick(16 * time.Millisecond)
		assert.Greater(t, p.Cursor(), c, "the cursor after a seek to %v and a frame", c)
	}
	p.Seek(7_042_000)
	p.Pause()
	p.Tick(time.Second)
	require.Equal(t, sim.Time(7_042_000), p.Cursor(), "a paused player moved")

	p.Start()
	require.True(t, p.StepNarration(1), "step to step 2")
	require.Equal(t, sim.Time(7_041_000), p.Cursor(), "step 2's time")
	p.Play()
	p.Tick(16 * time.Millisecond) // moves off step 2 and reaches step 3, 1 ns on
	assert.True(t, p.Holding(), "holding when playback reaches the next step")
	assert.Equal(t, sim.Time(7_042_000), p.Cursor(), "where playback holds, a frame after playing from a stepped-to step")
	p.StepNarration(-1)
	assert.False(t, p.Holding(), "holding after a step back")
}

// The step buttons visit every step, including two of one side that start
// at the same time (etr's "full" and "stop" at the paper size), forward
// and back.
func TestStepNarrationVisitsTiedSteps(t *testing.T) {
	a := stepsAt(12_000_000, 10, 0, 4_194_314, 4_194_314, 4_195_207, 12_000_000)
	b := stepsAt(7_000_000, 10, 0, 4_194_314, 5_000_000)
	p := New(a, b)
	type seen struct {
		c    sim.Time
		a, b int
	}
	at := func() seen {
		_, i, _ := p.Caption(A)
		_, j, _ := p.Caption(B)
		return seen{p.Cursor(), i, j}
	}
	var fwd []seen
	for {
		fwd = append(fwd, at())
		if !p.StepNarration(1) {
			break
		}
	}
	assert.Equal(t, []seen{{0, 0, 0}, {4_194_314, 1, 1}, {4_194_314, 2, 1}, {4_195_207, 3, 1}, {5_000_000, 3, 2}, {12_000_000, 4, 2}}, fwd, "stepping forward")
	for i := len(fwd) - 1; i > 0; i-- {
		require.True(t, p.StepNarration(-1), "step back from %v", fwd[i])
		assert.Equal(t, fwd[i-1], at(), "stepping back")
	}
	assert.False(t, p.StepNarration(-1), "stepped back before the start")
	p.Seek(4_194_314)
	assert.Equal(t, seen{4_194_314, 2, 1}, at(), "a seek shows the later of two tied steps")
}

// Every scenario at both sizes: each step of either side stays on screen
// for its dwell at x1 (the last until the end), and the run plays within
// the base duration and its steps' dwells. The figures are logged.
func TestEveryScenarioStepIsReadable(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every scenario at its paper size")
	}
	const frame = 16 * time.Millisecond
	for _, s := range catalog.Registry().All() {
		spec := s.Spec()
		for _, size := range []scenario.Size{scenario.SizeLesson, scenario.SizePaper} {
			params, err := spec.SizeParams(size)
			require.NoError(t, err)
			a, b, err := scenario.RunPair(context.Background(), s, params, spec.DefaultA, spec.DefaultB, nil, nil)
			require.NoError(t, err, "%s %v", spec.ID, size)
			p := New(a, b)
			on, order, total := shown(t, p, frame)
			var dwells time.Duration
			for side, r := range []*scenario.Result{a, b} {
				require.Len(t, order[side], len(r.Narration), "%s %v side %d: steps shown %v", spec.ID, size, side, order[side])
				for i, st := range r.Narration {
					dwells += Dwell(st)
					if i < len(r.Narration)-1 {
						assert.GreaterOrEqual(t, on[side][i], Dwell(st)-frame, "%s %v side %d step %d %q: time on screen", spec.ID, size, side, i+1, st.Title)
					}
				}
			}
			assert.LessOrEqual(t, total, BaseDuration+dwells, "%s %v: playing time at x1", spec.ID, size)
			t.Logf("%-12s %-6v at x1: %5.1f s (%d + %d steps)", spec.ID, size, total.Seconds(), len(a.Narration), len(b.Narration))
		}
	}
}
