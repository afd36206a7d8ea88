package control

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// spin is work that runs as a model does, forever or limit quanta of work
// (side 0 then 1), through a pacer bound to the run's context that calls
// hook, until the pacer says stop; it records what it was told.
type spin struct {
	started, stopped chan struct{}
	delivered        chan bool
	calls            atomic.Int64
	err              error
}

func newSpin() *spin {
	return &spin{started: make(chan struct{}), stopped: make(chan struct{}), delivered: make(chan bool, 1)}
}

func (s *spin) work(limit int64) RunWork {
	return func(ctx context.Context, hook func(int, float64) error) func(bool) {
		close(s.started)
		side := 0
		pace := scenario.NewPacer(func(done float64) error { return hook(side, done) }).Bind(ctx)
		pace.Plan(max(limit, 100) * scenario.PaceQuantum)
		for i := int64(0); limit == 0 || i < limit; i++ {
			if limit > 0 && i >= limit/2 {
				side = 1
			}
			if err := pace.Work(scenario.PaceQuantum); err != nil { // one hook call each
				s.err = err
				break
			}
			s.calls.Add(1)
			time.Sleep(50 * time.Microsecond)
		}
		close(s.stopped)
		return func(show bool) { s.delivered <- show }
	}
}

func waitClosed(t *testing.T, ch chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		require.Fail(t, what+" did not happen within 5 s")
	}
}

func TestRunFinishesAndDelivers(t *testing.T) {
	c := New()
	var yields atomic.Int64
	c.SetYield(func() { yields.Add(1) }, time.Millisecond)
	s := newSpin()
	gen := c.StartRun(s.work(200))
	assert.Equal(t, uint64(1), gen)
	waitClosed(t, s.stopped, "the run's end")
	assert.True(t, <-s.delivered, "a finished run's results are shown")
	require.Eventually(t, func() bool { return !c.Run().Running }, 5*time.Second, time.Millisecond)
	st := c.Run()
	assert.Equal(t, 1.0, st.Done)
	assert.Equal(t, 1, st.Side)
	assert.False(t, st.Canceled)
	assert.NoError(t, s.err)
	assert.Equal(t, int64(200), s.calls.Load())
	assert.GreaterOrEqual(t, yields.Load(), int64(3), "gives way before, during (1 ms slices) and after the run")
	assert.Equal(t, yields.Load(), int64(st.Yields))
}

func TestNewerRunSupersedesTheRunningOne(t *testing.T) {
	c := New()
	c.SetYield(nil, time.Millisecond)
	old := newSpin()
	c.StartRun(old.work(0)) // would run forever
	waitClosed(t, old.started, "the first run's start")
	require.Eventually(t, func() bool { return old.calls.Load() > 10 }, 5*time.Second, time.Millisecond)
	assert.True(t, c.Run().Running)

	newer := newSpin()
	var overlapped atomic.Bool
	work := newer.work(100)
	gen := c.StartRun(func(ctx context.Context, hook func(int, float64) error) func(bool) {
		select {
		case <-old.stopped:
		default:
			overlapped.Store(true)
		}
		return work(ctx, hook)
	})
	waitClosed(t, old.stopped, "the superseded run's stop")
	assert.ErrorIs(t, old.err, scenario.ErrCanceled)
	assert.False(t, <-old.delivered, "a superseded run's results are discarded")
	waitClosed(t, newer.stopped, "the newer run's end")
	assert.False(t, overlapped.Load(), "the newer run started before the older one stopped")
	assert.True(t, <-newer.delivered)
	assert.True(t, c.Current(gen))
	assert.False(t, c.Current(gen-1))
	require.Eventually(t, func() bool { return !c.Run().Running }, 5*time.Second, time.Millisecond)
	assert.False(t, c.Run().Canceled, "superseding is not a cancel")
}

