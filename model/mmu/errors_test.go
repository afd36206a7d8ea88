package mmu

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// Bad input is an error naming what is wrong, and changes nothing.
func TestMapErrors(t *testing.T) {
	k, _, _ := kernel(t, ram)
	a, _, err := k.Vmap(run(P2, 512), PageKernel, VmapBatch)
	require.NoError(t, err)
	before := rows(k.PT, V, 8*MiB)
	pt := k.PT
	for _, c := range []struct {
		name string
		err  error
		msg  string
	}{
		{"overlap", func() error { _, err := pt.MapRange(a.VA+64*KiB, P, 64*KiB, PageKernel, Size4K); return err }(), "overlaps the existing mapping"},
		{"unaligned va", func() error { _, err := pt.MapRange(V+8*MiB+1, P, PageSize, PageKernel, Size4K); return err }(), "not page aligned"},
		{"unaligned pa", func() error { _, err := pt.MapRange(V+8*MiB, P+8, PageSize, PageKernel, Size4K); return err }(), "pa 0x1000008"},
		{"empty", func() error { _, err := pt.MapRange(V+8*MiB, P, 0, PageKernel, Size4K); return err }(), "positive multiple"},
		{"user half", func() error { _, err := pt.MapRange(0x1000, P, PageSize, PageKernel, Size4K); return err }(), "outside this table"},
		{"wraps", func() error {
			_, err := pt.MapRange(^uint64(0)&^(PageSize-1), P, 2*PageSize, PageKernel, Size4K)
			return err
		}(), "outside"},
		{"no sizes", func() error { _, err := pt.MapRange(V+8*MiB, P, PageSize, PageKernel, 0); return err }(), "sizes"},
		{"bad attr", func() error { _, err := pt.MapRange(V+8*MiB, P, PageSize, Prot{Attr: mem.Attr(9)}, Size4K); return err }(), "prot.attr"},
		{"unaligned block", func() error { _, err := pt.MapRange(V+8*MiB, P+PageSize, BlockL2, PageKernel, Size2M); return err }(), "unaligned block"},
		{"bad page in list", func() error { _, err := pt.MapPages(V+8*MiB, []uint64{P, P + 3}, PageKernel, Size4K); return err }(), "page 1"},
		{"unmap of a hole", func() error { _, err := pt.Unmap(V+8*MiB, PageSize); return err }(), "not mapped"},
		{"unmap splitting a block", func() error { _, err := pt.Unmap(a.VA, PageSize); return err }(), "split"},
		{"unmap past the end", func() error { _, err := pt.Unmap(a.VA, 2*MiB+PageSize); return err }(), "not mapped"},
		{"vunmap twice", func() error {
			b, _, _ := k.Vmap(run(P, 1), PageKernel, VmapMainline)
			_, _ = k.Vunmap(b)
			_, err := k.Vunmap(b)
			return err
		}(), "not mapped"},
	} {
		require.Error(t, c.err, c.name)
		assert.Contains(t, c.err.Error(), c.msg, c.name)
	}
	assert.Equal(t, before, rows(k.PT, V, 8*MiB))
	_, _, err = k.Vmap(nil, PageKernel, VmapBatch)
	assert.ErrorContains(t, err, "no pages")
}

// Running out of frames for page tables is an error and leaves no partial
// mapping.
func TestMapOutOfTableFrames(t *testing.T) {
	b, _ := mem.NewBuddy(16*PageSize, 4)
	m := NewMemory()
	pt, err := NewPageTable("tiny", m, b, nil, false)
	require.NoError(t, err)
	for b.FreePages() > 3 { // leave frames for two tables below the root, not three
		_, _ = b.Alloc(0)
	}
	_, err = pt.MapRange(0, 0, 2*PageSize, PageKernel, Size4K)
	require.NoError(t, err)
	_, err = pt.MapPages(GiB, []uint64{0, 2 * PageSize}, PageKernel, Size4K)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no frame for a page table")
	assert.Empty(t, pt.Leaves(GiB, 2*PageSize))
	assert.Len(t, pt.Leaves(0, 2*PageSize), 2)
}

// Random mapping changes, walks and corrupt descriptors never panic, and
// after every step the hardware walk agrees with the software lookup.
func TestRandomOperationsNoPanic(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		randomOps(t, sim.NewRNG(seed), 300)
	}
}

func FuzzOperations(f *testing.F) {
	f.Add(uint64(1), uint16(100))
	f.Add(uint64(99), uint16(500))
	f.Fuzz(func(t *testing.T, seed uint64, n uint16) {
		randomOps(t, sim.NewRNG(seed), int(n%600))
	})
}

