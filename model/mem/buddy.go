// Package mem models physical memory: page frames handed out by a buddy
// allocator, the data version of every tracked 64-byte line (who wrote it
// last and when), and virtual-to-physical mappings with memory attributes.
package mem

import (
	"fmt"
	"math/bits"

	"github.com/dmaviz/dmaviz/model/sim"
)

// Page geometry (4 KiB translation granule).
const (
	PageShift       = 12
	PageSize        = 1 << PageShift
	DefaultMaxOrder = 10 // Linux MAX_PAGE_ORDER on arm64 with 4 KiB pages: 4 MiB blocks
)

// Buddy is a binary buddy allocator over page frames, like Linux's page
// allocator: a free block of order k is 2^k frames aligned to 2^k frames;
// allocation splits the smallest larger free block, freeing merges a block
// with its free buddy.
//
// Free lists are LIFO stacks with lazy deletion: a merge marks the absorbed
// buddy not-free in state and leaves its stack entry behind; Alloc skips such
// entries. The result is deterministic (no map order, no randomness except
// Fragment's explicit RNG).
type Buddy struct {
	frames   uint64
	maxOrder int
	// ft holds, per frame, the order of the free block that starts there
	// (or -1) and of the allocated block that starts there (or -1).
	// Invariant: free blocks never overlap.
	ft     frameTable
	stacks [][]uint64 // per order, candidate free block heads
	nfree  []uint64   // per order, live free blocks
	// Progress, if set, is called every shapeProgress max-order blocks
	// Shape fragments, and by callers freeing many blocks (a simulation
	// gives way there). It must not use the allocator.
	Progress func()
}

// shapeProgress is how often Shape calls Progress.
const shapeProgress = 16

// Chunk is a physically contiguous allocation: 2^Order frames from PFN.
type Chunk struct {
	PFN   uint64
	Order int
}

// PA returns the physical address of the chunk's first byte.
func (c Chunk) PA() uint64 { return c.PFN << PageShift }

// Bytes returns the chunk size in bytes.
func (c Chunk) Bytes() uint64 { return PageSize << c.Order }

// NewBuddy returns an allocator over bytes of memory (a multiple of the page
// size) with blocks up to maxOrder (0..20). All memory starts free.
func NewBuddy(bytes uint64, maxOrder int) (*Buddy, error) {
	if bytes == 0 || bytes%PageSize != 0 {
		return nil, fmt.Errorf("mem.bytes: %d is not a positive multiple of the %d-byte page", bytes, PageSize)
	}
	if bytes > 1<<40 {
		return nil, fmt.Errorf("mem.bytes: %d is too large; allowed 4KiB..1TiB", bytes)
	}
	if maxOrder < 0 || maxOrder > 20 {
		return nil, fmt.Errorf("mem.max_order: %d is out of range; allowed 0..20", maxOrder)
	}
	n := bytes >> PageShift
	b := &Buddy{frames: n, maxOrder: maxOrder, ft: newFrameTable(n, maxOrder),
		stacks: make([][]uint64, maxOrder+1), nfree: make([]uint64, maxOrder+1)}
	// Carve memory into the largest aligned blocks, highest address first
	// so the lowest block is on top of each stack. Whole max-order blocks
	// are free in an untouched frame table and cost no per-frame memory.
	var heads []Chunk
	for pfn := uint64(0); pfn < n; {
		o := maxOrder
		for o > 0 && (pfn&(1<<o-1) != 0 || pfn+1<<o > n) {
			o--
		}
		heads = append(heads, Chunk{pfn, o})
		pfn += 1 << o
	}
	for i := len(heads) - 1; i >= 0; i-- {
		h := heads[i]
		if h.Order == maxOrder {
			b.stacks[h.Order] = append(b.stacks[h.Order], h.PFN)
			b.nfree[h.Order]++
		} else {
			b.pushFree(h.PFN, h.Order)
		}
	}
	return b, nil
}

