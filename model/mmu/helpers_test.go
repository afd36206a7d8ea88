package mmu

import (
	"fmt"
	"math/bits"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/mem"
)

const (
	KiB = 1 << 10
	MiB = 1 << 20
	GiB = 1 << 30
)

// row is one line of a page-table listing: VA range -> PA, leaf size,
// attributes. Consecutive leaves of one size with contiguous VA and PA and
// the same attributes share a row.
type row struct {
	VA, End, PA uint64
	Size        uint64
	Prot        string
}

func (r row) String() string {
	return fmt.Sprintf("%#x..%#x -> %#x %dK %s", r.VA, r.End, r.PA, r.Size/KiB, r.Prot)
}

func rows(pt *PageTable, va, bytes uint64) []row {
	var out []row
	for _, l := range pt.Leaves(va, bytes) {
		p := l.Prot.String()
		if n := len(out); n > 0 {
			last := &out[n-1]
			if last.Size == l.Bytes && last.End == l.VA && last.PA+(last.End-last.VA) == l.PA && last.Prot == p {
				last.End += l.Bytes
				continue
			}
		}
		out = append(out, row{l.VA, l.VA + l.Bytes, l.PA, l.Bytes, p})
	}
	return out
}

// run returns n page addresses from pa on.
func run(pa uint64, n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = pa + uint64(i)*PageSize
	}
	return out
}

func cat(runs ...[]uint64) []uint64 {
	var out []uint64
	for _, r := range runs {
		out = append(out, r...)
	}
	return out
}

// kernel returns a kernel space over ram bytes of fresh memory with the
// block-mapped linear map.
func kernel(t testing.TB, ram uint64) (*KernelSpace, *Memory, *mem.Buddy) {
	t.Helper()
	b, err := mem.NewBuddy(ram, mem.DefaultMaxOrder)
	require.NoError(t, err)
	m := NewMemory()
	k, _, err := NewKernelSpace(m, b, nil, Size4K|Size2M|Size1G)
	require.NoError(t, err)
	return k, m, b
}

// requireHeld checks a TLB's size counts against its entries: held[sh] is
// the number of valid entries of 2^sh bytes and heldMask has a bit for
// each size held.
func requireHeld(t *testing.T, tl *TLB) {
	t.Helper()
	var want [31]int
	for e := range tl.ent {
		if _, ok := tl.arr.Key(e); ok {
			want[bits.TrailingZeros64(tl.ent[e].Bytes)]++
		}
	}
	require.Equal(t, want, tl.held, "%s: held", tl.Name)
	for sh, n := range want {
		require.Equal(t, n > 0, tl.heldMask&(1<<sh) != 0, "%s: heldMask bit %d", tl.Name, sh)
	}
}

// vmapOf is the vmap of a case that asks for large mappings or not.
func vmapOf(large bool) VmapMode {
	if large {
		return VmapBatch
	}
	return VmapMainline
}
