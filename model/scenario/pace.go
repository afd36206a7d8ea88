package scenario

import (
	"context"
	"errors"
)

// ErrCanceled is what a run returns when its context was canceled (the
// page's Cancel, or a newer setting superseding the run) or its pacer's
// Hook asked it to stop.
var ErrCanceled = errors.New("run canceled")

// PaceQuantum is how many units of work (cache lines touched, recorded
// events) a paced run does between calls of its Hook: about a millisecond
// of model time natively, a few in WebAssembly. It bounds how far a slice
// of work overshoots the page's slice (site/control.RunSlice): a quantum
// four times larger let slices on a loaded machine run past the page's task
// budget. A Hook call costs a clock read. The model itself never reads a
// clock; the Hook may.
const PaceQuantum = 1 << 12

// Pacer lets a long run give way, show its progress and be stopped. A
// scenario's Run binds the pacer it is given to its context (Bind) and
// calls Work as it goes, with the units of work just done; every
// PaceQuantum units Work calls Hook with the fraction done so far and
// checks the context. Hook is a plain function: in the browser it parks
// the goroutine until the JavaScript event loop has run (so the page stays
// responsive) and shows the progress, natively it is usually nil. Once the
// context is done Work returns ErrCanceled; a non-nil error from Hook
// stops the run the same way. The error is kept (Err) and returned by
// every later Work, and the run returns it.
//
// A nil *Pacer is valid and does nothing, so models call it
// unconditionally. Pacing never changes what a run computes.
type Pacer struct {
	Hook func(done float64) error

	ctx               context.Context // nil: never canceled
	total, done, next int64
	shown             float64
	err               error
}

// NewPacer returns a pacer calling hook.
func NewPacer(hook func(done float64) error) *Pacer { return &Pacer{Hook: hook, next: PaceQuantum} }

// Bind returns the pacer a run under ctx works with: p itself, which from
// now on also stops the run once ctx is done; for a nil p, a pacer
// without a Hook when ctx can be canceled, else nil (an unpaced run under
// a context that never ends makes no call per unit of work). Every
// scenario's Run starts with it.
func (p *Pacer) Bind(ctx context.Context) *Pacer {
	if ctx == nil || ctx.Done() == nil {
		return p
	}
	if p == nil {
		p = NewPacer(nil)
	}
	p.ctx = ctx
	return p
}

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

// call checks the context, calls Hook, and checks the context again (the
// page may cancel while Hook has parked the run).
func (p *Pacer) call() error {
	if p.err = p.canceled(); p.err != nil || p.Hook == nil {
		return p.err
	}
	if p.total > 0 {
		p.shown = max(p.shown, min(float64(p.done)/float64(p.total), 1))
	}
	if p.err = p.Hook(p.shown); p.err != nil {
		return p.err
	}
	p.err = p.canceled()
	return p.err
}

func (p *Pacer) canceled() error {
	if p.ctx != nil && p.ctx.Err() != nil {
		return ErrCanceled
	}
	return nil
}

// Err returns the error that stopped the run (ErrCanceled or Hook's), if
// any (for models that learn of it after a callback that cannot return
// one).
func (p *Pacer) Err() error {
	if p == nil {
		return nil
	}
	return p.err
}
