package soc

import (
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/sim"
)

// The pool against a reference: the multiset of completion times, the
// earliest taken each time, with completions in and out of order.
func TestPoolIsEarliestFree(t *testing.T) {
	for _, n := range []int{1, 2, 5, 64} {
		p := newPool(n)
		ref := make([]sim.Time, n)
		r := sim.NewRNG(uint64(n))
		now := sim.Time(0)
		for step := 0; step < 5000; step++ {
			now += sim.Time(r.Uint64n(20))
			start, wait := p.slot(now)
			sort.Slice(ref, func(i, j int) bool { return ref[i] < ref[j] })
			want := max(now, ref[0])
			require.Equal(t, want, start, "n %d step %d", n, step)
			require.Equal(t, want-now, wait)
			done := start + sim.Time(r.Uint64n(200)) // out of order
			if !p.done(done) {
				p.insert(done)
			}
			ref[0] = done
			busy := 0
			for _, x := range ref {
				if x > now {
					busy++
				}
			}
			require.Equal(t, busy, p.busy(now))
		}
	}
}
