package mmu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A long vmap of scattered pages or a long vunmap reports its progress
// every progressPages pages, in steps that add up to no more than the
// pages it did, and the table it builds is the one it builds without a
// Progress hook.
func TestMapAndUnmapReportProgress(t *testing.T) {
	const pages = 3*progressPages + 100
	scattered := func() []uint64 {
		list := make([]uint64, pages)
		for i := range list {
			list[i] = P2 + uint64(2*i)*PageSize // every other frame: no two adjacent
		}
		return list
	}
	k, _, _ := kernel(t, ram)
	var steps []int
	k.PT.Progress = func(n int) { steps = append(steps, n) }
	a, _, err := k.Vmap(scattered(), PageKernel, VmapMainline)
	require.NoError(t, err)
	require.Len(t, steps, 3, "vmap of %d pages", pages)
	sum := 0
	for _, n := range steps {
		assert.GreaterOrEqual(t, n, progressPages)
		sum += n
	}
	assert.LessOrEqual(t, sum, pages)

	plain, _, _ := kernel(t, ram)
	b, _, err := plain.Vmap(scattered(), PageKernel, VmapMainline)
	require.NoError(t, err)
	require.Equal(t, a, b)
	require.Equal(t, rows(plain.PT, b.VA, b.Bytes), rows(k.PT, a.VA, a.Bytes))

	steps = steps[:0]
	_, err = k.Vunmap(a)
	require.NoError(t, err)
	require.Len(t, steps, 3, "vunmap of %d pages", pages)
}
