package control

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"time"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// How a run is launched, paced, cancelled and shown in progress.
//
// The model runs in its own goroutine. The page has one thread, and Go in
// WebAssembly switches goroutines only where one blocks, so a run that
// never blocked would freeze the page (no input, no stage frame) until it
// ended. Instead the model calls a pacing hook every few thousand lines of
// work (scenario.Pacer); the hook records the progress, checks the clock
// and, once the run has worked RunSlice since it last gave way, calls
// Yield, which in the browser parks the goroutine until the event loop has
// run (a posted message), so input, the panel and the stage's frames get
// their turn. Cancellation goes through the run's context: Cancel, or a
// newer StartRun superseding the run, cancels it, and the model's pacer
// stops the run with scenario.ErrCanceled at its next pacing point (the
// one right after the page has run, if the cancel came while it was
// parked).

// RunSlice is how long a run works before it gives way: short enough that
// a slice, the pacing quantum that overshoots it and a panel render or a
// stage frame beside it stay under the 100 ms budget for a task (the
// browser counts 50 ms as long), on a loaded machine too. Giving way costs
// about a message round trip (the page posts one to itself), not a timer's
// 4 ms.
const RunSlice = 10 * time.Millisecond

// progressNotifyEvery limits panel updates while only the progress moves:
// each update of the bar is a repaint and a compositor frame of the whole
// window, which in a software-rendered browser (headless Chromium with
// SwiftShader) can hold the main thread past the task budget on a loaded
// machine; four a second still show the bar moving.
const progressNotifyEvery = 250 * time.Millisecond

// RunState is what the panel and the stage show of the runs. The runner
// is the one owner of it: the main runs (A and B) and the headline sweep
// after them go through the same runner, which numbers, paces, cancels and
// supersedes them and keeps their outcome here.
type RunState struct {
	Gen     uint64  // the main run's number (StartRun counts them)
	Running bool    // a main run is computing
	Side    int     // side being simulated while Running: 0 = A, 1 = B
	Sides   [2]bool // the sides the main run simulates (a side whose setting did not change is kept)
	Done    float64 // fraction of the main run (the sides it simulates) done, 0..1
	// Err is why the last main run failed ("" after one that succeeded).
	Err string
	// Sweeping says the headline sweep is computing; SweepErr is why the
	// last one failed.
	Sweeping bool
	SweepErr string
	// Canceled says the last run was canceled with Cancel: its results were
	// discarded and the previous ones are still shown.
	Canceled bool
	// First says no results have been shown yet: the stage has nothing
	// to play until this run ends.
	First bool
	// Of the current (or last) run: wall time from start, time given to
	// the page while it ran, and how many times it gave way.
	Elapsed, Parked time.Duration
	Yields          int
	// Deliver is how long showing the results took (the panel's and the
	// player's update; the page's redraw follows in its own tasks).
	Deliver time.Duration
}

// RunWork is one run: it runs under ctx, which is canceled when the run is
// canceled or superseded, and calls hook (often) with the side it is
// simulating and the fraction of that side done. It returns what to do
// with its outcome: the runner gives way once more and then calls
// deliver(true) to show the results (or the error), or deliver(false) when
// the run was canceled or superseded meanwhile (its results are
// discarded).
type RunWork func(ctx context.Context, hook func(side int, done float64) error) (deliver func(show bool))

// runner is the Controller's part that launches runs.
type runner struct {
	mu    sync.Mutex
	cur   *job
	after RunWork // a sweep to start when cur ends (StartSweep)
	state RunState
	noted time.Time // last progress notification
	// Yield parks the running goroutine until the page's event loop has
	// run; nil (natively) lets other goroutines run.
	yield func()
	slice time.Duration
}

type job struct {
	gen    uint64
	sweep  bool               // the headline sweep, not a main run
	ended  bool               // finish ran
	ctx    context.Context    // the run's: done once canceled or superseded
	cancel context.CancelFunc // cancels ctx
	done   chan struct{}      // closed when the work returned
	start  time.Time
	slice  time.Time // when the current slice of work began
}

