package dmaapi

import (
	"fmt"
	"math"

	"github.com/dmaviz/dmaviz/model/sim"
)

// EntryCost is the kernel's own work in a DMA API call, in core cycles,
// spent once per scatterlist entry (and once per single-buffer call) on
// every path, a coherent device included: the loop and the checks run
// whether or not any cache maintenance follows. Cycles, because the work
// is a fixed run of instructions: the machine's CPU clock turns it into
// time (52 cycles are 20 ns at 2.6 GHz, 55 ns at 950 MHz); a narrower core
// needs more cycles for the same instructions, which a cost's range has to
// cover. The zero value costs nothing.
type EntryCost struct {
	// Map is dma_map_sg's work per entry before any maintenance
	// (kernel/dma/direct.c dma_direct_map_sg: for_each_sg's sg_next,
	// sg_phys and the P2P state, then dma_direct_map_phys:
	// is_swiotlb_force_bounce, phys_to_dma, dma_capable against the DMA
	// mask and dma_range_map, dma_kmalloc_needs_bounce,
	// dev_is_dma_coherent, and the sg_dma_address / sg_dma_len stores).
	// dma_map_single / dma_map_page pay it once.
	Map float64
	// Unmap is dma_unmap_sg's per entry (dma_direct_unmap_sg →
	// dma_direct_unmap_phys: sg_dma_is_bus_address, dma_to_phys, the
	// coherent check, is_swiotlb_buffer's range compare); the single
	// unmaps pay it once.
	Unmap float64
	// Sync is dma_sync_sg_for_cpu's and dma_sync_sg_for_device's per
	// entry (dma_direct_sync_sg_for_*: for_each_sg, dma_to_phys,
	// swiotlb_sync_single_*'s is_swiotlb_buffer, the coherent check); the
	// single syncs pay it once.
	Sync float64
	// IOMMUMap is what the IOMMU path adds per entry on map
	// (drivers/iommu/dma-iommu.c iommu_dma_map_sg: the pass that aligns
	// each entry to IOVA granules, iommu_map_sg's __iommu_map of the
	// entry's pages, whose io-pgtable descent starts from the top level
	// for each entry, and __finalise_sg); the PTE writes themselves are
	// IOMMUCost.PTE. Its unmap is one iommu_unmap of the list's single
	// IOVA range: nothing per entry beyond Unmap's walk.
	IOMMUMap float64
}

// entryTimes is EntryCost at the machine's CPU clock.
type entryTimes struct{ mapT, unmapT, syncT, iommuT sim.Time }

// maxEntryCycles bounds each EntryCost field.
const maxEntryCycles = 1e6

func (c EntryCost) times(cpu sim.Freq) (entryTimes, error) {
	for _, f := range []struct {
		name string
		v    float64
	}{{"entry.map", c.Map}, {"entry.unmap", c.Unmap}, {"entry.sync", c.Sync}, {"entry.iommu_map", c.IOMMUMap}} {
		if math.IsNaN(f.v) || f.v < 0 || f.v > maxEntryCycles {
			return entryTimes{}, fmt.Errorf("%s: %v cycles is out of range; allowed 0..%g", f.name, f.v, float64(maxEntryCycles))
		}
	}
	return entryTimes{cpu.Cycles(c.Map), cpu.Cycles(c.Unmap), cpu.Cycles(c.Sync), cpu.Cycles(c.IOMMUMap)}, nil
}

// mapWork spends one entry's map work (and the IOMMU path's).
func (d *Device) mapWork() {
	t := d.cost.mapT
	if d.cfg.Path == IOMMU {
		t += d.cost.iommuT
	}
	d.m.Spend(t)
}
