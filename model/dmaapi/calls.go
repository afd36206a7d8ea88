package dmaapi

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
)

// Coherent is a dma_alloc_coherent buffer on a non-coherent device: the
// pages' cacheable linear map (cleaned and invalidated once at
// allocation, arch_dma_prep_coherent) and the Normal-NC alias the CPU
// uses (dma_direct_alloc's remap).
type Coherent struct {
	Linear soc.Buffer
	NC     soc.Buffer
}

// AllocCoherent is dma_alloc_coherent. On a coherent device the buffer is
// plain cacheable memory (NC is Linear), zeroed through it. Otherwise
// dma_direct_alloc's remap path (kernel/dma/direct.c), in its order: the
// pages come without __GFP_ZERO; arch_dma_prep_coherent removes any dirty
// line of the linear alias (DC CIVAC on every line, one DSB SY: the
// kernels up to 6.0 and the 2021 ones the Juno figure ran on; mainline
// since 6.4 cleans only, DC CVAC, which leaves no dirty line either); the
// Normal-NC alias is created; memset(0) runs through the alias, so the
// zeros go to DRAM and never dirty the cacheable alias.
func (d *Device) AllocCoherent(name string, size uint64) (Coherent, error) {
	b, err := d.m.Alloc(name, size, mem.Normal)
	if err != nil {
		return Coherent{}, err
	}
	if d.cfg.Coherent {
		if _, err := d.m.Zero(b.VA, b.Size); err != nil {
			return Coherent{}, err
		}
		return Coherent{Linear: b, NC: b}, nil
	}
	o := Ops{n: 1, ops: [3]Op{{soc.CIVAC, b.VA, b.Size}}}
	if err := d.maint(&o, -1); err != nil {
		return Coherent{}, err
	}
	d.wait()
	nc, err := d.m.Alias(b, name+" (Normal-NC alias)", mem.NormalNC)
	if err != nil {
		return Coherent{}, err
	}
	if _, err := d.m.Zero(nc.VA, nc.Size); err != nil {
		return Coherent{}, err
	}
	return Coherent{Linear: b, NC: nc}, nil
}

// AllocNoncoherent is dma_alloc_noncoherent (dma_alloc_pages +
// page_address): cacheable pages the device reaches directly and the
// driver keeps coherent with dma_sync_single_*. dma_direct_alloc_pages
// (kernel/dma/direct.c) zeroes the buffer with memset through the
// cacheable linear map and maintains nothing (no arch_dma_prep_coherent,
// no arch_sync_dma_for_device): the zero lines still in the cache are
// dirty, and Documentation/core-api/dma-api.rst puts the
// dma_sync_single_for_device before the device's first access on the
// driver. The mapping covers the buffer.
func (d *Device) AllocNoncoherent(name string, size uint64, dir Dir) (soc.Buffer, Mapping, error) {
	if !dir.valid() {
		return soc.Buffer{}, Mapping{}, fmt.Errorf("%s: direction %d; allowed %s, %s, %s", name, dir, Bidirectional, ToDevice, FromDevice)
	}
	b, err := d.m.Alloc(name, size, mem.Normal)
	if err != nil {
		return soc.Buffer{}, Mapping{}, err
	}
	if _, err := d.m.Zero(b.VA, b.Size); err != nil {
		return soc.Buffer{}, Mapping{}, err
	}
	mp := Mapping{VA: b.VA, Len: b.Size, Dir: dir, Dev: b.VA, slot: -1}
	if d.iommu != nil {
		if err := d.iommuMap(&mp); err != nil {
			return soc.Buffer{}, Mapping{}, err
		}
	}
	return b, mp, nil
}

// AllocPagesZeroed is alloc_pages(GFP_KERNEL | __GFP_ZERO) of a buffer the
// driver then hands to dma_map_page: the page allocator clears each page
// through the cacheable linear map (clear_page, DC ZVA) and maintains
// nothing; the dma_map_page that follows cleans it (arch_sync_dma_for_device,
// DC CVAC, for every direction).
func (d *Device) AllocPagesZeroed(name string, size uint64) (soc.Buffer, error) {
	b, err := d.m.Alloc(name, size, mem.Normal)
	if err != nil {
		return soc.Buffer{}, err
	}
	if _, err := d.m.Zero(b.VA, b.Size); err != nil {
		return soc.Buffer{}, err
	}
	return b, nil
}

// Attrs are DMA_ATTR_* flags of an unmap.
type Attrs uint8

// SkipCPUSync is DMA_ATTR_SKIP_CPU_SYNC: no maintenance and no bounce copy
// back (the driver has synced, or does not care).
const SkipCPUSync Attrs = 1

