package soc

import "github.com/dmaviz/dmaviz/model/sim"

// pool is a bounded set of outstanding operations of one kind (line fills,
// prefetches, NC transactions, DC ops) as the completion times of its
// slots. An operation takes the slot that frees first and waits for it if
// every slot is busy: completions may come back out of order (an L2 hit
// behind a DRAM miss, a clean behind a write-back), so the earliest-free
// slot, not the oldest-issued one, is the one to wait for.
//
// The times are kept sorted in a ring: the earliest is at head, and a
// completion is inserted from the tail, where it almost always belongs
// (operations of one kind mostly complete in issue order), so an access
// costs O(1) in the common case and a short shift otherwise.
//
// Invariant: t[head], t[head+1], ... (mod len(t)) is non-decreasing;
// len(t) is the pool size and never changes.
type pool struct {
	t    []sim.Time
	head int
}

func newPool(n int) pool { return pool{t: make([]sim.Time, max(n, 1))} }

// slot returns when an operation asked for at time at may start (when the
// earliest slot frees) and how long it waited.
func (p *pool) slot(at sim.Time) (sim.Time, sim.Time) {
	if t := p.t[p.head]; t > at {
		return t, t - at
	}
	return at, 0
}

// done gives the earliest-free slot (the one slot returned) to an
// operation completing at v. Completions in issue order (v no earlier than
// every other slot) take one store: inline-sized, so the per-line path
// writes "if !q.done(v) { q.insert(v) }" and the shift is a call only when
// a completion overtakes one in flight.
func (p *pool) done(v sim.Time) bool {
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

// insert is done for a completion earlier than the latest in flight: the
// later times shift up a slot.
func (p *pool) insert(v sim.Time) {
	t, n := p.t, len(p.t)
	i := p.head // the freed slot becomes the ring's tail
	if p.head++; p.head == n {
		p.head = 0
	}
	for k := 1; k < n; k++ {
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

// busy counts the slots still in flight at time now.
func (p *pool) busy(now sim.Time) int {
	n := 0
	for _, t := range p.t {
		if t > now {
			n++
		}
	}
	return n
}
