package mmu

import (
	"fmt"
	"math/bits"
)

// VmapMode says which kernel's vmap() maps a page list: what the AUX
// drivers get when they vmap the pages rb_alloc_aux gave them (TRBE:
// drivers/hwtracing/coresight/coresight-trbe.c arm_trbe_alloc_buffer;
// SPE: drivers/perf/arm_spe_pmu.c arm_spe_pmu_setup_aux; both
// vmap(pglist, nr_pages, VM_MAP, PAGE_KERNEL)).
type VmapMode uint8

const (
	// VmapMainline is mainline vmap() (mm/vmalloc.c vmap:
	// vmap_pages_range(addr, end, prot, pages, PAGE_SHIFT), and
	// __vmap_pages_range_noflush takes vmap_small_pages_range_noflush when
	// page_shift == PAGE_SHIFT): one 4 KiB PTE per page, however
	// physically contiguous the pages are; the vm area is page aligned.
	// Large vmalloc mappings exist in mainline only for
	// __vmalloc_node_range with VM_ALLOW_HUGE_VMAP and for ioremap, never
	// for a page list.
	VmapMainline VmapMode = iota
	// VmapBatch is vmap() with the series "mm/vmalloc: map contiguous
	// pages in batches for vmap() if possible" (Barry Song, Wen Jiang,
	// Dev Jain), v4 (patch 5/6, June 2026; not in a released kernel), with
	// its companions "mm/vmalloc: align vm_area so vmap() can batch
	// mappings" and "arm64/vmalloc: allow arch_vmap_pte_range_map_size to
	// batch multiple CONT_PTE" (mapBatch has the rule). Versions v1 and
	// v2 batched by compound_nr(page) only: rb_alloc_aux_page splits its
	// chunks (split_page, no __GFP_COMP), so for an AUX buffer they map
	// exactly as VmapMainline.
	VmapBatch
)

// String names the mode in messages.
func (m VmapMode) String() string {
	if m == VmapBatch {
		return "vmap batching series v4"
	}
	return "mainline vmap"
}

// vmapAlign is the vm area alignment: page aligned in mainline; with the
// batching series' "align vm_area" patch 2 MiB for an area of at least
// 2 MiB, else 64 KiB for at least 64 KiB (PMD_SIZE, CONT_PTE_SIZE).
func vmapAlign(bytes uint64, mode VmapMode) uint64 {
	switch {
	case mode == VmapBatch && bytes >= BlockL2:
		return BlockL2
	case mode == VmapBatch && bytes >= ContigSize:
		return ContigSize
	}
	return PageSize
}

// Vmap maps a page list into the vmalloc area as vmap(pages, n, VM_MAP,
// prot) does in the kernel mode names.
func (k *KernelSpace) Vmap(pages []uint64, prot Prot, mode VmapMode) (Area, MapStats, error) {
	if len(pages) == 0 {
		return Area{}, MapStats{}, fmt.Errorf("vmap: no pages")
	}
	bytes := uint64(len(pages)) * PageSize
	va, err := k.vmalloc.alloc(bytes, vmapAlign(bytes, mode))
	if err != nil {
		return Area{}, MapStats{}, fmt.Errorf("vmap: %v", err)
	}
	var st MapStats
	if mode == VmapBatch {
		st, err = k.PT.mapBatch(va, pages, prot)
	} else {
		st, err = k.PT.MapPages(va, pages, prot, Size4K)
	}
	if err != nil {
		_ = k.vmalloc.free(va)
		return Area{}, MapStats{}, fmt.Errorf("vmap: %v", err)
	}
	return Area{va, bytes}, st, nil
}

// Vunmap removes a Vmap area.
func (k *KernelSpace) Vunmap(a Area) (MapStats, error) {
	st, err := k.PT.Unmap(a.VA, a.Bytes)
	if err != nil {
		return st, fmt.Errorf("vunmap: %v", err)
	}
	return st, k.vmalloc.free(a.VA)
}

// batchMaxOrder is the largest step the batching series maps at once:
// vm_shift(prot, size) - PAGE_SHIFT, where vm_shift is PMD_SHIFT for an
// area of at least PMD_SIZE (arch_vmap_pmd_supported is true on arm64),
// else arch_vmap_pte_supported_shift(size): CONT_PTE_SHIFT for at least
// CONT_PTE_SIZE, else PAGE_SHIFT.
func batchMaxOrder(bytes uint64) int {
	switch {
	case bytes >= BlockL2:
		return bits.TrailingZeros64(BlockL2 / PageSize) // 9
	case bytes >= ContigSize:
		return bits.TrailingZeros64(ContigPTEs) // 4
	}
	return 0
}

// mapBatch maps pages at va as the vmap batching series (v4) does on
// arm64 with 4 KiB pages, walking the page array from the start:
//
//  1. n is num_pages_contiguous from the current page: how many pages
//     follow it at consecutive physical addresses (across the chunks
//     rb_alloc_aux allocated, which split_page left physically in
//     order); the step's order is min(ilog2(n), the page's PFN
//     alignment, batchMaxOrder).
//  2. Order 0 stops the scan: that page and every page after it are
//     mapped one 4 KiB PTE each ("As users typically allocate memory in
//     descending orders (e.g. 8 → 4 → 0), once an order-0 page is
//     encountered, we stop scanning for contiguous pages").
//  3. Otherwise the step's 2^order pages are mapped with page_shift
//     PAGE_SHIFT+order: at level 2 a 2 MiB block when the step is 512
//     pages and VA and PA are both 2 MiB aligned (vmap_try_huge_pmd),
//     else at level 3 through arch_vmap_pte_range_map_size
//     (arch/arm64/include/asm/vmalloc.h): 64 KiB contiguous PTEs where
//     the step has at least 16 pages left and VA and PA are 64 KiB
//     aligned, 4 KiB PTEs elsewhere. mapRun picks exactly that: the
//     largest allowed leaf both addresses are aligned to.
func (t *PageTable) mapBatch(va uint64, pages []uint64, prot Prot) (MapStats, error) {
	bytes := uint64(len(pages)) * PageSize
	if err := t.checkMap(va, bytes, prot, Size4K|Size64K|Size2M); err != nil {
		return MapStats{}, err
	}
	if err := checkPages(t.name, pages); err != nil {
		return MapStats{}, err
	}
	top := batchMaxOrder(bytes)
	var st MapStats
	for i := 0; i < len(pages); {
		lim := min(len(pages)-i, 1<<top)
		n := 1
		for n < lim && pages[i+n] == pages[i]+uint64(n)*PageSize {
			n++
		}
		order := min(bits.Len(uint(n))-1, bits.TrailingZeros64(pages[i]>>PageShift), top)
		if order == 0 {
			if err := t.mapList(va+uint64(i)*PageSize, pages[i:], prot.bits(), Size4K, &st); err != nil {
				t.rollback(va, &st)
				return MapStats{}, err
			}
			break
		}
		sizes := Size4K
		if order >= bits.TrailingZeros64(ContigPTEs) {
			sizes |= Size64K
		}
		if order >= batchMaxOrder(BlockL2) {
			sizes |= Size2M
		}
		step := uint64(1) << order
		if err := t.mapRun(va+uint64(i)*PageSize, pages[i], step*PageSize, prot.bits(), sizes, &st); err != nil {
			t.rollback(va, &st)
			return MapStats{}, err
		}
		if t.Progress != nil && (i+int(step))/progressPages != i/progressPages {
			t.Progress(progressPages)
		}
		i += int(step)
	}
	return st, nil
}
