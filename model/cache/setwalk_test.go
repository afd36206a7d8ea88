package cache

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/sim"
)

// Array.Claim, the one lookup-victim-fill, against the reference LRU on
// TLB shapes: fully associative with more than 64 ways, and LRU with a
// way count that is not a power of two (the A76/N1 L2 TLB: 1280 entries,
// 5-way).
func TestArrayClaimMatchesLRUReference(t *testing.T) {
	for _, shape := range []struct{ sets, ways int }{{1, 48}, {1, 96}, {1, 1024}, {256, 5}, {64, 3}} {
		t.Run(fmt.Sprintf("%dx%d", shape.sets, shape.ways), func(t *testing.T) {
			a, err := NewArray("tlb", shape.sets, shape.ways, LRU, nil)
			require.NoError(t, err)
			ref := &refCache{ways: shape.ways, sets: make([][]refLine, shape.sets)}
			rng := sim.NewRNG(uint64(shape.ways))
			span := uint64(shape.sets * shape.ways * 2)
			for step := 0; step < 20000; step++ {
				key := rng.Uint64n(span)
				e, hit, old, evicted := a.Claim(key, true)
				rhit, victim, revicted := ref.access(key, false)
				require.Equal(t, rhit, hit, "step %d key %d", step, key)
				require.Equal(t, revicted, evicted, "step %d key %d", step, key)
				if evicted {
					require.Equal(t, victim.line, old, "step %d key %d", step, key)
				}
				k, ok := a.Key(e)
				require.True(t, ok)
				require.Equal(t, key, k)
				require.Equal(t, e, a.Find(key), "Find walks the same set")
			}
		})
	}
}

// A TLB with several entry sizes in one fully associative array: the key
// carries the size (page number << 2 | size index), a lookup tries each
// size, and a 2 MiB entry covers every 4 KiB page of its block.
func TestArraySeveralEntrySizes(t *testing.T) {
	shifts := []uint{12, 16, 21} // 4 KiB, 64 KiB (contiguous hint), 2 MiB
	key := func(va uint64, size int) uint64 { return va>>shifts[size]<<2 | uint64(size) }
	a, err := NewArray("l1dtlb", 1, 48, LRU, nil)
	require.NoError(t, err)
	lookup := func(va uint64) (int, int) {
		for size := len(shifts) - 1; size >= 0; size-- {
			if e := a.Find(key(va, size)); e >= 0 {
				return e, size
			}
		}
		return -1, -1
	}
	_, hit, _, _ := a.Claim(key(0x4020_0000, 2), true) // a 2 MiB block
	require.False(t, hit)
	_, hit, _, _ = a.Claim(key(0x5000_0000, 1), true) // a 64 KiB run
	require.False(t, hit)
	_, hit, _, _ = a.Claim(key(0x6000_3000, 0), true) // one page
	require.False(t, hit)
	for _, tc := range []struct {
		va   uint64
		size int
	}{{0x4020_0000, 2}, {0x403f_f000, 2}, {0x5000_f000, 1}, {0x6000_3fff, 0}, {0x6000_4000, -1}, {0x4040_0000, -1}, {0x5001_0000, -1}} {
		_, size := lookup(tc.va)
		assert.Equal(t, tc.size, size, "%#x", tc.va)
	}
	// 45 more pages fill the array; the next one evicts the least recently
	// used entry: the 2 MiB block.
	for i := uint64(0); i < 45; i++ {
		a.Claim(key(0x7000_0000+i<<12, 0), true)
	}
	_, size := lookup(0x4020_0000)
	assert.Equal(t, 2, size, "45 new pages fill the free ways")
	a.Claim(key(0x7100_0000, 0), true)
	_, size = lookup(0x4020_0000)
	assert.Equal(t, -1, size, "the least recently used entry went first")
	_, size = lookup(0x5000_0000)
	assert.Equal(t, 1, size)
}

// PLRU keeps its limit (a power of two up to 64 ways); every other shape
// up to MaxWays is accepted.
func TestArrayShapes(t *testing.T) {
	_, err := NewArray("x", 1, 96, PLRU, nil)
	assert.ErrorContains(t, err, "plru needs a power of two up to 64")
	_, err = NewArray("x", 1, MaxWays+1, LRU, nil)
	assert.ErrorContains(t, err, "x.ways: 4097 is out of range")
	a, err := NewArray("x", 1, 300, Random, sim.NewRNG(1))
	require.NoError(t, err)
	for i := uint64(0); i < 1000; i++ {
		a.Claim(i%400, true)
	}
	n := 0
	for e := 0; e < a.Entries(); e++ {
		if _, ok := a.Key(e); ok {
			n++
		}
	}
	assert.Equal(t, 300, n)
	assert.Equal(t, 300, int(a.valid[0]), "300 ways counted past uint8")
}

// A key whose partial tag is all ones matches the padding lanes of a way
// count that is not a multiple of 4; in the last set those lanes point
// past the array's entries. The walk must answer from the real ways only.
func TestPaddingLanesNeverHit(t *testing.T) {
	const sets, ways = 2, 6
	a, err := NewArray("t", sets, ways, LRU, nil)
	require.NoError(t, err)
	allOnes := func(hi uint64) uint64 { return hi<<16 | 0x7fff<<1 | 1 } // set 1, partial tag 0xffff
	for i := uint64(0); i < ways; i++ {
		assert.Equal(t, -1, a.Find(allOnes(i)), "key %d before any fill", i)
		e, hit, _, _ := a.Claim(allOnes(i), true)
		require.False(t, hit, "key %d", i)
		require.Equal(t, 1, e/ways, "key %d fills set 1", i)
	}
	for i := uint64(0); i < ways; i++ {
		e := a.Find(allOnes(i))
		require.GreaterOrEqual(t, e, 0, "key %d", i)
		k, ok := a.Key(e)
		assert.True(t, ok)
		assert.Equal(t, allOnes(i), k)
	}
	assert.Equal(t, -1, a.Find(allOnes(ways)), "a seventh key with the same partial tag")
	_, hit, old, evicted := a.Claim(allOnes(ways), true)
	assert.False(t, hit)
	assert.True(t, evicted)
	assert.Equal(t, allOnes(0), old, "LRU: the first filled goes")
	assert.Equal(t, sets*ways, a.Entries())
}
