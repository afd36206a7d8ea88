package dmaapi

import "github.com/dmaviz/dmaviz/model/sim"

// Seg is one scatterlist element as the driver fills it (sg_set_page):
// the CPU address of a physically contiguous range and its length.
type Seg struct{ VA, Len uint64 }

// SG is a mapped scatterlist: one Mapping per entry.
type SG struct {
	Dir     Dir
	Entries []Mapping
}

// perEntry reports whether the calls wait after every entry: the policy
// says so, or SWIOTLB (each slot's copy must follow its maintenance).
func (d *Device) perEntry() bool { return d.cfg.Wait == PerEntry || d.cfg.Path == SWIOTLB }

func (d *Device) sgPages(segs []Seg) sim.Time {
	n := uint64(0)
	for _, s := range segs {
		n += pages(s.VA, s.Len)
	}
	return sim.Time(n)
}

// MapSG is dma_map_sg: (IOVA and page tables,) then every entry: its
// software work (Config.Entry), then toward the device (bounce copy on
// SWIOTLB, DC CVAC on every line), waiting per entry or once per call.
func (d *Device) MapSG(segs []Seg, dir Dir) (SG, error) {
	if d.cfg.Path == IOMMU {
		d.m.Spend(d.cfg.IOMMU.Alloc + d.sgPages(segs)*d.cfg.IOMMU.PTE)
	}
	sg := SG{Dir: dir, Entries: d.spare[:0]}
	d.spare = nil
	for i, s := range segs {
		d.mapWork()
		mp, err := d.mapOne(s.VA, s.Len, dir, i)
		if err != nil {
			return sg, err
		}
		sg.Entries = append(sg.Entries, mp)
		if d.perEntry() {
			d.wait()
		}
	}
	d.wait()
	return sg, nil
}

// UnmapSG is dma_unmap_sg: every entry back to the CPU (per direction),
// waiting per entry or once, each bounce slot copied back after its wait
// and released, (then the IOMMU clears its PTEs and invalidates the
// IOTLB). sg's entries array is reused by the next MapSG.
func (d *Device) UnmapSG(sg SG, attrs Attrs) error {
	defer func() { d.spare = sg.Entries[:0] }()
	for i, mp := range sg.Entries {
		d.m.Spend(d.cost.unmapT)
		if err := d.unmapOne(mp, attrs, i); err != nil {
			return err
		}
		if d.perEntry() {
			d.wait()
		}
		if attrs&SkipCPUSync == 0 {
			if err := d.copyBack(mp, 0, mp.Len, i); err != nil {
				return err
			}
		}
		d.release(mp)
	}
	d.wait()
	if d.cfg.Path == IOMMU {
		n := uint64(0)
		for _, e := range sg.Entries {
			n += pages(e.VA, e.Len)
		}
		d.m.Spend(sim.Time(n)*d.cfg.IOMMU.PTE + d.cfg.IOMMU.TLBI)
	}
	return nil
}

// SyncSGForCPU is dma_sync_sg_for_cpu: UnmapSG's CPU side, the mapping
// kept.
func (d *Device) SyncSGForCPU(sg SG) error {
	for i, mp := range sg.Entries {
		d.m.Spend(d.cost.syncT)
		if err := d.forCPU(mp.Dev, mp.Len, mp.Dir, i); err != nil {
			return err
		}
		if d.perEntry() {
			d.wait()
		}
		if err := d.copyBack(mp, 0, mp.Len, i); err != nil {
			return err
		}
	}
	d.wait()
	return nil
}

// SyncSGForDevice is dma_sync_sg_for_device: every entry toward the
// device again (the bounce copy for TO_DEVICE and BIDIRECTIONAL).
func (d *Device) SyncSGForDevice(sg SG) error {
	for i, mp := range sg.Entries {
		d.m.Spend(d.cost.syncT)
		if mp.slot >= 0 && mp.Dir != FromDevice {
			if err := d.copy(mp.Dev, mp.VA, mp.Len, i, true); err != nil {
				return err
			}
		}
		if err := d.forDevice(mp.Dev, mp.Len, i); err != nil {
			return err
		}
		if d.perEntry() {
			d.wait()
		}
	}
	d.wait()
	return nil
}
