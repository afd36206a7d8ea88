package control

import (
	"context"
	"errors"
	"runtime"
	"slices"
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
// is the one owner of it: the main runs (A and B), the headline sweep
// after them and the error bars asked for go through the same runner,
// which numbers, paces, cancels and supersedes them and keeps their
// outcome here.
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
	// Banding says the error bars are computing, BandsQueued that they
	// wait for the job in progress; BandsDone is the fraction of their
	// runs done, 0..1.
	Banding, BandsQueued bool
	BandsDone            float64
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
	after []queued // background jobs to start when cur ends (StartSweep, StartBands)
	state RunState
	noted time.Time // last progress notification
	// Yield parks the running goroutine until the page's event loop has
	// run; nil (natively) lets other goroutines run.
	yield func()
	slice time.Duration
}

// jobKind says what a job computes: a main run, or one of the
// background jobs that wait for it and that a newer main run drops.
type jobKind int

const (
	kindRun   jobKind = iota // the main run (A and B)
	kindSweep                // the headline sweep
	kindBands                // the error bars
)

type queued struct {
	kind jobKind
	work RunWork
}

type job struct {
	gen    uint64
	kind   jobKind
	ended  bool               // finish ran
	ctx    context.Context    // the run's: done once canceled or superseded
	cancel context.CancelFunc // cancels ctx
	done   chan struct{}      // closed when the work returned
	start  time.Time
	slice  time.Time // when the current slice of work began
}

func (j *job) stopped() bool { return j.ctx.Err() != nil }

// background says j is a sweep or the error bars, not a main run.
func (j *job) background() bool { return j.kind != kindRun }

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
	r.after = nil // a new setting: the sweep and error bars queued were for the old one
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
// once when nothing runs, else when the current job ends (a main run
// delivering its results starts the sweep this way). A newer StartRun
// cancels it, or drops it before it starts.
func (c *Controller) StartSweep(work RunWork) { c.startBackground(kindSweep, work, true) }

// StartBands runs the error bars' work through the same runner, as
// StartSweep does the sweep's; CancelBands or a newer StartRun stops it.
// Its progress (the hook's done) is RunState.BandsDone. Like StartRun it
// calls no change hook: the panel's click handler that calls it holds the
// panel's lock and renders afterwards.
func (c *Controller) StartBands(work RunWork) { c.startBackground(kindBands, work, false) }

// startBackground starts a sweep or the error bars at once when nothing
// runs, else queues them (one of each kind, the latest) after the current
// job. note says whether to call the change hook when it starts at once.
func (c *Controller) startBackground(kind jobKind, work RunWork, note bool) {
	r := &c.runs
	r.mu.Lock()
	if r.cur != nil && !r.cur.ended {
		r.after = slices.DeleteFunc(r.after, func(q queued) bool { return q.kind == kind })
		r.after = append(r.after, queued{kind, work})
		r.mu.Unlock()
		return
	}
	r.mu.Unlock()
	c.launchBackground(queued{kind, work}, note)
}

func (c *Controller) launchBackground(q queued, note bool) {
	r := &c.runs
	r.mu.Lock()
	j := &job{gen: r.state.Gen, kind: q.kind}
	r.setBackground(q.kind, true)
	if q.kind == kindSweep {
		r.state.SweepErr = ""
	} else {
		r.state.BandsDone = 0
	}
	r.mu.Unlock()
	if note {
		c.note(ChangeFull)
	}
	c.launch(j, q.work)
}

// setBackground sets the state's flag of a background job's kind.
func (r *runner) setBackground(kind jobKind, on bool) {
	switch kind {
	case kindSweep:
		r.state.Sweeping = on
	case kindBands:
		r.state.Banding = on
	}
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
	if old != nil && old.background() {
		r.setBackground(old.kind, false)
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
		if r.cur == j && !j.background() {
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
	if j == nil || j.background() || !r.state.Running {
		r.mu.Unlock()
		return
	}
	r.state.Canceled = true
	r.after = nil
	r.mu.Unlock()
	j.cancel()
}

// CancelBands stops the error bars, running or queued; the run or sweep
// in progress goes on.
func (c *Controller) CancelBands() {
	r := &c.runs
	r.mu.Lock()
	r.after = slices.DeleteFunc(r.after, func(q queued) bool { return q.kind == kindBands })
	j := r.cur
	if j == nil || j.kind != kindBands || j.ended {
		r.mu.Unlock()
		return
	}
	r.state.Banding = false
	r.mu.Unlock()
	j.cancel() // no change note: the panel's Cancel handler holds its lock and renders
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
	s.BandsQueued = slices.ContainsFunc(c.runs.after, func(q queued) bool { return q.kind == kindBands })
	return s
}

// Current reports whether gen is the latest run and was not canceled (its
// results are to be shown).
func (c *Controller) Current(gen uint64) bool {
	c.runs.mu.Lock()
	defer c.runs.mu.Unlock()
	return c.runs.cur != nil && !c.runs.cur.background() && c.runs.cur.gen == gen && !c.runs.cur.stopped()
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
	if r.cur == j && !j.background() {
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
	if r.cur != j || j.kind == kindSweep {
		r.mu.Unlock()
		return
	}
	if j.kind == kindBands {
		r.state.BandsDone = min(max(done, 0), 1)
		c.noteProgressLocked(ChangeNone)
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
	c.noteProgressLocked(ch)
}

// noteProgressLocked unlocks r.mu and notes ch, or, when ch is
// ChangeNone, the progress alone at most every progressNotifyEvery.
func (c *Controller) noteProgressLocked(ch Change) {
	r := &c.runs
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
// background job waiting for it.
func (c *Controller) finish(j *job) {
	r := &c.runs
	r.mu.Lock()
	j.ended = true
	last := r.cur == j
	var next *queued
	if last && j.background() {
		r.setBackground(j.kind, false)
	}
	if last && !j.background() {
		r.state.Running = false
		r.state.Elapsed = time.Since(j.start)
		if !j.stopped() {
			r.state.Done = 1
		}
	}
	if last && len(r.after) > 0 {
		next = &r.after[0]
		r.after = r.after[1:]
	}
	r.mu.Unlock()
	if last {
		c.note(ChangeFull)
	}
	if next != nil {
		c.launchBackground(*next, true)
	}
}
