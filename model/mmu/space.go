package mmu

import (
	"fmt"
	"math/bits"
	"sort"

	"github.com/dmaviz/dmaviz/model/mem"
)

// Kernel VA layout of arm64 Linux with VA_BITS=48 and 4 KiB pages
// (Documentation/arch/arm64/memory.rst).
const (
	LinearBase   = 0xffff_0000_0000_0000 // PAGE_OFFSET: the linear map of RAM
	LinearEnd    = 0xffff_8000_0000_0000 // 128 TiB of linear map
	VmallocStart = 0xffff_8000_8000_0000 // VMALLOC_START, after 2 GiB of modules
	VmallocEnd   = 0xffff_fbff_f000_0000 // VMALLOC_END, below the fixmap
)

// Area is an allocated virtual range.
type Area struct {
	VA, Bytes uint64
}

// vaAllocator hands out aligned areas of [lo, hi): vmalloc's vmap_area
// tree (lowest fit, one guard page after each area) or an IOMMU domain's
// IOVA tree (highest fit below the limit, no guard).
type vaAllocator struct {
	lo, hi  uint64
	topDown bool
	guard   uint64
	used    []Area // sorted by VA; Bytes include the guard
}

func alignUp(x, a uint64) uint64 { return (x + a - 1) &^ (a - 1) }

func (a *vaAllocator) alloc(bytes, align uint64) (uint64, error) {
	need := bytes + a.guard
	if need < bytes || need > a.hi-a.lo {
		return 0, fmt.Errorf("address space: %d bytes do not fit in %#x..%#x", bytes, a.lo, a.hi)
	}
	var va uint64
	found := false
	if !a.topDown {
		cand := alignUp(a.lo, align)
		for _, u := range a.used {
			if cand+need <= u.VA {
				break
			}
			cand = max(cand, alignUp(u.VA+u.Bytes, align))
		}
		if cand >= a.lo && cand <= a.hi-need {
			va, found = cand, true
		}
	} else {
		cand := (a.hi - need) &^ (align - 1)
		for i := len(a.used) - 1; i >= 0; i-- {
			u := a.used[i]
			if cand >= u.VA+u.Bytes {
				break
			}
			if u.VA < need {
				cand = 0
				break
			}
			cand = min(cand, (u.VA-need)&^(align-1))
		}
		if cand >= a.lo && cand <= a.hi-need {
			va, found = cand, true
		}
	}
	if !found {
		return 0, fmt.Errorf("address space: no free %d-byte area aligned to %#x in %#x..%#x", bytes, align, a.lo, a.hi)
	}
	a.used = append(a.used, Area{va, need})
	sort.Slice(a.used, func(i, j int) bool { return a.used[i].VA < a.used[j].VA })
	return va, nil
}

func (a *vaAllocator) free(va uint64) error {
	for i, u := range a.used {
		if u.VA == va {
			a.used = append(a.used[:i], a.used[i+1:]...)
			return nil
		}
	}
	return fmt.Errorf("address space: va %#x is not an allocated area", va)
}

// KernelSpace is the kernel's half of the VA space (TTBR1): the linear map
// of all RAM at LinearBase and the vmalloc area where vmap places page
// lists.
type KernelSpace struct {
	PT      *PageTable
	ram     uint64
	vmalloc vaAllocator
}

// NewKernelSpace builds the kernel table in frames from b and maps RAM
// (PA 0 .. all of b's frames) linearly with leaf sizes linear (the
// block-mapped linear map: Size4K|Size2M|Size1G). port prices mapping
// changes (nil: no cost).
func NewKernelSpace(m *Memory, b *mem.Buddy, port Port, linear Size) (*KernelSpace, MapStats, error) {
	pt, err := NewPageTable("kernel", m, b, port, true)
	if err != nil {
		return nil, MapStats{}, err
	}
	ram := b.Frames() * PageSize
	if ram > LinearEnd-LinearBase {
		return nil, MapStats{}, fmt.Errorf("kernel: %d bytes of RAM exceed the 128 TiB linear map", ram)
	}
	st, err := pt.MapRange(LinearBase, 0, ram, PageKernel, linear)
	if err != nil {
		return nil, MapStats{}, err
	}
	k := &KernelSpace{PT: pt, ram: ram, vmalloc: vaAllocator{lo: VmallocStart, hi: VmallocEnd, guard: PageSize}}
	return k, st, nil
}

// LinearVA returns the linear-map address of pa (phys_to_virt).
func (k *KernelSpace) LinearVA(pa uint64) (uint64, error) {
	if pa >= k.ram {
		return 0, fmt.Errorf("kernel: pa %#x is not RAM (RAM is 0..%#x)", pa, k.ram)
	}
	return LinearBase + pa, nil
}

// IOSpace is one IOMMU domain's IO virtual addresses: an io-pgtable in the
// same descriptor format (lower half, VA[63:48] zero) and an IOVA allocator.
type IOSpace struct {
	PT   *PageTable
	iova vaAllocator
}

// NewIOSpace returns an empty domain whose IOVAs lie below limit (the
// device's DMA mask + 1, 2^32..2^48); IOVA 0 is never handed out.
func NewIOSpace(name string, m *Memory, b *mem.Buddy, port Port, limit uint64) (*IOSpace, error) {
	if limit < 1<<32 || limit > 1<<VABits {
		return nil, fmt.Errorf("%s: dma limit %#x is out of range; allowed 2^32..2^48", name, limit)
	}
	pt, err := NewPageTable(name, m, b, port, false)
	if err != nil {
		return nil, err
	}
	return &IOSpace{PT: pt, iova: vaAllocator{lo: PageSize, hi: limit, topDown: true}}, nil
}

// Map gives a page list an IOVA range and maps it (iommu_dma_map_sg): the
// IOVA is aligned to the power of two at or above the size, taken top-down
// (alloc_iova with size_aligned), and mapped with io-pgtable-arm's sizes
// for a 4 KiB granule (4 KiB, 2 MiB, 1 GiB; no contiguous hint).
func (s *IOSpace) Map(pages []uint64, prot Prot) (Area, MapStats, error) {
	if len(pages) == 0 {
		return Area{}, MapStats{}, fmt.Errorf("%s map: no pages", s.PT.name)
	}
	bytes := uint64(len(pages)) * PageSize
	align := uint64(1) << bits.Len64(bytes-1)
	va, err := s.iova.alloc(bytes, align)
	if err != nil {
		return Area{}, MapStats{}, fmt.Errorf("%s map: %v", s.PT.name, err)
	}
	st, err := s.PT.MapPages(va, pages, prot, Size4K|Size2M|Size1G)
	if err != nil {
		_ = s.iova.free(va)
		return Area{}, MapStats{}, err
	}
	return Area{va, bytes}, st, nil
}

// Unmap removes a Map area.
func (s *IOSpace) Unmap(a Area) (MapStats, error) {
	st, err := s.PT.Unmap(a.VA, a.Bytes)
	if err != nil {
		return st, err
	}
	return st, s.iova.free(a.VA)
}
