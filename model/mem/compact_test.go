package mem

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/sim"
)

// Compacting the free stacks after every operation hands out exactly the
// blocks an allocator that never compacts does (its stacks stay below
// the compaction threshold), through random allocations, frees, merges
// and pinned frames.
func TestCompactChangesNoAllocation(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		plain, err := NewBuddy(512*PageSize, 6)
		require.NoError(t, err)
		packed, err := NewBuddy(512*PageSize, 6)
		require.NoError(t, err)
		r := sim.NewRNG(seed)
		var held []Chunk
		for step := 0; step < 4000; step++ {
			switch op := r.Intn(10); {
			case op < 5:
				o := r.Intn(4)
				a, errA := plain.Alloc(o)
				b, errB := packed.Alloc(o)
				require.Equal(t, errA == nil, errB == nil, "seed %d step %d", seed, step)
				require.Equal(t, a, b, "seed %d step %d: order %d", seed, step, o)
				if errA == nil {
					held = append(held, a)
				}
			case op < 9 && len(held) > 0:
				i := r.Intn(len(held))
				require.NoError(t, plain.Free(held[i]))
				require.NoError(t, packed.Free(held[i]))
				held = append(held[:i], held[i+1:]...)
			default:
				pfn := r.Uint64n(512)
				require.Equal(t, plain.AllocAt(pfn), packed.AllocAt(pfn))
			}
			for o := range packed.stacks {
				require.Less(t, len(plain.stacks[o]), 1024, "the reference must never compact")
				packed.compact(o)
			}
		}
	}
}
