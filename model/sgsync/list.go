package sgsync

import (
	"fmt"
	"math/bits"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
)

// entry is one scatterlist element (struct scatterlist: page, offset,
// length): a physically contiguous range, reached by the CPU through the
// list's linear-map buffer at buf.VA+off.
type entry struct {
	off uint64 // offset in the buffer mapping
	len uint64
}

// sgList is a scatterlist and the mapping its entries live in.
type sgList struct {
	buf     soc.Buffer
	entries []entry
	// lo, hi bound every frame the list was given (physical), for the
	// grid and for version tracking.
	lo, hi uint64
}

func (l *sgList) va(e entry) uint64 { return l.buf.VA + e.off }

// runs calls f for each physically contiguous piece of e.
func (l *sgList) runs(e entry, f func(pa, n uint64) error) error {
	for off, end := e.off, e.off+e.len; off < end; {
		r := mem.RunAt(l.buf.Pages, off, end)
		if r.N == 0 {
			return fmt.Errorf("sg entry at offset %#x: past the buffer's %d pages", off, len(l.buf.Pages))
		}
		if err := f(r.PA, r.N); err != nil {
			return err
		}
		off += r.N
	}
	return nil
}

// entrySizes splits total into entries of size entry (the last one takes
// what is left). mixed draws each size from entry/2, entry and 2 x entry
// (within 512 B..1 MiB) with a seeded RNG.
func entrySizes(total, size uint64, mixed bool, seed uint64) []uint64 {
	if size == 0 {
		return nil
	}
	rng := sim.NewRNG(seed ^ 0x5eed_5eed)
	var out []uint64
	for left := total; left > 0; {
		s := size
		if mixed {
			switch rng.Intn(3) {
			case 0:
				s = max(size/2, 512)
			case 2:
				s = min(size*2, 1<<20)
			}
		}
		s = min(s, left)
		out = append(out, s)
		left -= s
	}
	return out
}

func orderFor(pages uint64) int {
	if pages <= 1 {
		return 0
	}
	return bits.Len64(pages - 1)
}

// buildList allocates the entries. With scatter each entry gets its own
// block of frames from the buddy allocator, starting offset bytes into
// its first page, and 1-2 frames after it go to someone else (seeded), so
// no two entries are physically adjacent. Without scatter one buffer is
// allocated and the entries are packed back to back from offset.
func buildList(m *soc.Machine, name string, sizes []uint64, offset uint64, scatter bool, rng *sim.RNG) (sgList, error) {
	var l sgList
	var pages []uint64
	if scatter {
		for _, s := range sizes {
			c, err := m.Buddy().Alloc(orderFor((offset + s + mem.PageSize - 1) >> mem.PageShift))
			if err != nil {
				return l, fmt.Errorf("total: out of memory for the scatterlist: %w", err)
			}
			l.entries = append(l.entries, entry{off: uint64(len(pages))<<mem.PageShift + offset, len: s})
			for i := uint64(0); i < 1<<c.Order; i++ {
				pages = append(pages, c.PA()+i<<mem.PageShift)
			}
			for g := 1 + rng.Intn(2); g > 0; g-- {
				if _, err := m.Buddy().Alloc(0); err != nil {
					return l, fmt.Errorf("total: out of memory for the scatterlist: %w", err)
				}
			}
		}
	} else {
		need := offset
		for _, s := range sizes {
			l.entries = append(l.entries, entry{off: need, len: s})
			need += s
		}
		chunks, err := m.Buddy().AllocPreferLarge((need+mem.PageSize-1)>>mem.PageShift, m.Buddy().MaxOrder())
		if err != nil {
			return l, fmt.Errorf("total: out of memory for the buffer: %w", err)
		}
		for _, c := range chunks {
			for i := uint64(0); i < 1<<c.Order; i++ {
				pages = append(pages, c.PA()+i<<mem.PageShift)
			}
		}
	}
	buf, err := m.MapPages(name, pages, mem.Normal)
	if err != nil {
		return l, err
	}
	l.buf = buf
	l.lo, l.hi = ^uint64(0), 0
	for _, pa := range pages {
		l.lo, l.hi = min(l.lo, pa), max(l.hi, pa+mem.PageSize)
	}
	return l, nil
}

// bounceList lays a SWIOTLB slot for every entry of l in the pool: slots
// of IO_TLB_SIZE (2 KiB), each mapping starting on a slot boundary.
func bounceList(pool soc.Buffer, l *sgList) sgList {
	b := sgList{buf: pool, lo: pool.Pages[0], hi: pool.Pages[0] + pool.Size}
	off := uint64(0)
	for _, e := range l.entries {
		b.entries = append(b.entries, entry{off: off, len: e.len})
		off = (off + e.len + 2047) &^ 2047
	}
	for _, pa := range pool.Pages {
		b.lo, b.hi = min(b.lo, pa), max(b.hi, pa+mem.PageSize)
	}
	return b
}

// bounceBytes is the pool size bounceList needs.
func bounceBytes(sizes []uint64) uint64 {
	n := uint64(0)
	for _, s := range sizes {
		n += (s + 2047) &^ 2047
	}
	return (n + mem.PageSize - 1) &^ (mem.PageSize - 1)
}

// physRange returns a buffer over every frame in [lo, hi): the grid of
// physical memory the list is laid over, and the range tracked for stale
// and lost data (one region, gaps included).
func physRange(lo, hi uint64) soc.Buffer {
	b := soc.Buffer{Name: "physical memory", VA: lo, Size: hi - lo, Attr: mem.Normal}
	for pa := lo; pa < hi; pa += mem.PageSize {
		b.Pages = append(b.Pages, pa)
	}
	return b
}
