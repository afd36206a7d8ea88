package sim

// Pool is a bounded set of outstanding operations of one kind (line fills,
// NC transactions, DC ops, a TBU's reads or walks) as the completion
// times of its slots: an earliest-free pool. An operation takes the slot
// that frees first and waits for it if every slot is busy: completions
// may come back out of order (an L2 hit behind a DRAM miss, a 2-cycle TBU
// hit behind a walk), so the earliest-free slot, not the oldest-issued
// one, is the one to wait for.
//
// An operation whose completion is not known yet when it takes its slot
// (a transaction still on its way to memory) takes it with Done(Never)
// and gives the time with Settle once it is known.
//
// The times are kept sorted in a ring: the earliest is at head, and a
// completion is inserted from the tail, where it almost always belongs
// (operations of one kind mostly complete in issue order), so an access
// costs O(1) in the common case and a short shift otherwise.
//
// Invariant: t[head], t[head+1], ... (mod len(t)) is non-decreasing;
// len(t) is the pool size and never changes.
type Pool struct {
	t    []Time
	head int
}

// NewPool returns a pool of n slots (at least one), all free.
func NewPool(n int) Pool { return Pool{t: make([]Time, max(n, 1))} }

// Len returns the number of slots.
func (p *Pool) Len() int { return len(p.t) }

// Earliest returns when the earliest slot frees (Never while every slot
// is held by an operation whose completion is not known).
func (p *Pool) Earliest() Time { return p.t[p.head] }

// Slot returns when an operation asked for at time at may start (when the
// earliest slot frees) and how long it waited.
func (p *Pool) Slot(at Time) (Time, Time) {
	if t := p.t[p.head]; t > at {
		return t, t - at
	}
	return at, 0
}

// Done gives the earliest-free slot (the one Slot returned) to an
// operation completing at v. Completions in issue order (v no earlier than
// every other slot) take one store: inline-sized, so the per-line path
// writes "if !q.Done(v) { q.Insert(v) }" and the shift is a call only when
// a completion overtakes one in flight.
func (p *Pool) Done(v Time) bool {
	n := len(p.t)
	last := p.head + n - 1
	if last >= n {
		last -= n
	}
	if v < p.t[last] && n > 1 {
		return false
	}
	p.t[p.head] = v
	if p.head++; p.head == n {
		p.head = 0
	}
	return true
}

// Insert is Done for a completion earlier than the latest in flight: the
// later times shift up a slot.
func (p *Pool) Insert(v Time) {
	n := len(p.t)
	i := p.head // the freed slot becomes the ring's tail
	if p.head++; p.head == n {
		p.head = 0
	}
	p.sift(i, v)
}

// sift places v at ring position i (free) or earlier, shifting later
// times up.
func (p *Pool) sift(i int, v Time) {
	t, n := p.t, len(p.t)
	for k := 1; k < n; k++ {
		if i == p.head {
			break
		}
		j := i - 1
		if j < 0 {
			j = n - 1
		}
		if t[j] <= v {
			break
		}
		t[i] = t[j]
		i = j
	}
	t[i] = v
}

// Settle gives one slot held with Done(Never) its completion time v.
// It reports false (and changes nothing) when no slot is held so.
func (p *Pool) Settle(v Time) bool {
	n := len(p.t)
	last := p.head + n - 1
	if last >= n {
		last -= n
	}
	if p.t[last] != Never {
		return false
	}
	p.sift(last, v)
	return true
}

// Busy counts the slots still in flight at time now: the times are
// sorted, so those later than now are the last ones, counted from the
// tail (a few, where a scan of the whole pool reads every slot).
func (p *Pool) Busy(now Time) int {
	t, n := p.t, len(p.t)
	i := p.head
	for k := 0; k < n; k++ {
		if i--; i < 0 {
			i = n - 1
		}
		if t[i] <= now {
			return k
		}
	}
	return n
}

// Times calls f with every slot's completion time, earliest first (a
// state hash).
func (p *Pool) Times(f func(Time)) {
	for i := range p.t {
		f(p.t[(p.head+i)%len(p.t)])
	}
}
