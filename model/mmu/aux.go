package mmu

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/dmaviz/dmaviz/model/bytesize"
	"github.com/dmaviz/dmaviz/model/mem"
)

// AuxConfig is one AUX-area request (perf_mmap of the AUX buffer) and the
// PMU capabilities rb_alloc_aux looks at.
type AuxConfig struct {
	Pages int // nr_pages
	// Watermark is attr.aux_watermark in bytes; 0 takes the default, half
	// the buffer.
	Watermark uint64
	// Overwrite is snapshot mode (the AUX area mapped read-only, so
	// !RING_BUFFER_WRITABLE).
	Overwrite bool
	// PreferLarge is PERF_PMU_CAP_AUX_PREFER_LARGE: try high-order chunks.
	PreferLarge bool
	// NoSG is PERF_PMU_CAP_AUX_NO_SG: implies PreferLarge, and in
	// overwrite mode the whole buffer must come as one chunk.
	NoSG bool
}

// AuxBuffer is what rb_alloc_aux produced.
type AuxBuffer struct {
	// Pages is rb->aux_pages: the physical address of each page in order.
	// Invariant: len(Pages) == the requested nr_pages.
	Pages []uint64
	// Chunks are the allocations in order, as page_private of each
	// chunk's first page records them; each was split into order-0 pages
	// (split_page), so the buffer is freed page by page.
	Chunks []mem.Chunk
	// MaxOrder is the max_order the chunking started from.
	MaxOrder int
	// Watermark is rb->aux_watermark in bytes (0 in overwrite mode).
	Watermark uint64
}

// getOrder is Linux's get_order(size): the order of the smallest block of
// pages holding size bytes (size >= 1).
func getOrder(size uint64) int {
	return bits.Len64((size - 1) >> PageShift)
}

// RbAllocAux allocates an AUX buffer from b exactly as the kernel's
// rb_alloc_aux (kernel/events/ring_buffer.c, since "perf: Allocate
// non-contiguous AUX pages by default"): order-0 pages unless the PMU
// prefers large chunks; then each chunk is tried at min(max_order,
// ilog2(pages still needed)), max_order being get_order(watermark) (or
// ilog2(nr_pages) in overwrite mode), and rb_alloc_aux_page lowers the
// order by one on each failure of the buddy allocator (clamped to its
// MaxOrder, as to MAX_PAGE_ORDER). Physical fragmentation therefore
// decides the chunk sizes. On failure every page taken is freed.
func RbAllocAux(b *mem.Buddy, c AuxConfig) (*AuxBuffer, error) {
	return RbAllocAuxReusing(b, c, nil)
}