// Frames returns the number of page frames managed.
func (b *Buddy) Frames() uint64 { return b.frames }

// MaxOrder returns the largest block order.
func (b *Buddy) MaxOrder() int { return b.maxOrder }

// FreeBlocks returns the number of free blocks of exactly this order.
func (b *Buddy) FreeBlocks(order int) uint64 {
	if order < 0 || order > b.maxOrder {
		return 0
	}
	return b.nfree[order]
}

// FreePages returns the number of free frames.
func (b *Buddy) FreePages() uint64 {
	var n uint64
	for o, c := range b.nfree {
		n += c << o
	}
	return n
}

func (b *Buddy) pushFree(pfn uint64, o int) {
	b.ft.setFree(pfn, int8(o))
	// A full stack whose entries are a quarter stale or more is compacted
	// rather than grown.
	if s := b.stacks[o]; len(s) == cap(s) && len(s) >= 1024 && b.nfree[o] <= uint64(len(s))*3/4 {
		b.compact(o)
	}
	b.stacks[o] = append(b.stacks[o], pfn)
	b.nfree[o]++
}

// compact drops the stale entries of stack o, keeping the live ones in
// order. It changes no allocation: a stale entry is never the one a pop
// takes, since a block freed again at order o is pushed anew above it and
// popped (or made stale) before the old entry is reached.
// TestCompactChangesNoAllocation checks it.
func (b *Buddy) compact(o int) {
	kept := b.stacks[o][:0]
	for _, pfn := range b.stacks[o] {
		if b.ft.free(pfn) == int8(o) {
			kept = append(kept, pfn)
		}
	}
	b.stacks[o] = kept
}

// popFree takes a live free block of order o, if any.
func (b *Buddy) popFree(o int) (uint64, bool) {
	s := b.stacks[o]
	for len(s) > 0 {
		pfn := s[len(s)-1]
		s = s[:len(s)-1]
		if b.ft.free(pfn) == int8(o) {
			b.stacks[o] = s
			b.ft.setFree(pfn, -1)
			b.nfree[o]--
			return pfn, true
		}
	}
	b.stacks[o] = s
	return 0, false
}

// Alloc returns a block of 2^order frames, splitting a larger block when no
// block of that order is free. It fails (an error, not a panic) when no
// block of order >= order is free, as alloc_pages does.
func (b *Buddy) Alloc(order int) (Chunk, error) {
	if order < 0 || order > b.maxOrder {
		return Chunk{}, fmt.Errorf("order: %d is out of range; allowed 0..%d", order, b.maxOrder)
	}
	for o := order; o <= b.maxOrder; o++ {
		if b.nfree[o] == 0 {
			continue
		}
		pfn, ok := b.popFree(o)
		if !ok {
			continue
		}
		for o > order { // give back the upper halves
			o--
			b.pushFree(pfn+1<<o, o)
		}
		b.ft.setAlloc(pfn, int8(order))
		return Chunk{pfn, order}, nil
	}
	return Chunk{}, fmt.Errorf("out of memory: no free block of order %d or larger (%d pages free)", order, b.FreePages())
}

// AllocPages appends n order-0 chunks to dst, as n calls of Alloc(0)
// would, and returns dst; on an error the chunks allocated before it are
// in dst (still allocated). A free order-0 block is taken in the loop
// itself (as WebAssembly the calls of one Alloc per page were most of an
// order-0 AUX buffer's allocation).
func (b *Buddy) AllocPages(dst []Chunk, n int) ([]Chunk, error) {
	for range n {
		if b.nfree[0] > 0 {
			if pfn, ok := b.popFree(0); ok {
				b.ft.setAlloc(pfn, 0)
				dst = append(dst, Chunk{pfn, 0})
				continue
			}
		}
		ch, err := b.Alloc(0) // split a larger block (or fail)
		if err != nil {
			return dst, err
		}
		dst = append(dst, ch)
	}
	return dst, nil
}

