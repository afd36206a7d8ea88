package sgsync

import (
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/provenance"
	"github.com/dmaviz/dmaviz/model/scenario"
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
	} {
		sp.Constants = append(sp.Constants, provenance.Param{Entry: c.e, Unit: c.unit, Value: c.v, Text: platform.FormatValue(c.v, c.unit)})
	}
	sp.OnBoard = true
	sp.Reads = []string{"maint.", "clocks.cpu", "core.", "tlb.l1.hit", "sg-sync."}
	sp.Classify(platform.Provenance(sp.DefaultPreset))
	return sp
}