func TestCancelStopsTheRunAndKeepsThePreviousResults(t *testing.T) {
	c := New()
	c.SetYield(nil, time.Millisecond)
	s := newSpin()
	c.StartRun(s.work(0))
	waitClosed(t, s.started, "the run's start")
	c.CancelRun()
	waitClosed(t, s.stopped, "the run's stop")
	assert.ErrorIs(t, s.err, scenario.ErrCanceled)
	assert.False(t, <-s.delivered)
	require.Eventually(t, func() bool { return !c.Run().Running }, 5*time.Second, time.Millisecond)
	assert.True(t, c.Run().Canceled)
	assert.True(t, Canceled(s.err))

	// The next run clears the flag.
	next := newSpin()
	c.StartRun(next.work(10))
	waitClosed(t, next.stopped, "the next run")
	assert.True(t, <-next.delivered)
	require.Eventually(t, func() bool { return !c.Run().Running }, 5*time.Second, time.Millisecond)
	assert.False(t, c.Run().Canceled)
}

func TestRunProgressNotifiesThePanel(t *testing.T) {
	c := New()
	c.SetYield(nil, time.Hour)
	var full, run atomic.Int64
	c.OnChange(func(ch Change) {
		switch ch {
		case ChangeFull:
			full.Add(1)
		case ChangeRun:
			run.Add(1)
		}
	})
	s := newSpin()
	c.StartRun(s.work(400))
	waitClosed(t, s.stopped, "the run's end")
	<-s.delivered
	require.Eventually(t, func() bool { return !c.Run().Running }, 5*time.Second, time.Millisecond)
	assert.GreaterOrEqual(t, full.Load(), int64(2), "the side change and the end re-render the panel")
	assert.GreaterOrEqual(t, run.Load(), int64(1), "progress updates the bar")
	assert.Less(t, run.Load(), int64(50), "progress notes are throttled")
}

func TestRunStateSaysWhetherResultsWereShown(t *testing.T) {
	c := New()
	assert.True(t, c.Run().First, "before any results the stage has nothing to play")
	c.SetResults(demoResults(t))
	assert.False(t, c.Run().First, "after results the stage plays them while a run computes")
}

// TestTheSweepWaitsForTheRunAndANewerRunCancelsIt: the headline sweep goes
// through the same runner: asked for while a run delivers, it starts when
// that run has ended; it leaves the run's state (number, progress, time)
// alone; a newer run cancels it, and a sweep asked for during a run that
// is then superseded never starts.
func TestTheSweepWaitsForTheRunAndANewerRunCancelsIt(t *testing.T) {
	c := New()
	c.SetYield(nil, time.Millisecond)
	main, sweep := newSpin(), newSpin()
	mainWork := main.work(100)
	gen := c.StartRun(func(ctx context.Context, hook func(int, float64) error) func(bool) {
		deliver := mainWork(ctx, hook)
		return func(show bool) {
			c.StartSweep(sweep.work(0)) // as the page does on new results
			assert.False(t, c.Run().Sweeping, "the sweep started before the run ended")
			deliver(show)
		}
	})
	assert.True(t, <-main.delivered)
	waitClosed(t, sweep.started, "the sweep's start")
	st := c.Run()
	assert.True(t, st.Sweeping)
	assert.False(t, st.Running, "the sweep shows as a main run")
	assert.Equal(t, gen, st.Gen, "the sweep took a run's number")
	assert.Equal(t, 1.0, st.Done, "the sweep moved the run's progress")
	c.CancelRun()
	assert.True(t, c.Run().Sweeping, "Cancel (of a main run) stopped the sweep")

	next := newSpin()
	c.StartRun(next.work(0)) // runs until canceled
	waitClosed(t, sweep.stopped, "the sweep's stop")
	assert.ErrorIs(t, sweep.err, scenario.ErrCanceled)
	assert.False(t, <-sweep.delivered, "a canceled sweep's chart is shown")
	assert.False(t, c.Run().Sweeping)

	// A sweep asked for during a run that is superseded never starts.
	late := newSpin()
	c.StartSweep(late.work(10))
	last := newSpin()
	c.StartRun(last.work(10))
	assert.True(t, <-last.delivered)
	require.Eventually(t, func() bool { return !c.Run().Running }, 5*time.Second, time.Millisecond)
	select {
	case <-late.started:
		t.Fatal("a sweep asked for before a newer run started after it")
	case <-time.After(50 * time.Millisecond):
	}
}