// AllocAt allocates the single frame pfn if it is free (used to pin pages
// when fragmenting). It reports whether it did.
func (b *Buddy) AllocAt(pfn uint64) bool {
	if pfn >= b.frames {
		return false
	}
	for o := 0; o <= b.maxOrder; o++ {
		head := pfn &^ (1<<o - 1)
		if b.ft.free(head) != int8(o) {
			continue
		}
		b.ft.setFree(head, -1) // leaves a stale stack entry; popFree skips it
		b.nfree[o]--
		for o > 0 { // split towards pfn, freeing the other halves
			o--
			half := head + 1<<o
			if pfn >= half {
				b.pushFree(head, o)
				head = half
			} else {
				b.pushFree(half, o)
			}
		}
		b.ft.setAlloc(pfn, 0)
		return true
	}
	return false
}

// Free returns an allocated chunk and merges it with free buddies.
func (b *Buddy) Free(c Chunk) error {
	if c.PFN >= b.frames || c.Order < 0 || c.Order > b.maxOrder || b.ft.alloc(c.PFN) != int8(c.Order) {
		return fmt.Errorf("free of pfn %#x order %d: not an allocated block", c.PFN, c.Order)
	}
	b.ft.setAlloc(c.PFN, -1)
	b.merge(c.PFN, c.Order)
	return nil
}

// merge frees the block of order o at pfn (no longer allocated): it merges
// it with its free buddies and pushes the result.
func (b *Buddy) merge(pfn uint64, o int) {
	for o < b.maxOrder {
		buddy := pfn ^ 1<<o
		if buddy >= b.frames || b.ft.free(buddy) != int8(o) {
			break
		}
		b.ft.setFree(buddy, -1)
		b.nfree[o]--
		pfn &^= 1 << o
		o++
	}
	b.pushFree(pfn, o)
}

// Fragment models a long-running system: for each max-order block, with
// probability fraction (0..1), one frame at a random position inside it is
// pinned (allocated and never freed). A pinned block can then only supply
// chunks of lower orders, so higher-order allocations fail over to smaller
// ones. It returns the number of frames pinned. Draws come from r only.
func (b *Buddy) Fragment(r *sim.RNG, fraction float64) (int, error) {
	if !(fraction >= 0 && fraction <= 1) {
		return 0, fmt.Errorf("fragmentation: %v is out of range; allowed 0..1", fraction)
	}
	block := uint64(1) << b.maxOrder
	pinned := 0
	for base := uint64(0); base < b.frames; base += block {
		if r.Float64() >= fraction {
			continue
		}
		span := min(block, b.frames-base)
		if b.AllocAt(base + r.Uint64n(span)) {
			pinned++
		}
	}
	return pinned, nil
}

// AllocPreferLarge allocates pages frames as a list of chunks the way
// perf's rb_alloc_aux does with PREFER_LARGE: each chunk is tried at
// min(order, ilog2(pages still needed)) and the order is lowered by one on
// each failure, so fragmentation decides the chunk sizes. On failure every
// chunk already taken is freed and an error returned.
func (b *Buddy) AllocPreferLarge(pages uint64, order int) ([]Chunk, error) {
	if pages == 0 {
		return nil, fmt.Errorf("pages: 0; allowed 1..%d", b.frames)
	}
	if pages > b.frames {
		return nil, fmt.Errorf("buffer: %d pages is larger than memory (%d pages)", pages, b.frames)
	}
	order = min(max(order, 0), b.maxOrder)
	var out []Chunk
	for got := uint64(0); got < pages; {
		o := min(order, bits.Len64(pages-got)-1)
		for {
			c, err := b.Alloc(o)
			if err == nil {
				out = append(out, c)
				got += 1 << o
				break
			}
			if o == 0 {
				for _, c := range out {
					_ = b.Free(c)
				}
				return nil, err
			}
			o--
		}
	}
	return out, nil
}
