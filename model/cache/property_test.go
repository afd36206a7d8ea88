package cache

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/sim"
)

// refCache is the simplest LRU write-back cache: per set a list ordered
// most recently used first.
type refCache struct {
	ways int
	sets [][]refLine
}

type refLine struct {
	line  uint64
	dirty bool
}

func (r *refCache) access(line uint64, write bool) (hit bool, victim refLine, evicted bool) {
	s := r.sets[line%uint64(len(r.sets))]
	for i, l := range s {
		if l.line == line {
			l.dirty = l.dirty || write
			copy(s[1:i+1], s[:i])
			s[0] = l
			return true, refLine{}, false
		}
	}
	if len(s) == r.ways {
		victim, evicted = s[len(s)-1], true
		s = s[:len(s)-1]
	}
	s = append([]refLine{{line, write}}, s...)
	r.sets[line%uint64(len(r.sets))] = s
	return false, victim, evicted
}

// checkInvariants: no key twice in a set, every key in its own set, dirty
// only on valid entries.
func checkInvariants(t *testing.T, c *Cache, step int) {
	for s := 0; s < c.Sets(); s++ {
		seen := map[uint64]bool{}
		for w := 0; w < c.Ways(); w++ {
			e := s*c.Ways() + w
			k, ok := c.Key(e)
			if !ok {
				require.False(t, c.Meta[e].Dirty, "step %d: invalid entry %d is dirty", step, e)
				require.EqualValues(t, 0, c.words[s*c.wps+w>>2]>>(uint(w&3)*16)&0xffff, "step %d: invalid entry %d has a partial tag", step, e)
				continue
			}
			{
				got, want := c.words[s*c.wps+w>>2]>>(uint(w&3)*16)&0xffff, c.partial(k)
				require.Equal(t, want, got, "step %d: entry %d partial tag %#x, want %#x", step, e, got, want)
			}
			require.False(t, seen[k], "step %d: line %#x twice in set %d", step, k, s)
			seen[k] = true
			require.Equal(t, s, c.SetOf(k), "step %d: line %#x in set %d, belongs in %d", step, k, s, c.SetOf(k))
		}
	}
}

// LRU must match the reference exactly (hits, victims, dirty bits); PLRU
// and random must keep the contents the model reports (a shadow set built
// from fills and reported victims) and the invariants.
func TestPropertyAgainstReference(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3, 42, 1234} {
		for _, p := range []Policy{LRU, PLRU, Random} {
			rng := sim.NewRNG(seed)
			sets, ways := 1<<(1+rng.Intn(3)), 1<<rng.Intn(3)
			if p != PLRU && seed%2 == 1 {
				ways = []int{3, 5, 6, 12}[rng.Intn(4)] // partial lanes padding
			}
			c, err := New(Config{Name: "p", Size: sets * ways * 64, Ways: ways, LineBytes: 64, Policy: p}, rng.Split())
			require.NoError(t, err)
			ref := &refCache{ways: ways, sets: make([][]refLine, sets)}
			shadow := map[uint64]bool{}
			span := uint64(sets * ways * 3)

			for step := 0; step < 3000; step++ {
				line := rng.Uint64n(span)
				if seed == 1234 {
					// Keys 2^15 apart above the set bits share a partial
					// tag: exercise false candidates.
					line ^= uint64(rng.Intn(4)) << (c.shift + 15)
				}
				write := rng.Intn(3) == 0
				hit, v := c.Access(line, write)
				require.Equal(t, shadow[line], hit, "seed %d %v step %d: hit=%v but shadow says %v", seed, p, step, hit, shadow[line])
				if v.Valid {
					require.True(t, shadow[v.Line], "seed %d %v step %d: evicted %#x not resident", seed, p, step, v.Line)
					delete(shadow, v.Line)
				}
				shadow[line] = true
				if p == LRU {
					rhit, rv, rev := ref.access(line, write)
					require.Equal(t, hit, rhit, "seed %d step %d: model hit=%v victim=%+v, reference hit=%v victim=%+v/%v", seed, step, hit, v, rhit, rv, rev)
					require.EqualValues(t, v.Valid, rev, "seed %d step %d: model hit=%v victim=%+v, reference hit=%v victim=%+v/%v", seed, step, hit, v, rhit, rv, rev)
					require.False(t, rev && (rv.line != v.Line || rv.dirty != v.Dirty), "seed %d step %d: model hit=%v victim=%+v, reference hit=%v victim=%+v/%v", seed, step, hit, v, rhit, rv, rev)
				}
				checkInvariants(t, c, step)
				n := 0
				for e := 0; e < c.Entries(); e++ {
					if _, ok := c.Key(e); ok {
						n++
					}
				}
				require.Equal(t, len(shadow), n, "seed %d %v step %d: %d valid entries, shadow has %d", seed, p, step, n, len(shadow))
			}
		}
	}
}