// mapOne maps one buffer or entry toward the device, without the wait.
func (d *Device) mapOne(va, n uint64, dir Dir, entry int) (Mapping, error) {
	if !dir.valid() {
		return Mapping{}, fmt.Errorf("dma map: direction %d; allowed %s, %s, %s", dir, Bidirectional, ToDevice, FromDevice)
	}
	if n == 0 {
		return Mapping{}, fmt.Errorf("dma map: length 0 at %#x", va)
	}
	mp := Mapping{VA: va, Len: n, Dir: dir, Dev: va, slot: -1}
	if d.cfg.Path == SWIOTLB {
		var err error
		if mp, err = d.bounce(va, n, dir); err != nil {
			return Mapping{}, err
		}
		// swiotlb_tbl_map_single copies whatever the direction, so the
		// device never sees the slot's previous user's data.
		if err := d.copy(mp.Dev, va, n, entry, true); err != nil {
			return Mapping{}, err
		}
	}
	if d.iommu != nil {
		if err := d.iommuMap(&mp); err != nil {
			return Mapping{}, err
		}
	}
	return mp, d.forDevice(mp.Dev, n, entry)
}

// unmapOne is the CPU side of one unmap, without the wait before the copy
// back (the caller waits where the policy says).
func (d *Device) unmapOne(mp Mapping, attrs Attrs, entry int) error {
	if attrs&SkipCPUSync != 0 {
		return nil
	}
	return d.forCPU(mp.Dev, mp.Len, mp.Dir, entry)
}

// copyBack is swiotlb's copy of the slot into the buffer after the
// invalidate, for FROM_DEVICE and BIDIRECTIONAL.
func (d *Device) copyBack(mp Mapping, off, n uint64, entry int) error {
	if mp.slot < 0 || mp.Dir == ToDevice {
		return nil
	}
	return d.copy(mp.VA+off, mp.Dev+off, n, entry, false)
}

// MapSingle is dma_map_single (and dma_map_page on the page's linear
// address): toward the device, then one DSB SY.
func (d *Device) MapSingle(va, n uint64, dir Dir) (Mapping, error) {
	if d.cfg.Path == IOMMU {
		d.m.Spend(d.cfg.IOMMU.Alloc + sim.Time(pages(va, n))*d.cfg.IOMMU.PTE)
	}
	d.mapWork()
	mp, err := d.mapOne(va, n, dir, -1)
	if err != nil {
		return Mapping{}, err
	}
	d.wait()
	return mp, nil
}

// MapPage is dma_map_page: page at off of buffer b (its linear map).
func (d *Device) MapPage(b soc.Buffer, off, n uint64, dir Dir) (Mapping, error) {
	if off > b.Size || n > b.Size-off {
		return Mapping{}, fmt.Errorf("dma_map_page: %#x+%d is outside %s (%d bytes)", off, n, b.Name, b.Size)
	}
	return d.MapSingle(b.VA+off, n, dir)
}

// UnmapSingle is dma_unmap_single / dma_unmap_page: back to the CPU (per
// direction), one DSB SY, the bounce copy back, the slot released.
func (d *Device) UnmapSingle(mp Mapping, attrs Attrs) error {
	d.m.Spend(d.cost.unmapT)
	if err := d.unmapOne(mp, attrs, -1); err != nil {
		return err
	}
	d.wait()
	if attrs&SkipCPUSync == 0 {
		if err := d.copyBack(mp, 0, mp.Len, -1); err != nil {
			return err
		}
	}
	d.release(mp)
	if d.cfg.Path == IOMMU {
		d.m.Spend(sim.Time(pages(mp.VA, mp.Len))*d.cfg.IOMMU.PTE + d.cfg.IOMMU.TLBI)
	}
	return nil
}

func (d *Device) span(mp Mapping, off, n uint64, call string) error {
	if off > mp.Len || n > mp.Len-off {
		return fmt.Errorf("%s: %#x+%d is outside the %d-byte mapping", call, off, n, mp.Len)
	}
	return nil
}

// SyncSingleForCPU is dma_sync_single_for_cpu over [off, off+n) of mp
// (dma_sync_single_range_for_cpu): invalidate per direction, one DSB SY,
// the bounce copy back.
func (d *Device) SyncSingleForCPU(mp Mapping, off, n uint64) error {
	if err := d.span(mp, off, n, "dma_sync_single_for_cpu"); err != nil {
		return err
	}
	d.m.Spend(d.cost.syncT)
	if err := d.forCPU(mp.Dev+off, n, mp.Dir, -1); err != nil {
		return err
	}
	d.wait()
	return d.copyBack(mp, off, n, -1)
}

// SyncSingleForDevice is dma_sync_single_for_device over [off, off+n) of
// mp: the bounce copy for TO_DEVICE and BIDIRECTIONAL, DC CVAC on every
// line, one DSB SY.
func (d *Device) SyncSingleForDevice(mp Mapping, off, n uint64) error {
	if err := d.span(mp, off, n, "dma_sync_single_for_device"); err != nil {
		return err
	}
	d.m.Spend(d.cost.syncT)
	if mp.slot >= 0 && mp.Dir != FromDevice {
		if err := d.copy(mp.Dev+off, mp.VA+off, n, -1, true); err != nil {
			return err
		}
	}
	if err := d.forDevice(mp.Dev+off, n, -1); err != nil {
		return err
	}
	d.wait()
	return nil
}
