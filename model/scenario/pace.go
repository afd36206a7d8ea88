package scenario

import "errors"

// ErrCanceled is what a paced run returns when its Hook asked it to stop
// (the page's Cancel, or a newer setting superseding the run).
var ErrCanceled = errors.New("run canceled")

// PaceQuantum is how many units of work (cache lines touched, recorded
// events) a paced run does between calls of its Hook: about a millisecond
// of model time natively, a few in WebAssembly. It bounds how far a slice
// of work overshoots the page's slice (site/control.RunSlice): a quantum
// four times larger let slices on a loaded machine run past the page's task
// budget. A Hook call costs a clock read. The model itself never reads a
// clock; the Hook may.
const PaceQuantum = 1 << 12

// Pacer lets a long run give way and be stopped. A scenario that supports
// it (see Paced) calls Work as it goes, with the units of work just done;
// every PaceQuantum units Work calls Hook with the fraction done so far.
// Hook is a plain function: in the browser it parks the goroutine until the
// JavaScript event loop has run (so the page stays responsive), natively it
// is usually nil. A non-nil error from Hook is kept (Err) and returned by
// every later Work, and the run returns it.
//
// A nil *Pacer is valid and does nothing, so models call it
// unconditionally. Pacing never changes what a run computes.
type Pacer struct {
	Hook func(done float64) error

	total, done, next int64
	shown             float64
	err               error
}

// NewPacer returns a pacer calling hook.
func NewPacer(hook func(done float64) error) *Pacer { return &Pacer{Hook: hook, next: PaceQuantum} }

// Plan sets the expected total units of work (an estimate: the fraction
// passed to Hook is clamped to [0, 1] and never goes back).
func (p *Pacer) Plan(total int64) {
	if p != nil {
		p.total = max(total, 1)
	}
}

// Planned returns the total set by Plan.
func (p *Pacer) Planned() int64 {
	if p == nil {
		return 0
	}
	return p.total
}

// Done returns the units of work counted so far.
func (p *Pacer) Done() int64 {
	if p == nil {
		return 0
	}
	return p.done
}

// Work counts n units of work and, every PaceQuantum units, calls Hook.
// It returns Hook's error (or an earlier one). Small enough to inline: an
// unpaced run (nil) makes no call per unit of work.
func (p *Pacer) Work(n int64) error {
	if p == nil {
		return nil
	}
	return p.work(n)
}

func (p *Pacer) work(n int64) error {
	if p.err != nil {
		return p.err
	}
	p.done += max(n, 0)
	if p.done < p.next {
		return nil
	}
	p.next = p.done + PaceQuantum
	return p.call()
}

// Point calls Hook now (at a point where the model has just done a large
// indivisible piece of work, or before one), whatever the count.
func (p *Pacer) Point() error {
	if p == nil {
		return nil
	}
	if p.err != nil {
		return p.err
	}
	return p.call()
}

func (p *Pacer) call() error {
	if p.Hook == nil {
		return nil
	}
	if p.total > 0 {
		p.shown = max(p.shown, min(float64(p.done)/float64(p.total), 1))
	}
	p.err = p.Hook(p.shown)
	return p.err
}

// Err returns the error Hook returned, if any (for models that learn of it
// after a callback that cannot return one).
func (p *Pacer) Err() error {
	if p == nil {
		return nil
	}
	return p.err
}

// Paced is a Scenario whose runs report progress and give way through a
// Pacer. Scenarios that do not implement it run in one piece.
type Paced interface {
	Scenario
	// RunPaced is Run with a pacer (possibly nil); its result equals Run's.
	RunPaced(p Params, policy string, pace *Pacer) (*Result, error)
}

// RunPaced runs s under pace when s is Paced, else with s.Run (calling the
// pacer's Hook once before and once after).
func RunPaced(s Scenario, p Params, policy string, pace *Pacer) (*Result, error) {
	if ps, ok := s.(Paced); ok {
		return ps.RunPaced(p, policy, pace)
	}
	if err := pace.Point(); err != nil {
		return nil, err
	}
	res, err := s.Run(p, policy)
	if err != nil {
		return nil, err
	}
	if pace != nil {
		pace.done, pace.total = max(pace.total, 1), max(pace.total, 1)
	}
	if err := pace.Point(); err != nil {
		return nil, err
	}
	return res, nil
}
