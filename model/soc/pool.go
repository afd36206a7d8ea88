package soc

import "github.com/dmaviz/dmaviz/model/sim"

// pool is a bounded set of outstanding operations of one kind (line fills,
// prefetches, NC transactions, DC ops) as the completion times of its
// slots. An operation takes the slot that frees first and waits for it if
// every slot is busy: completions may come back out of order (an L2 hit
// behind a DRAM miss, a clean behind a write-back), so the earliest-free
// slot, not the oldest-issued one, is the one to wait for.
//
// Invariant: t is a binary min-heap (t[i] <= t[2i+1], t[2i+2]); len(t) is
// the pool size and never changes.
type pool struct {
	t []sim.Time
}

func newPool(n int) pool { return pool{t: make([]sim.Time, max(n, 1))} }

// slot returns when an operation asked for at time at may start (when the
// earliest slot frees) and how long it waited.
func (p *pool) slot(at sim.Time) (sim.Time, sim.Time) {
	if t := p.t[0]; t > at {
		return t, t - at
	}
	return at, 0
}

// done gives the earliest-free slot (the one slot returned) to an
// operation completing at t. Kept inline-sized for the per-line path: the
// root is replaced and sifted down.
func (p *pool) done(t sim.Time) {
	h := p.t
	n := len(h)
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		c := l
		if r := l + 1; r < n && h[r] < h[l] {
			c = r
		}
		if h[c] >= t {
			break
		}
		h[i] = h[c]
		i = c
	}
	h[i] = t
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
