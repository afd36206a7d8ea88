package dmaapi

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/mmu"
)

// IOMMUDMALimit is the IOVA limit of the device's domain (a 48-bit DMA
// mask): IOVAs are taken top-down below it.
const IOMMUDMALimit = 1 << 48

// iommuDomain is the device's IOMMU domain on the IOMMU path: an
// io-pgtable in frames of the machine's buddy allocator and its IOVA
// allocator (mmu.IOSpace). Every streaming mapping gets an IOVA range
// mapped to its pages (iommu_dma_map_page; a scatterlist entry gets its
// own range, where iommu_dma_map_sg concatenates the list into one), the
// device addresses the mapping by its IOVA, and its DMA descriptors are
// the physical runs the io-pgtable gives for it. The price of the calls
// stays IOMMUCost (the table walks of an SMMU are not modelled here).
type iommuDomain struct {
	space *mmu.IOSpace
	// live maps an IOVA range's base to the range (for unmap).
	live map[uint64]mmu.Area
}

func newIOMMUDomain(d *Device) (*iommuDomain, error) {
	s, err := mmu.NewIOSpace(fmt.Sprintf("iommu-dev%d", d.id), mmu.NewMemory(), d.m.Buddy(), nil, IOMMUDMALimit)
	if err != nil {
		return nil, fmt.Errorf("iommu: %w", err)
	}
	return &iommuDomain{space: s, live: map[uint64]mmu.Area{}}, nil
}

// IOSpace returns the device's IOMMU domain (nil unless Path IOMMU).
func (d *Device) IOSpace() *mmu.IOSpace {
	if d.iommu == nil {
		return nil
	}
	return d.iommu.space
}

// iommuMap gives mp an IOVA range over its pages.
func (d *Device) iommuMap(mp *Mapping) error {
	sp := d.m.Space()
	first := mp.Dev &^ (mem.PageSize - 1)
	n := pages(mp.Dev, mp.Len)
	list := make([]uint64, 0, n)
	for i := uint64(0); i < n; i++ {
		tr, err := sp.Translate(first+i*mem.PageSize, false)
		if err != nil {
			return fmt.Errorf("iommu map: %w", err)
		}
		list = append(list, tr.PA&^(mem.PageSize-1))
	}
	a, _, err := d.iommu.space.Map(list, mmu.Prot{Attr: mem.Normal})
	if err != nil {
		return fmt.Errorf("iommu map: %w", err)
	}
	d.iommu.live[a.VA] = a
	mp.IOVA = a.VA + mp.Dev&(mem.PageSize-1)
	return nil
}

// iommuUnmap removes mp's IOVA range (iommu_dma_unmap_page).
func (d *Device) iommuUnmap(mp Mapping) {
	if d.iommu == nil || mp.IOVA == 0 {
		return
	}
	base := mp.IOVA &^ (mem.PageSize - 1)
	if a, ok := d.iommu.live[base]; ok {
		_, _ = d.iommu.space.Unmap(a)
		delete(d.iommu.live, base)
	}
}

// iommuRuns calls f for each physically contiguous run of mp's IOVA range
// as the io-pgtable translates it.
func (d *Device) iommuRuns(mp Mapping, f func(pa, n uint64) error) error {
	pt := d.iommu.space.PT
	return joinRuns(mp.Len, func(off uint64) (uint64, uint64, error) {
		l, err := pt.Lookup(mp.IOVA + off)
		if err != nil {
			return 0, 0, fmt.Errorf("iommu: device access at iova %#x: %w", mp.IOVA+off, err)
		}
		return l.PA + (mp.IOVA + off - l.VA), l.VA + l.Bytes - (mp.IOVA + off), nil
	}, f)
}