func (j *job) stopped() bool { return j.ctx.Err() != nil }

// SetYield sets how a run gives way to the page (see the comment above)
// and how long it works between two (0: RunSlice).
func (c *Controller) SetYield(yield func(), slice time.Duration) {
	c.runs.mu.Lock()
	c.runs.yield, c.runs.slice = yield, slice
	c.runs.mu.Unlock()
}

// StartRun starts a main run of both sides; see StartRunSides.
func (c *Controller) StartRun(work RunWork) uint64 { return c.StartRunSides([2]bool{true, true}, work) }

// StartRunSides cancels the run or sweep in progress, if any, and runs
// work (which simulates the sides marked in sides) in a new goroutine once
// the old one has stopped (promptly: at its next pacing point). It returns
// the new run's number. It calls no change hook (the caller shows the new
// state); the run's progress and end do.
func (c *Controller) StartRunSides(sides [2]bool, work RunWork) uint64 {
	r := &c.runs
	r.mu.Lock()
	j := &job{gen: r.state.Gen + 1}
	r.after = nil
	prev := r.state
	r.state = RunState{Gen: j.gen, Running: true, Sides: sides, Err: prev.Err, SweepErr: prev.SweepErr}
	if !sides[0] && sides[1] {
		r.state.Side = 1 // the first side it simulates
	}
	r.mu.Unlock()
	// No change note here: StartRun is called from the panel's event
	// handlers, which render afterwards anyway (and hold the panel's lock).
	c.launch(j, work)
	return j.gen
}

// StartSweep runs the headline sweep's work through the same runner: at
// once when nothing runs, else when the current run ends (a main run
// delivering its results starts the sweep this way). A newer StartRun
// cancels it, or drops it before it starts.
func (c *Controller) StartSweep(work RunWork) {
	r := &c.runs
	r.mu.Lock()
	if r.cur != nil && !r.cur.ended {
		r.after = work
		r.mu.Unlock()
		return
	}
	r.mu.Unlock()
	c.startSweep(work)
}

func (c *Controller) startSweep(work RunWork) {
	r := &c.runs
	r.mu.Lock()
	j := &job{gen: r.state.Gen, sweep: true}
	r.state.Sweeping, r.state.SweepErr = true, ""
	r.mu.Unlock()
	c.note(ChangeFull)
	c.launch(j, work)
}

// launch makes j the current job, cancels the one before it and runs work
// once that one has stopped.
func (c *Controller) launch(j *job, work RunWork) {
	r := &c.runs
	j.done = make(chan struct{})
	j.ctx, j.cancel = context.WithCancel(context.Background())
	r.mu.Lock()
	old := r.cur
	r.cur = j
	if old != nil && old.sweep {
		r.state.Sweeping = false
	}
	r.mu.Unlock()
	if old != nil {
		old.cancel()
	}
	go func() {
		defer close(j.done)
		if old != nil {
			<-old.done
		}
		j.start = time.Now()
		j.slice = j.start
		// Give way once first, so the panel shows the run before it starts,
		// and once before delivering, so the model's last slice and the
		// redraw of the new results are separate tasks of the page.
		c.giveWay(j)
		deliver := work(j.ctx, c.hook(j)) // a canceled j stops at its first pacing point
		show := c.giveWay(j)
		t0 := time.Now()
		if deliver != nil {
			deliver(show)
		}
		r.mu.Lock()
		if r.cur == j && !j.sweep {
			r.state.Deliver = time.Since(t0)
		}
		r.mu.Unlock()
		c.finish(j)
	}()
}

// SetSweepError records why the headline sweep failed ("" for none).
func (c *Controller) SetSweepError(msg string) {
	c.runs.mu.Lock()
	c.runs.state.SweepErr = msg
	c.runs.mu.Unlock()
}

// CancelRun cancels the run in progress: its results are discarded and the
// previous results stay.
func (c *Controller) CancelRun() {
	r := &c.runs
	r.mu.Lock()
	j := r.cur
	if j == nil || j.sweep || !r.state.Running {
		r.mu.Unlock()
		return
	}
	r.state.Canceled = true
	r.after = nil
	r.mu.Unlock()
	j.cancel()
}

