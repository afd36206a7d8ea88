package sim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Events pushed out of order, with ties, come out by (time, push order).
func TestQueueOrderWithTies(t *testing.T) {
	var q Queue[string]
	q.Push(30, "c1")
	q.Push(10, "a1")
	q.Push(30, "c2")
	q.Push(20, "b1")
	q.Push(10, "a2")
	q.Push(0, "z")
	q.Push(30, "c3")
	q.Push(10, "a3")
	var got []string
	for q.Len() > 0 {
		tm, v, ok := q.Pop()
		require.True(t, ok, "Pop failed on non-empty queue")
		got = append(got, fmt.Sprintf("%d:%s", tm, v))
	}
	assert.Equal(t, []string{"0:z", "10:a1", "10:a2", "10:a3", "20:b1", "30:c1", "30:c2", "30:c3"}, got)
	_, _, ok := q.Pop()
	assert.False(t, ok, "Pop on empty queue reported ok")
}

// Many equal times interleaved with pushes during pops keep FIFO order.
func TestQueueStableUnderInterleaving(t *testing.T) {
	var q Queue[int]
	r := NewRNG(7)
	next := 0
	last := map[Time]int{}
	var lastT Time = -1
	for i := 0; i < 2000; i++ {
		if r.Intn(3) != 0 || q.Len() == 0 {
			q.Push(Time(r.Intn(5))+max(lastT, 0), next)
			next++
			continue
		}
		tm, v, _ := q.Pop()
		require.GreaterOrEqual(t, tm, lastT, "time went back")
		if p, ok := last[tm]; ok && tm == lastT {
			require.Greater(t, v, p, "tie at %d popped out of push order", tm)
		}
		last[tm], lastT = v, tm
	}
}

func TestRNGDeterministicAndBounded(t *testing.T) {
	a, b := NewRNG(42), NewRNG(42)
	for i := 0; i < 1000; i++ {
		require.Equal(t, a.Uint64(), b.Uint64(), "same seed, different sequence at %d", i)
	}
	// SplitMix64 reference value for seed 0 (first output).
	assert.Equal(t, uint64(0xe220a8397b1dcdaf), NewRNG(0).Uint64(), "splitmix64(0)")
	r := NewRNG(1)
	counts := make([]int, 7)
	for i := 0; i < 70000; i++ {
		counts[r.Intn(7)]++
		f := r.Float64()
		require.True(t, f >= 0 && f < 1, "Float64 %v out of [0,1)", f)
	}
	for i, c := range counts {
		assert.InDelta(t, 10000, c, 1000, "Intn(7) bucket %d of 70000", i)
	}
	assert.Zero(t, r.Intn(0), "Intn(0)")
	assert.Zero(t, r.Intn(-3), "Intn(-3)")
}

func TestClocks(t *testing.T) {
	c := Clocks{CPU: 2.6 * GHz, Platform: 1 * GHz, DRAM: 800 * MHz}
	assert.Equal(t, Nanosecond, c.CPUCycles(2.6), "2.6 cycles at 2.6GHz")
	assert.Equal(t, 140*Nanosecond, c.PlatformCycles(140), "140 platform cycles")
	assert.Equal(t, 5*Nanosecond, c.DRAMCycles(4), "4 DRAM cycles")
}

// ReplaceTop is Pop then Push: the same order of events, ties included.
func TestQueueReplaceTopIsPopPush(t *testing.T) {
	var a, b Queue[int]
	r := NewRNG(9)
	for i := 0; i < 50; i++ {
		tm := Time(r.Uint64n(20))
		a.Push(tm, i)
		b.Push(tm, i)
	}
	for i := 0; i < 500; i++ {
		tm := Time(r.Uint64n(40)) + Time(i/10)
		a.Pop()
		a.Push(tm, 1000+i)
		require.True(t, b.ReplaceTop(tm, 1000+i))
		require.Equal(t, a.Top(), b.Top())
	}
	for a.Len() > 0 {
		ta, va, _ := a.Pop()
		tb, vb, _ := b.Pop()
		require.Equal(t, [2]int{int(ta), va}, [2]int{int(tb), vb})
	}
	var e Queue[int]
	require.False(t, e.ReplaceTop(1, 1))
}
