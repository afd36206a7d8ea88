package cache

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/sim"
)

// A random-replacement cache draws its victims ahead (Replacer.drawAhead)
// and reads the next ones early (lookAhead, Warm): it evicts exactly what
// an array drawing on demand from the same seed evicts, for streams (the
// look-ahead's guess right) and scattered keys (wrong), with
// invalidations between.
func TestDrawAheadSameVictims(t *testing.T) {
	const sets, ways = 64, 8
	c, err := New(Config{Name: "l3", Size: sets * ways * 64, Ways: ways, LineBytes: 64, Policy: Random}, sim.NewRNG(7))
	require.NoError(t, err)
	a, err := NewArray("ref", sets, ways, Random, sim.NewRNG(7))
	require.NoError(t, err)
	require.NotNil(t, c.Repl.next)
	require.Nil(t, a.Repl.next)
	keys := sim.NewRNG(3)
	evictions := 0
	for i := 0; i < 20000; i++ {
		key := uint64(i)
		if i%3000 > 2000 { // scattered
			key = keys.Uint64n(4 * sets * ways)
		}
		if i%997 == 0 {
			c.Warm(key, 8)
		}
		e, hit := c.Claim(key, i%2 == 0)
		ea, hitA, old, evicted := a.Claim(key, i%2 == 0)
		require.Equal(t, ea, e, "claim %d of key %d", i, key)
		require.Equal(t, hitA, hit, "claim %d of key %d", i, key)
		if !hit {
			require.Equal(t, evicted, c.Evicted.Valid, "claim %d", i)
			require.Equal(t, old, c.Evicted.Line, "claim %d", i)
			if evicted {
				evictions++
			}
		}
		if i%1500 == 0 { // invalidate a run: free ways again
			for k := key; k < key+100; k++ {
				if e := c.Find(k); e >= 0 {
					c.Drop(e)
				}
				if e := a.Find(k); e >= 0 {
					a.Invalidate(e)
				}
			}
		}
	}
	require.Greater(t, evictions, 5000)
}