// RbAllocAuxReusing is RbAllocAux building the buffer in the lists of old,
// a buffer already freed (nil: new lists), so a caller that opens session
// after session allocates no new page lists. old must not be used after.
func RbAllocAuxReusing(b *mem.Buddy, c AuxConfig, old *AuxBuffer) (*AuxBuffer, error) {
	if b == nil {
		return nil, fmt.Errorf("aux: no buddy allocator")
	}
	if c.Pages < 1 {
		return nil, fmt.Errorf("aux.pages: %d is out of range; allowed 1..%d", c.Pages, MaxAuxPages(b.MaxOrder()))
	}
	if err := checkAuxPageArray(c.Pages, b.MaxOrder()); err != nil {
		return nil, err
	}
	if uint64(c.Pages) > b.Frames() {
		return nil, fmt.Errorf("aux.pages: %d is out of range; allowed 1..%d", c.Pages, min(b.Frames(), uint64(MaxAuxPages(b.MaxOrder()))))
	}
	nr := uint64(c.Pages)
	large := c.PreferLarge || c.NoSG
	out := old
	if out == nil {
		out = &AuxBuffer{}
	}
	*out = AuxBuffer{Watermark: c.Watermark, Pages: out.Pages[:0], Chunks: out.Chunks[:0]}
	if !c.Overwrite {
		if out.Watermark == 0 { // half the buffer, to aid double buffering
			out.Watermark = min(math.MaxUint32, nr<<(PageShift-1))
		}
		if large {
			out.MaxOrder = getOrder(out.Watermark)
		}
	} else {
		if large {
			out.MaxOrder = bits.Len64(nr) - 1 // ilog2(nr_pages)
		}
		out.Watermark = 0
	}
	if uint64(cap(out.Pages)) < nr {
		out.Pages = make([]uint64, 0, nr)
	}
	if cap(out.Chunks) == 0 { // as many as the chunks of the largest order tried, at least
		out.Chunks = make([]mem.Chunk, 0, nr>>min(out.MaxOrder, b.MaxOrder()))
	}
	for uint64(len(out.Pages)) < nr {
		order := min(out.MaxOrder, bits.Len64(nr-uint64(len(out.Pages)))-1, b.MaxOrder())
		if order == 0 { // order-0 pages in a row, up to the next progress point
			before := len(out.Pages)
			k := min(int(nr)-before, freeProgress-before%freeProgress)
			first := len(out.Chunks)
			var err error
			out.Chunks, err = b.AllocPages(out.Chunks, k)
			for _, ch := range out.Chunks[first:] {
				out.Pages = append(out.Pages, ch.PA())
			}
			if err != nil {
				got := len(out.Pages)
				out.Free(b)
				return nil, fmt.Errorf("aux: %d of %d pages allocated: %v", got, nr, err)
			}
			if len(out.Pages)/freeProgress != before/freeProgress && b.Progress != nil {
				b.Progress()
			}
			continue
		}
		ch, err := allocAuxPage(b, order)
		if err != nil {
			got := len(out.Pages)
			out.Free(b)
			return nil, fmt.Errorf("aux: %d of %d pages allocated: %v", got, nr, err)
		}
		before := len(out.Pages)
		out.Chunks = append(out.Chunks, ch)
		for i := uint64(0); i < 1<<ch.Order; i++ {
			out.Pages = append(out.Pages, ch.PA()+i*PageSize)
		}
		if len(out.Pages)/freeProgress != before/freeProgress && b.Progress != nil {
			b.Progress() // every freeProgress pages, as Free does
		}
	}
	if c.NoSG && c.Overwrite && out.Chunks[0].Order != out.MaxOrder {
		out.Free(b)
		return nil, fmt.Errorf("aux: a no-SG PMU in overwrite mode needs one chunk of order %d; memory is too fragmented", out.MaxOrder)
	}
	return out, nil
}

// MaxAuxPages is the largest nr_pages rb_alloc_aux accepts with buddy
// blocks of at most maxOrder (MAX_PAGE_ORDER): its page array,
// kcalloc_node(nr_pages, sizeof(void *)), must come from one allocation
// of at most PAGE_SIZE << MAX_PAGE_ORDER bytes, 8 bytes a page. With
// 4 KiB pages and MAX_PAGE_ORDER 10 (arm64's default) that is 524,288
// pages: a 2 GiB AUX buffer.
func MaxAuxPages(maxOrder int) int { return int(PageSize << maxOrder / auxPagePtr) }

// MaxAuxPagesDefault is MaxAuxPages at mem.DefaultMaxOrder (arm64's
// MAX_PAGE_ORDER with 4 KiB pages): 524,288.
const MaxAuxPagesDefault = PageSize << mem.DefaultMaxOrder / auxPagePtr

// auxPagePtr is sizeof(void *) on arm64: one entry of rb->aux_pages.
const auxPagePtr = 8

