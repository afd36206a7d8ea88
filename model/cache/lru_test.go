package cache

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/sim"
)

// stampLRU is the reference LRU: a use stamp per entry, the victim the
// valid way with the smallest (the lowest way on a tie).
type stampLRU struct {
	ways  int
	clock uint64
	stamp []uint64
	key   []uint64 // key+1, 0 invalid
}

func (s *stampLRU) claim(key uint64, sets int, touch bool) (int, bool) {
	set := int(key) & (sets - 1)
	base := set * s.ways
	free := -1
	for w := 0; w < s.ways; w++ {
		if s.key[base+w] == key+1 {
			if touch {
				s.clock++
				s.stamp[base+w] = s.clock
			}
			return base + w, true
		}
		if s.key[base+w] == 0 && free < 0 {
			free = w
		}
	}
	v := free
	if v < 0 {
		v = 0
		for w := 1; w < s.ways; w++ {
			if s.stamp[base+w] < s.stamp[base+v] {
				v = w
			}
		}
	}
	s.clock++
	s.stamp[base+v], s.key[base+v] = s.clock, key+1
	return base + v, false
}

// The LRU list (Replacer.use, Forget, Victim) evicts what a use stamp per
// entry evicts, for way counts that are and are not powers of two (a TLB's
// 5-way sets, a fully associative 48-entry one, a single entry), with
// non-touching hits, touches through Array.Touch and invalidations.
func TestLRUListMatchesStamps(t *testing.T) {
	for _, g := range []struct{ sets, ways int }{{256, 5}, {1, 48}, {1, 1}, {16, 4}, {4, 7}} {
		a, err := NewArray("tlb", g.sets, g.ways, LRU, nil)
		require.NoError(t, err)
		ref := &stampLRU{ways: g.ways, stamp: make([]uint64, g.sets*g.ways), key: make([]uint64, g.sets*g.ways)}
		rng := sim.NewRNG(uint64(g.ways))
		span := uint64(3 * g.sets * g.ways)
		for i := 0; i < 40000; i++ {
			key := rng.Uint64n(span)
			if i%5000 < 1000 { // a stream
				key = uint64(i) % span
			}
			switch op := rng.Intn(10); {
			case op == 0: // invalidate
				if e := a.Find(key); e >= 0 {
					a.Invalidate(e)
					ref.key[e] = 0
				}
			case op == 1: // touch a hit found by Find
				if e := a.Find(key); e >= 0 {
					a.Touch(e)
					ref.clock++
					ref.stamp[e] = ref.clock
				}
			default:
				touch := op != 2
				e, hit, _, _ := a.Claim(key, touch)
				er, hitR := ref.claim(key, g.sets, touch)
				require.Equal(t, hitR, hit, "%dx%d claim %d of key %d", g.sets, g.ways, i, key)
				require.Equal(t, er, e, "%dx%d claim %d of key %d", g.sets, g.ways, i, key)
			}
		}
	}
}
