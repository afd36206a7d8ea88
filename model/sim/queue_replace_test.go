package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Replace orders events exactly as Pop followed by Push, ties included.
func TestReplaceMatchesPopPush(t *testing.T) {
	var a, b Queue[int]
	rng := NewRNG(7)
	for i := 0; i < 50; i++ {
		at := Time(rng.Uint64() % 20)
		a.Push(at, i)
		b.Push(at, i)
	}
	for step := 0; step < 2000; step++ {
		ta, va, oka := a.Pop()
		tb, vb, okb := b.Top()
		require.Equal(t, oka, okb)
		require.Equal(t, ta, tb, "step %d", step)
		require.Equal(t, va, vb, "step %d", step)
		next := ta + Time(rng.Uint64()%5) // ties are common
		a.Push(next, step+100)
		require.True(t, b.Replace(next, step+100))
	}
	var e Queue[int]
	assert.False(t, e.Replace(1, 1))
	_, _, ok := e.Top()
	assert.False(t, ok)
}
