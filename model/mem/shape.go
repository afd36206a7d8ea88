package mem

import (
	"fmt"
	"math"
	"slices"

	"github.com/dmaviz/dmaviz/model/sim"
)

// AllocBlockAt allocates the aligned block of 2^order frames at pfn if all
// of it is free, splitting the free block that holds it (the way the page
// allocator hands out a specific block when it isolates a range). It
// reports whether it did; bad arguments are simply refused.
func (b *Buddy) AllocBlockAt(pfn uint64, order int) bool {
	if order < 0 || order > b.maxOrder || pfn&(1<<order-1) != 0 || pfn >= b.frames || b.frames-pfn < 1<<order {
		return false
	}
	for o := order; o <= b.maxOrder; o++ {
		head := pfn &^ (1<<o - 1)
		if b.ft.free(head) != int8(o) {
			continue
		}
		b.ft.setFree(head, -1) // leaves a stale stack entry; popFree skips it
		b.nfree[o]--
		for o > order { // split towards pfn, freeing the other halves
			o--
			half := head + 1<<o
			if pfn >= half {
				b.pushFree(head, o)
				head = half
			} else {
				b.pushFree(half, o)
			}
		}
		b.ft.setAlloc(pfn, int8(order))
		return true
	}
	return false
}

// IsFree reports whether frame pfn lies in a free block.
func (b *Buddy) IsFree(pfn uint64) bool {
	if pfn >= b.frames {
		return false
	}
	for o := 0; o <= b.maxOrder; o++ {
		if b.ft.free(pfn&^(1<<o-1)) == int8(o) {
			return true
		}
	}
	return false
}

// SplitPage turns an allocated block of order k into 2^k allocated order-0
// pages, like Linux's split_page: each page is then freed on its own.
func (b *Buddy) SplitPage(c Chunk) error {
	if c.PFN >= b.frames || c.Order < 0 || c.Order > b.maxOrder || b.ft.alloc(c.PFN) != int8(c.Order) {
		return fmt.Errorf("split of pfn %#x order %d: not an allocated block", c.PFN, c.Order)
	}
	for i := uint64(0); i < 1<<c.Order; i++ {
		b.ft.setAlloc(c.PFN+i, 0)
	}
	return nil
}

// FreePageRun frees the 2^order order-0 pages from pfn (aligned to 2^order,
// each allocated on its own, as SplitPage leaves a block), leaving what a
// Free of each page in address order leaves: until the last page the
// merges stay inside the block, and every block they push is merged again
// by a later page, so only the whole block's merge and push remain (the
// earlier pushes are stale stack entries, which no allocation sees: see
// popFree). rb_free_aux frees a buffer page by page; this is one step per
// page instead of a Free call, its merges and pushes.
// TestFreePageRunMatchesFree checks it. Nothing changes on an error.
func (b *Buddy) FreePageRun(pfn uint64, order int) error {
	n := uint64(1) << max(order, 0)
	if order < 0 || order > b.maxOrder || pfn&(n-1) != 0 || pfn >= b.frames || b.frames-pfn < n {
		return fmt.Errorf("free of pages %#x..+%d: not an aligned run of order %d", pfn, n, order)
	}
	c := b.ft.chunks[pfn>>b.ft.shift] // the run lies in one chunk (one max-order block)
	if c == nil {
		return fmt.Errorf("free of pages %#x..+%d: not allocated", pfn, n)
	}
	run := c[pfn&(1<<b.ft.shift-1):][:n]
	for i := range run {
		if run[i].alloc1 != 1 { // each page allocated at order 0
			return fmt.Errorf("free of pages %#x..+%d: page %#x is not an allocated order-0 page", pfn, n, pfn+uint64(i))
		}
	}
	for i := range run {
		run[i].alloc1 = 0 // b.ft.setAlloc(pfn+i, -1)
	}
	b.merge(pfn, order)
	return nil
}

