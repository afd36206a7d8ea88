package sgsync

import (
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/provenance"
	"github.com/dmaviz/dmaviz/model/scenario"
)

const (
	srcCover  = "batched DMA sync cover letter (linux-arm-kernel, 2025-December/1088875)"
	kernelWhy = "10-60 ns at 2.6 GHz (the cycles are kept on other cores: an in-order core needs more, the upper end); no per-entry timing was published (the batched-sync series gives percentages only; kernel/dma/map_benchmark.c times dma_map_single, not lists)"
)

// withProvenance adds the scenario's constants with their provenance and
// classifies its figures from the tables.
func withProvenance(sp *scenario.Spec) *scenario.Spec {
	for _, c := range []struct {
		e    provenance.Entry
		unit string
		v    float64
	}{
		{provenance.Assume("sg-sync.device.burst", 64, 4096, "the device's DMA burst; the published figure times the DMA API calls, not the transfer"), "B", float64(device.Burst)},
		{provenance.Assume("sg-sync.device.bandwidth", 1, 32, "the device's DMA rate; not in the calls' times"), "GB/s", device.Bandwidth / 1e9},
		{provenance.Assume("sg-sync.device.snoop_latency", 5, 50, "the device's snoop of the CPU caches (coherent path only)"), "ns", device.SnoopLatency.Nanoseconds()},
		{provenance.Assume("sg-sync.iommu.alloc", 50, 500, "IOVA allocation per call on the IOMMU path (an rcache hit); no per-call cost published"), "ns", defaultIOMMU.Alloc.Nanoseconds()},
		{provenance.Assume("sg-sync.iommu.pte", 2, 20, "writing or clearing one 4 KiB IOMMU PTE; no source"), "ns", defaultIOMMU.PTE.Nanoseconds()},
		{provenance.Assume("sg-sync.iommu.tlbi", 500, 5000, "IOTLB invalidation and CMD_SYNC on unmap; no source"), "ns", defaultIOMMU.TLBI.Nanoseconds()},
		{provenance.Assume("sg-sync.kernel.map", 26, 156, kernelWhy+"; for_each_sg, sg_phys, the swiotlb, DMA-mask and bounce checks, sg_dma_len"), "cycles", float64(kernelCost.Map)},
		{provenance.Assume("sg-sync.kernel.unmap", 26, 156, kernelWhy+"; dma_to_phys, the coherent check, is_swiotlb_buffer per entry"), "cycles", float64(kernelCost.Unmap)},
		{provenance.Assume("sg-sync.kernel.sync", 26, 156, kernelWhy+"; the sync loops run the same checks as the unmap"), "cycles", float64(kernelCost.Sync)},
		{provenance.Assume("sg-sync.kernel.iommu_map", 26, 260, "10-100 ns at 2.6 GHz; iommu_dma_map_sg's alignment pass, one __iommu_map descent and __finalise_sg per entry; no per-entry timing published"), "cycles", float64(kernelCost.IOMMUMap)},
	} {
		sp.Constants = append(sp.Constants, provenance.Param{Entry: c.e, Unit: c.unit, Value: c.v, Text: platform.FormatValue(c.v, c.unit)})
	}
	sp.AddParamConstants(
		provenance.Measure("sg-sync.total", srcCover+": '10 MB buffers (10 MB / 4 KB sg entries per buffer)'"),
		provenance.Measure("sg-sync.entry", srcCover+": 4 KB sg entries"),
		provenance.Assume("sg-sync.direction", 0, 0, "one of from-device, to-device, bidirectional: the published run's direction is unknown, from-device assumed"),
		provenance.Assume("sg-sync.cpu", 0, 0, "one of reads, writes, none: the published run's buffer cache state is unknown, reads assumed"),
		provenance.Measure("sg-sync.iterations", srcCover+": 'for 200 iterations'"),
	)
	for _, k := range kernelPaths {
		sp.Overridable = append(sp.Overridable, k.path)
	}
	sp.OnBoard = true
	sp.Reads = []string{"maint.", "clocks.cpu", "core.", "tlb.l1.hit", "sg-sync."}
	sp.Classify(platform.Provenance(sp.DefaultPreset))
	return sp
}