func randomOps(t *testing.T, r *sim.RNG, n int) {
	b, _ := mem.NewBuddy(64*MiB, 10)
	m := NewMemory()
	pt, err := NewPageTable("fuzz", m, b, nil, false)
	require.NoError(t, err)
	w, err := NewWalker(caches, pt, &FixedPort{Mem: m, Read: sim.Nanosecond})
	require.NoError(t, err)
	sizes := []Size{Size4K, Size64K, Size2M, Size1G, Size4K | Size64K | Size2M, Size4K | Size2M | Size1G}
	va := func() uint64 { return uint64(r.Intn(1<<14)) * PageSize * uint64(1+r.Intn(16)) }
	corrupt := false
	last := uint64(0) // the address the last operation used
	for i := range n {
		if !corrupt && i%50 == 0 {
			require.NoError(t, pt.Verify())
		}
		if !corrupt && i%10 == 0 { // the leaf scan is the lookups', around the last change
			a := last&^(2*MiB-1) - 2*MiB
			require.Equal(t, leavesByLookup(pt, a, 8*MiB), pt.Leaves(a, 8*MiB), "leaves of %#x", a)
		}
		if r.Intn(3) > 0 { // often the same place again: unmaps cut holes into maps
			last = va()
		}
		switch r.Intn(6) {
		case 0, 1:
			_, _ = pt.MapRange(last, uint64(r.Intn(1<<12))*PageSize, uint64(1+r.Intn(1024))*PageSize, PageKernel, sizes[r.Intn(len(sizes))])
		case 2:
			pages := make([]uint64, 1+r.Intn(600))
			base := uint64(r.Intn(1<<12)) * PageSize
			for i := range pages {
				if r.Intn(20) == 0 {
					base = uint64(r.Intn(1<<12)) * PageSize
				}
				pages[i] = base + uint64(i)*PageSize
			}
			_, _ = pt.MapPages(last, pages, PageKernel, sizes[r.Intn(len(sizes))])
		case 3:
			if _, err := pt.Unmap(last, uint64(1+r.Intn(600))*PageSize); err == nil {
				w.Invalidate()
			}
		case 4: // corrupt a descriptor on the walk path of some address
			_, steps := w.Trace(va(), nil)
			if len(steps) > 0 {
				m.Write64(steps[r.Intn(len(steps))].DescAddr, r.Uint64())
				corrupt = true
			}
			w.Invalidate()
		default:
			a := va() + uint64(r.Intn(PageSize))
			res := w.Walk(a)
			l, err := pt.Lookup(a)
			require.Equal(t, err == nil, res.OK)
			if res.OK {
				require.Equal(t, l, res.Leaf)
				require.True(t, a >= l.VA && a-l.VA < l.Bytes)
			}
		}
	}
	if !corrupt {
		require.NoError(t, pt.Verify())
	}
	_ = pt.Verify()
	n = 0
	pt.eachLeaf(0, 1<<VABits, func(*Leaf) bool { n++; return n < 1<<16 })
}

func TestVerifyFindsBrokenRules(t *testing.T) {
	for _, c := range []struct {
		name  string
		pa, v uint64 // descriptor to overwrite after a large vmap of 16 pages
		msg   string
	}{
		{"run with a gap", vmL3 + 5*8, 0, "PTE 5"},
		{"run with another frame", vmL3 + 5*8, (P + 64*KiB) | 0x0070_0000_0000_0703, "PTE 5"},
		{"stray contiguous PTE", vmL3 + 20*8, (P + MiB) | 0x0070_0000_0000_0703, "does not start"},
		{"table pointing at data", vmL2 + 8, 64*MiB | 3, "not a table"},
		{"misaligned block", vmL2 + 8, (P2 + PageSize) | 0x701, "not aligned"},
	} {
		k, m, _ := kernel(t, ram)
		_, _, err := k.Vmap(run(P, 16), PageKernel, VmapBatch)
		require.NoError(t, err)
		require.NoError(t, k.PT.Verify())
		m.Write64(c.pa, c.v)
		assert.ErrorContains(t, k.PT.Verify(), c.msg, c.name)
	}
}

// leavesByLookup is what eachLeaf promises, one Lookup at a time: the
// leaves overlapping [va, va+bytes), a hole skipped a descriptor's span.
func leavesByLookup(pt *PageTable, va, bytes uint64) []Leaf {
	var out []Leaf
	for a := va; a < va+bytes; {
		l, err := pt.Lookup(a)
		if err == nil {
			out = append(out, l)
			a = l.VA + l.Bytes
			continue
		}
		var f *Fault
		if !errors.As(err, &f) || f.Range {
			break
		}
		span := uint64(1) << levelShift(f.Level)
		a = a&^(span-1) + span
	}
	return out
}
