package cache

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/sim"
)

// The per-set valid counts that let fills skip the free-way search and
// Find skip empty sets, and the group counts that let Find and Lookup skip
// absent pages, match the tags after every fill and invalidation.
func TestValidCounts(t *testing.T) {
	for _, p := range []Policy{LRU, PLRU, Random} {
		rng := sim.NewRNG(uint64(p) + 5)
		ways := 4
		if p != PLRU {
			ways = 6
		}
		c, err := New(Config{Name: "v", Size: 8 * ways * 64, Ways: ways, LineBytes: 64, Policy: p}, rng.Split())
		require.NoError(t, err)
		for step := 0; step < 4000; step++ {
			line := rng.Uint64n(200) << (6 * uint(rng.Intn(3))) // several groups
			if rng.Intn(4) == 0 {
				if e := c.Find(line); e >= 0 {
					c.Drop(e)
				}
			} else {
				c.Access(line, rng.Intn(2) == 0)
			}
			for s := 0; s < c.Sets(); s++ {
				n := 0
				for w := 0; w < ways; w++ {
					if _, ok := c.Key(s*ways + w); ok {
						n++
					}
				}
				require.Equal(t, n, int(c.valid[s]), "%v step %d: set %d counts %d valid ways, has %d", p, step, s, c.valid[s], n)
			}
			want := make([]uint32, len(c.count))
			for e := 0; e < c.Entries(); e++ {
				if k, ok := c.Key(e); ok {
					want[c.bucket(k)]++
				}
			}
			for b, n := range want {
				require.Equal(t, n, c.count[b], "%v step %d: bucket %d counts %d entries, has %d", p, step, b, c.count[b], n)
			}
		}
	}
}