// TestARunOfBAloneSaysB: a run that simulates B alone shows B from its
// start, and its progress is B's alone.
func TestARunOfBAloneSaysB(t *testing.T) {
	c := New()
	c.SetYield(nil, time.Hour)
	started, release := make(chan struct{}), make(chan struct{})
	reported, finish := make(chan struct{}), make(chan struct{})
	c.StartRunSides([2]bool{false, true}, func(ctx context.Context, hook func(int, float64) error) func(bool) {
		close(started)
		<-release
		_ = hook(1, 0.5)
		close(reported)
		<-finish // the run stays in progress until the test has read it
		return nil
	})
	assert.Equal(t, 1, c.Run().Side, "before its first progress")
	<-started
	close(release)
	<-reported
	assert.Equal(t, 0.5, c.Run().Done, "half of B is half of the run")
	close(finish)
}

// TestTheErrorBarsGoThroughTheRunner: the error bars asked for during a
// run start when it has ended, report their progress as BandsDone, stop on
// CancelBands without touching the main run's state, and a newer run
// cancels them, or drops them before they start.
func TestTheErrorBarsGoThroughTheRunner(t *testing.T) {
	c := New()
	c.SetYield(nil, time.Millisecond)
	main, bars := newSpin(), newSpin()
	gen := c.StartRun(main.work(100))
	c.StartBands(bars.work(0)) // runs until canceled
	assert.False(t, c.Run().Banding, "the error bars started beside the run")
	assert.True(t, <-main.delivered)
	waitClosed(t, bars.started, "the error bars' start")
	require.Eventually(t, func() bool { return c.Run().BandsDone > 0 }, 5*time.Second, time.Millisecond, "no progress")
	st := c.Run()
	assert.True(t, st.Banding)
	assert.False(t, st.Running, "the error bars show as a main run")
	assert.Equal(t, gen, st.Gen)
	assert.Equal(t, 1.0, st.Done, "the error bars moved the run's progress")

	c.CancelRun()
	assert.True(t, c.Run().Banding, "Cancel (of a main run) stopped the error bars")
	c.CancelBands()
	waitClosed(t, bars.stopped, "the error bars' stop")
	assert.ErrorIs(t, bars.err, scenario.ErrCanceled)
	assert.False(t, <-bars.delivered, "canceled error bars were shown")
	assert.False(t, c.Run().Banding)

	// A newer run cancels running error bars.
	again, next := newSpin(), newSpin()
	c.StartBands(again.work(0))
	waitClosed(t, again.started, "the second error bars' start")
	c.StartRun(next.work(10))
	waitClosed(t, again.stopped, "the error bars' stop by a newer run")
	assert.False(t, <-again.delivered)
	assert.True(t, <-next.delivered)

	// Error bars asked for during a run that is superseded never start.
	late, last := newSpin(), newSpin()
	blocker := newSpin()
	c.StartRun(blocker.work(0))
	waitClosed(t, blocker.started, "the run's start")
	c.StartBands(late.work(10))
	c.StartRun(last.work(10))
	assert.True(t, <-last.delivered)
	require.Eventually(t, func() bool { return !c.Run().Running }, 5*time.Second, time.Millisecond)
	select {
	case <-late.started:
		t.Fatal("error bars asked for before a newer run started after it")
	case <-time.After(50 * time.Millisecond):
	}
}

// TestStartingAndCancelingFromTheHandlerCallNoHook: the panel's click
// handlers call StartRun, StartBands and CancelBands holding the panel's
// lock, which the change hook takes: a hook called from them would
// deadlock the page.
func TestStartingAndCancelingFromTheHandlerCallNoHook(t *testing.T) {
	c := New()
	c.SetYield(nil, time.Millisecond)
	var panel sync.Mutex
	var inHandler atomic.Int64
	c.OnChange(func(Change) {
		if !panel.TryLock() {
			inHandler.Add(1) // in the page: a deadlock
			return
		}
		panel.Unlock()
	})
	bars := newSpin()
	panel.Lock()
	c.StartBands(bars.work(0)) // nothing runs: it starts at once
	panel.Unlock()
	waitClosed(t, bars.started, "the error bars' start")
	panel.Lock()
	c.CancelBands()
	panel.Unlock()
	waitClosed(t, bars.stopped, "the error bars' stop")
	run := newSpin()
	panel.Lock()
	c.StartRun(run.work(10))
	panel.Unlock()
	assert.True(t, <-run.delivered)
	assert.Zero(t, inHandler.Load(), "the change hook was called inside a handler")
}
