package mem

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRuns(t *testing.T) {
	const p = PageSize
	// Frames: 0x10000, 0x11000 contiguous; 0x40000 alone; 0x20000, 0x21000,
	// 0x22000 contiguous; 0x21000 again (mapped twice).
	pages := []uint64{0x10000, 0x11000, 0x40000, 0x20000, 0x21000, 0x22000, 0x21000}
	for _, tc := range []struct {
		name     string
		pages    []uint64
		off, end uint64
		want     []Run
	}{
		{"empty list", nil, 0, p, nil},
		{"empty range", pages, p, p, nil},
		{"one page", pages, 0, p, []Run{{Off: 0, PA: 0x10000, N: p}}},
		{"whole list", pages, 0, 7 * p, []Run{
			{Off: 0, PA: 0x10000, N: 2 * p},
			{Off: 2 * p, PA: 0x40000, N: p},
			{Off: 3 * p, PA: 0x20000, N: 3 * p},
			{Off: 6 * p, PA: 0x21000, N: p},
		}},
		{"end clipped to the list", pages, 5 * p, 100 * p, []Run{
			{Off: 5 * p, PA: 0x22000, N: p},
			{Off: 6 * p, PA: 0x21000, N: p},
		}},
		{"partial first and last page", pages, 0x800, 2*p + 0x10, []Run{
			{Off: 0x800, PA: 0x10800, N: 2*p - 0x800},
			{Off: 2 * p, PA: 0x40000, N: 0x10},
		}},
		{"inside one page", pages, 3*p + 0x40, 3*p + 0x80, []Run{{Off: 3*p + 0x40, PA: 0x20040, N: 0x40}}},
		{"start past the list", pages, 8 * p, 9 * p, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Runs(tc.pages, tc.off, tc.end))
			first := RunAt(tc.pages, tc.off, tc.end)
			if len(tc.want) == 0 {
				assert.Zero(t, first.N)
			} else {
				assert.Equal(t, tc.want[0], first)
			}
		})
	}
}

func TestContiguous(t *testing.T) {
	for _, tc := range []struct {
		pages []uint64
		want  bool
	}{
		{nil, true},
		{[]uint64{0x5000}, true},
		{[]uint64{0x5000, 0x6000, 0x7000}, true},
		{[]uint64{0x5000, 0x7000}, false},
		{[]uint64{0x6000, 0x5000}, false},
	} {
		assert.Equal(t, tc.want, Contiguous(tc.pages), "%#x", tc.pages)
	}
}

func TestRunIndex(t *testing.T) {
	var x RunIndex
	x.Add(0, []uint64{0x30000, 0x31000, 0x10000}, 3*PageSize)
	x.Add(1, []uint64{0x50000}, PageSize)
	assert.Equal(t, []Run{
		{Off: 2 * PageSize, PA: 0x10000, N: PageSize},
		{Off: 0, PA: 0x30000, N: 2 * PageSize},
		{Off: 0, PA: 0x50000, N: PageSize, List: 1},
	}, x.Runs(), "sorted by physical address")
	for _, tc := range []struct {
		pa   uint64
		ok   bool
		list int
		off  uint64
	}{
		{0x30040, true, 0, 0x40},
		{0x31fff, true, 0, 0x1fff}, // the same run again (the fast path)
		{0x10010, true, 0, 2*PageSize + 0x10},
		{0x50000, true, 1, 0},
		{0x32000, false, 0, 0},
		{0x0fff, false, 0, 0},
		{0x51000, false, 0, 0},
		{0x30000, true, 0, 0}, // after misses
	} {
		i := x.Find(tc.pa)
		require.Equal(t, tc.ok, i >= 0, "%#x", tc.pa)
		if i >= 0 {
			r := x.Runs()[i]
			assert.Equal(t, tc.list, r.List, "%#x", tc.pa)
			assert.Equal(t, tc.off, r.Off+tc.pa-r.PA, "%#x", tc.pa)
		}
	}
}

func TestRunIndexOverlap(t *testing.T) {
	// Frames in two lists, partly the same: Find answers what a search
	// answers (the earliest run by address ending after pa), whatever it
	// found last.
	var x RunIndex
	x.Add(0, []uint64{0x20000, 0x21000}, 2*PageSize)
	x.Add(1, []uint64{0x21000, 0x22000}, 2*PageSize)
	i := x.Find(0x22800)
	require.GreaterOrEqual(t, i, 0)
	assert.Equal(t, 1, x.Runs()[i].List)
	i = x.Find(0x21800)
	require.GreaterOrEqual(t, i, 0)
	assert.Equal(t, 0, x.Runs()[i].List, "the search's answer, not the last hit's run")
}