// Shape models the free memory of a long-running system: shares[k] is the
// share of free memory (by bytes) that should sit in free blocks of exactly
// order k (len(shares) == MaxOrder()+1, each 0..1, summing to 1). Every
// whole free max-order block is given one order k: for k == MaxOrder it
// stays whole; for smaller k one half of every order-(k+1) pair inside it is
// allocated (pinned, never freed) and the other half stays free, so the
// block's free memory is 2^(MaxOrder-k-1) order-k blocks that cannot merge.
// How many blocks get each order is fixed by the shares (largest
// remainder); which blocks, and which half of each pair is kept, is drawn
// from r. It returns the number of blocks given each order.
func (b *Buddy) Shape(r *sim.RNG, shares []float64) ([]int, error) {
	if len(shares) != b.maxOrder+1 {
		return nil, fmt.Errorf("fragmentation.shares: %d values; want one per order 0..%d", len(shares), b.maxOrder)
	}
	sum := 0.0
	for k, s := range shares {
		if !(s >= 0 && s <= 1) {
			return nil, fmt.Errorf("fragmentation.shares[%d]: %v is out of range; allowed 0..1", k, s)
		}
		sum += s
	}
	if math.Abs(sum-1) > 1e-6 {
		return nil, fmt.Errorf("fragmentation.shares: sum %v; the shares of free memory must sum to 1", sum)
	}
	top := b.maxOrder
	block := uint64(1) << top
	var heads []uint64
	for base := uint64(0); base+block <= b.frames; base += block {
		if b.ft.free(base) == int8(top) {
			heads = append(heads, base)
		}
	}
	counts := make([]int, top+1)
	if len(heads) == 0 {
		return counts, nil
	}
	// A block given order k < top keeps half its frames free; weigh each
	// order by share per free frame so the shares hold by bytes.
	w := make([]float64, top+1)
	wsum := 0.0
	for k, s := range shares {
		free := float64(block / 2)
		if k == top {
			free = float64(block)
		}
		w[k] = s / free
		wsum += w[k]
	}
	n := len(heads)
	given := 0
	rem := make([]float64, top+1)
	for k := range w {
		x := float64(n) * w[k] / wsum
		counts[k] = int(math.Floor(x))
		rem[k] = x - float64(counts[k])
		given += counts[k]
	}
	for ; given < n; given++ { // largest remainder, lower order first on ties
		best := 0
		for k := range rem {
			if rem[k] > rem[best] {
				best = k
			}
		}
		counts[best]++
		rem[best] = -1
	}
	orders := make([]int, 0, n)
	for k, c := range counts {
		for range c {
			orders = append(orders, k)
		}
	}
	for i := n - 1; i > 0; i-- { // Fisher-Yates
		j := int(r.Uint64n(uint64(i + 1)))
		orders[i], orders[j] = orders[j], orders[i]
	}
	// A block given order k frees 2^(top-k-1) blocks of order k: room for
	// them now, not by doubling.
	for k, c := range counts[:top] {
		b.stacks[k] = slices.Grow(b.stacks[k], c<<(top-k-1))
	}
	for i, base := range heads {
		if i%shapeProgress == shapeProgress-1 && b.Progress != nil {
			b.Progress()
		}
		if k := orders[i]; k < top {
			b.pinPairs(base, k, r)
		}
	}
	return counts, nil
}

// pinPairs is AllocBlockAt(pin, k) for a random half pin of each
// order-(k+1) pair of the free max-order block at base, in address order,
// with its end state written out: the block is no longer free, each pin is
// allocated at order k and its other half is free at order k, pushed in
// pair order. (The blocks of the orders between that the splits free are
// all split again by a later pin; going through them cost about two
// AllocBlockAt steps and two stack pushes per pin, and left only stale
// stack entries, which no allocation sees: see popFree.)
// TestShapeMatchesAllocBlockAt checks it.
func (b *Buddy) pinPairs(base uint64, k int, r *sim.RNG) {
	top := b.maxOrder
	b.ft.setFree(base, -1)
	b.nfree[top]--
	half := uint64(1) << k
	// The block is one frame-table chunk, materialized by the setFree:
	// setAlloc and pushFree are written out on it (the same stores and
	// pushes; as WebAssembly, with a call per frame and per pin, this loop
	// took about 10x its native time).
	c := b.ft.chunk(base)
	o1 := int8(k) + 1 // stored one up
	s := b.stacks[k]
	for pair := base; pair < base+1<<top; pair += 2 * half {
		// r.Uint64n(2), written out: for a power of two Lemire's
		// multiply-shift never rejects and is the draw's top bit (the same
		// draw and value, without Uint64n's call and 64-bit modulo).
		pin := pair + half*(r.Uint64()>>63)
		c[pin-base].alloc1 = o1 // b.ft.setAlloc(pin, k)
		// b.pushFree(pin^half, k):
		c[pin^half-base].free1 = o1
		if len(s) == cap(s) && len(s) >= 1024 && b.nfree[k] <= uint64(len(s))*3/4 {
			b.stacks[k] = s
			b.compact(k)
			s = b.stacks[k]
		}
		s = append(s, pin^half)
		b.nfree[k]++
	}
	b.stacks[k] = s
}
