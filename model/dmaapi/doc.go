// Package dmaapi is the Linux DMA API on top of the soc machine, written
// once for every scenario: dma_alloc_coherent (pages cleaned and
// invalidated once, then a Normal-NC alias the buffer is zeroed through),
// dma_alloc_noncoherent (zeroed through the cacheable map, dirty lines
// left for the driver to sync), alloc_pages(__GFP_ZERO) for dma_map_page,
// dma_map_single / dma_map_page and their unmaps, dma_sync_single_for_cpu
// / _for_device, and dma_map_sg / dma_unmap_sg / dma_sync_sg_for_cpu /
// _for_device, in the three directions, for a coherent device or a
// non-coherent one reached directly, through an IOMMU or through SWIOTLB
// bounce slots (MODEL.md section 2).
//
// What a non-coherent arm64 device gets, per 64-byte line:
//
//   - toward the device (dma_map_*, dma_sync_*_for_device, any
//     direction): arch_sync_dma_for_device, dcache_clean_poc: DC CVAC on
//     every line the range touches;
//   - back to the CPU (dma_unmap_*, dma_sync_*_for_cpu) for
//     DMA_FROM_DEVICE and DMA_BIDIRECTIONAL: arch_sync_dma_for_cpu,
//     dcache_inval_poc: DC CIVAC on a partial last line, DC CIVAC on a
//     partial first line, DC IVAC on the other lines (the loop body runs at
//     least once); nothing for DMA_TO_DEVICE.
//
// Where the wait falls: a single-buffer call ends with one DSB SY; a
// scatterlist call waits after every entry (Wait: PerEntry, before Linux
// 7.1) or once at the end (PerCall, 7.1's batched sync); SWIOTLB waits per
// entry either way, because each slot's copy must follow its maintenance.
// A DSB is issued only when DC ops were issued since the last one, so a
// coherent device's calls issue neither.
//
// The calls' own software work (Config.Entry, in core cycles) is spent per
// scatterlist entry and per single-buffer call, before the entry's
// maintenance, on every path: the list walk and the swiotlb, DMA-mask and
// bounce checks run on a coherent device too, so its calls are not free
// (kernel/dma/direct.c dma_direct_map_sg / _unmap_sg / _sync_sg_for_*);
// the IOMMU path adds its per-entry iommu_map work.
//
// SWIOTLB: the map copies the CPU buffer into a slot (swiotlb always
// copies on map) and cleans the slot; dma_sync_*_for_device copies again
// for TO_DEVICE and BIDIRECTIONAL; the unmap and dma_sync_*_for_cpu
// invalidate the slot and copy it back for FROM_DEVICE and BIDIRECTIONAL.
// The machine is told which buffer each slot stands for (soc.Shadow), so a
// CPU read of the buffer before the copy back is flagged stale with the
// buffer's address.
package dmaapi
