package sim

import (
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
)

// The pool against a reference: the multiset of completion times, the
// earliest taken each time, with completions in and out of order.
func TestPoolIsEarliestFree(t *testing.T) {
	for _, n := range []int{1, 2, 5, 64} {
		p := NewPool(n)
		ref := make([]Time, n)
		r := NewRNG(uint64(n))
		now := Time(0)
		for step := 0; step < 5000; step++ {
			now += Time(r.Uint64n(20))
			start, wait := p.Slot(now)
			sort.Slice(ref, func(i, j int) bool { return ref[i] < ref[j] })
			want := max(now, ref[0])
			require.Equal(t, want, start, "n %d step %d", n, step)
			require.Equal(t, want-now, wait)
			done := start + Time(r.Uint64n(200)) // out of order
			if !p.Done(done) {
				p.Insert(done)
			}
			ref[0] = done
			busy := 0
			for _, x := range ref {
				if x > now {
					busy++
				}
			}
			require.Equal(t, busy, p.Busy(now))
		}
	}
}

// A slot taken before its completion is known (Done(Never)) is busy until
// Settle gives the time; the pool stays earliest-free.
func TestPoolSettle(t *testing.T) {
	p := NewPool(3)
	for i := 0; i < 3; i++ {
		require.True(t, p.Done(Never))
	}
	start, _ := p.Slot(10)
	require.Equal(t, Never, start, "every slot held, no completion known")
	require.True(t, p.Settle(50))
	require.True(t, p.Settle(30))
	require.Equal(t, Time(30), p.Earliest(), "the earlier settled completion frees first")
	require.Equal(t, 3, p.Busy(20))
	require.True(t, p.Settle(40))
	require.False(t, p.Settle(60), "no slot is held without a time")
	var got []Time
	p.Times(func(v Time) { got = append(got, v) })
	require.Equal(t, []Time{30, 40, 50}, got)
}