// checkAuxPageArray is rb_alloc_aux's first check
// (kernel/events/ring_buffer.c: rb_alloc_aux, since commit 54aee5f15b83
// "perf/core: Bail out early if the request AUX area is out of bound"):
//
//	if (get_order((unsigned long)nr_pages * sizeof(void *)) > MAX_PAGE_ORDER)
//		return -ENOMEM;
//
// kcalloc_node cannot allocate a larger page array; perf_mmap returns the
// -ENOMEM to the AUX area's mmap() and perf prints "failed to mmap with 12
// (Cannot allocate memory)". (Before that commit the kcalloc_node itself
// failed, with a warning from the page allocator: the same errno.)
func checkAuxPageArray(pages, maxOrder int) error {
	array := uint64(pages) * auxPagePtr
	if getOrder(array) <= maxOrder {
		return nil
	}
	most := MaxAuxPages(maxOrder)
	return fmt.Errorf("aux.pages: %d pages need a %s page array (8 bytes a page), more than kcalloc_node can allocate "+
		"(%s = PAGE_SIZE << MAX_PAGE_ORDER %d): rb_alloc_aux returns -ENOMEM and perf reports \"failed to mmap with 12 "+
		"(Cannot allocate memory)\"; allowed at most %d pages (%s)",
		pages, bytesize.Format(int64(array)), bytesize.Format(int64(PageSize<<maxOrder)), maxOrder,
		most, bytesize.Format(int64(most)*PageSize))
}

// allocAuxPage is rb_alloc_aux_page: alloc_pages at order, one order lower
// on each failure, and split_page of a high-order success.
func allocAuxPage(b *mem.Buddy, order int) (mem.Chunk, error) {
	// An order above the largest free block's fails; it is skipped
	// without asking (the failure's message cost most of a fragmented
	// PREFER_LARGE allocation). The first order tried is the kernel's.
	for order > 0 && !freeAtOrAbove(b, order) {
		order--
	}
	for {
		ch, err := b.Alloc(order)
		if err == nil {
			if order > 0 {
				if err := b.SplitPage(ch); err != nil {
					return mem.Chunk{}, err
				}
			}
			return ch, nil
		}
		if order == 0 {
			return mem.Chunk{}, err
		}
		order--
	}
}

// freeAtOrAbove reports whether b has a free block of order o or larger:
// whether alloc_pages at order o succeeds.
func freeAtOrAbove(b *mem.Buddy, o int) bool {
	for ; o <= b.MaxOrder(); o++ {
		if b.FreeBlocks(o) > 0 {
			return true
		}
	}
	return false
}

// Free returns every page to b (rb_free_aux: __free_page on each page)
// and empties the lists (keeping their storage for RbAllocAuxReusing).
//
// It calls the allocator's Progress every freeProgress pages.
//
// An aligned run of 2^k consecutive pages in the list (a split chunk, or
// order-0 pages the allocator handed out in a row) is freed with one
// Buddy.FreePageRun, which leaves what freeing its pages one by one does.
func (a *AuxBuffer) Free(b *mem.Buddy) {
	pages := a.Pages
	top := b.MaxOrder()
	for i := 0; i < len(pages); {
		pfn := pages[i] >> PageShift
		k := 0 // pages[i:i+2^k] are pfn.. in a row, pfn aligned to 2^k
		for n := 1; k < top && pfn&uint64(2*n-1) == 0 && i+2*n <= len(pages); n *= 2 {
			j := n
			for j < 2*n && pages[i+j] == pages[i]+uint64(j)<<PageShift {
				j++
			}
			if j < 2*n {
				break
			}
			k++
		}
		n := 1 << k
		if k == 0 || b.FreePageRun(pfn, k) != nil {
			_ = b.Free(mem.Chunk{PFN: pfn})
			n = 1
		}
		// Progress every freeProgress pages, as page by page.
		for p := (i/freeProgress + 1) * freeProgress; p <= i+n && b.Progress != nil; p += freeProgress {
			b.Progress()
		}
		i += n
	}
	a.Pages, a.Chunks = a.Pages[:0], a.Chunks[:0]
}

// freeProgress is how often (in pages) RbAllocAux and AuxBuffer.Free call
// the allocator's Progress.
const freeProgress = 16384