// DismissCanceled forgets that the last run was canceled (the panel's note
// about it is closed).
func (c *Controller) DismissCanceled() {
	c.runs.mu.Lock()
	c.runs.state.Canceled = false
	c.runs.mu.Unlock()
}

// Run returns the state of the runs.
func (c *Controller) Run() RunState {
	c.mu.Lock()
	first := c.results == 0
	c.mu.Unlock()
	c.runs.mu.Lock()
	defer c.runs.mu.Unlock()
	s := c.runs.state
	s.First = first
	return s
}

// Current reports whether gen is the latest run and was not canceled (its
// results are to be shown).
func (c *Controller) Current(gen uint64) bool {
	c.runs.mu.Lock()
	defer c.runs.mu.Unlock()
	return c.runs.cur != nil && !c.runs.cur.sweep && c.runs.cur.gen == gen && !c.runs.cur.stopped()
}

// Canceled tells whether err means the run was canceled or superseded.
func Canceled(err error) bool {
	return errors.Is(err, scenario.ErrCanceled) || errors.Is(err, context.Canceled)
}

// hook is the pacing hook of job j: it records the progress and gives way
// once the run has worked a slice. It stops nothing itself: j's context
// does (the model's pacer checks it around every call).
func (c *Controller) hook(j *job) func(side int, done float64) error {
	return func(side int, done float64) error {
		c.progress(j, side, done)
		r := &c.runs
		r.mu.Lock()
		slice := r.slice
		r.mu.Unlock()
		if slice <= 0 {
			slice = RunSlice
		}
		if time.Since(j.slice) >= slice {
			c.giveWay(j)
		}
		return nil
	}
}

// giveWay parks j until the page has run, and reports whether j may go on.
func (c *Controller) giveWay(j *job) bool {
	r := &c.runs
	r.mu.Lock()
	yield := r.yield
	r.mu.Unlock()
	t0 := time.Now()
	if yield != nil {
		yield()
	} else {
		runtime.Gosched()
	}
	j.slice = time.Now()
	r.mu.Lock()
	if r.cur == j && !j.sweep {
		r.state.Parked += j.slice.Sub(t0)
		r.state.Yields++
	}
	r.mu.Unlock()
	return !j.stopped()
}

// progress records how far j is: at once when the side changes, else at
// most every progressNotifyEvery.
func (c *Controller) progress(j *job, side int, done float64) {
	r := &c.runs
	r.mu.Lock()
	if r.cur != j || j.sweep {
		r.mu.Unlock()
		return
	}
	ch := ChangeNone
	if side != r.state.Side {
		ch = ChangeFull
	}
	side = min(max(side, 0), 1)
	r.state.Side = side
	done = min(max(done, 0), 1)
	if r.state.Sides[0] && r.state.Sides[1] {
		done = (float64(side) + done) / 2
	}
	r.state.Done = done
	r.state.Elapsed = time.Since(j.start)
	if ch == ChangeNone && time.Since(r.noted) >= progressNotifyEvery {
		ch = ChangeRun
	}
	if ch != ChangeNone {
		r.noted = time.Now()
	}
	r.mu.Unlock()
	c.note(ch)
}

// finish marks j's end (if it is still the latest job) and starts the
// sweep waiting for it.
func (c *Controller) finish(j *job) {
	r := &c.runs
	r.mu.Lock()
	j.ended = true
	last := r.cur == j
	var next RunWork
	if last && j.sweep {
		r.state.Sweeping = false
	}
	if last && !j.sweep {
		r.state.Running = false
		r.state.Elapsed = time.Since(j.start)
		if !j.stopped() {
			r.state.Done = 1
		}
		next, r.after = r.after, nil
	}
	r.mu.Unlock()
	if last {
		c.note(ChangeFull)
	}
	if next != nil {
		c.startSweep(next)
	}
}
