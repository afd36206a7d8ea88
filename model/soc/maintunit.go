package soc

import "github.com/dmaviz/dmaviz/model/sim"

// Maint is the core's queue of outstanding cache maintenance by VA
// (maint.*): a DC op takes a slot of maint.inflight at issue and holds it
// until it completes at the point of coherency; DSB SY waits for the
// last completion.
type Maint struct {
	cfg MaintConfig
	// q holds the outstanding ops' completion times.
	// Invariant: exactly maint.inflight of them, as a min-heap.
	q sim.Pool
	// done is the latest completion of an outstanding DC op.
	// Invariant: done >= every completion time in q (DSB waits for it).
	done sim.Time
	// sinceProgress is the DC ops since the last Machine.Progress call.
	sinceProgress uint64
}

// MaintState is the maintenance queue's state as plain data (for views
// and golden tests).
type MaintState struct {
	InFlight int      // DC ops not completed at the core's time
	Done     sim.Time // when the last one completes (what DSB waits for)
}

// newMaint builds an empty queue of a validated configuration.
func newMaint(c MaintConfig) Maint { return Maint{cfg: c, q: sim.NewPool(c.Inflight)} }

// Snapshot returns the queue's state at time now.
func (u *Maint) Snapshot(now sim.Time) MaintState {
	return MaintState{InFlight: u.q.Busy(now), Done: u.done}
}

// latency is op's time from issue to completion when it writes nothing
// back.
func (u *Maint) latency(op DCOp) sim.Time {
	if op == CVAC {
		return u.cfg.CleanLatency
	}
	return u.cfg.InvalLatency
}

// issue takes a slot for an op asked at now: it returns when the core is
// free again (the slot's start plus maint.issue) and how long it waited.
func (u *Maint) issue(now sim.Time) (sim.Time, sim.Time) {
	start, wait := u.q.Slot(now)
	return start + u.cfg.Issue, wait
}

// complete holds the slot issue took until done.
func (u *Maint) complete(done sim.Time) {
	if !u.q.Done(done) {
		u.q.Insert(done)
	}
	u.done = max(u.done, done)
}
