package render

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSortByPAMatchesAStableSort: the radix sort gives the (PA, VA) order
// of a comparison sort, for addresses that differ in few or many bits,
// with ties, and leaves units already in PA order as they are.
func TestSortByPAMatchesAStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name string
		n    int
		pa   func(i int) uint64
	}{
		{"4 KiB frames of 1 GiB, shuffled", 262144, func(int) uint64 { return rng.Uint64N(1<<18) << 12 }},
		{"high bits only", 1000, func(int) uint64 { return rng.Uint64N(4) << 60 }},
		{"all 64 bits", 5000, func(int) uint64 { return rng.Uint64() }},
		{"ties", 3000, func(int) uint64 { return rng.Uint64N(8) << 21 }},
		{"in order", 2000, func(i int) uint64 { return uint64(i) << 12 }},
		{"one", 1, func(int) uint64 { return 42 }},
		{"none", 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			units := make([]paUnit, tc.n)
			for i := range units {
				units[i] = paUnit{pa: tc.pa(i), va: uint64(i) << 12, bytes: 4096, chunk: int32(i)}
			}
			want := slices.Clone(units)
			slices.SortStableFunc(want, func(a, b paUnit) int {
				switch {
				case a.pa < b.pa:
					return -1
				case a.pa > b.pa:
					return 1
				}
				return 0
			})
			var keys []paKey
			got, spare := sortByPA(slices.Clone(units), nil, &keys)
			require.Len(t, got, tc.n)
			assert.Equal(t, want, got)
			if tc.name == "in order" {
				assert.Nil(t, spare, "units in order are returned as they are, nothing allocated")
			}
		})
	}
}
