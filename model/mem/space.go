package mem

import (
	"fmt"
	"sort"

	"github.com/dmaviz/dmaviz/model/sim"
)

// Attr is a mapping's memory type (the MAIR attribute of its PTE).
type Attr uint8

const (
	// Normal is Normal write-back cacheable memory (the linear map).
	Normal Attr = iota
	// NormalNC is Normal Non-cacheable: no cache allocation, no line fill,
	// no prefetch; each load or store is its own bus transaction of the
	// access width (dma_alloc_coherent's alias on a non-coherent device).
	NormalNC
	// Device is Device-nGnRE: like NormalNC but never gathered, one access
	// in flight at a time.
	Device
)

var attrNames = [...]string{"normal-wb", "normal-nc", "device"}

func (a Attr) String() string {
	if int(a) < len(attrNames) {
		return attrNames[a]
	}
	return fmt.Sprintf("attr(%d)", uint8(a))
}

// Translation is the result of translating one virtual (or IO-virtual)
// address.
type Translation struct {
	PA   uint64
	Attr Attr
	// Contig is how many bytes from the translated address share this
	// translation (to the end of the page or block); callers translate once
	// per Contig bytes.
	Contig uint64
	// Cost is extra latency the translation added (TLB miss, table walk);
	// zero for a flat Space.
	Cost sim.Time
	// TLB events this translation caused, under the PMU's meaning:
	// L1Refill (l1d_tlb_refill), L2Refill (l2d_tlb_refill), Walk (dtlb_walk).
	L1Refill, L2Refill, Walk uint32
}

// Translator turns an address into a Translation. A flat Space implements
// it; page tables with TLBs (a core's MMU) and an SMMU implement the same
// interface so the machine does not change when they are added. Errors are
// translation faults (unmapped, permission) and are returned, never panicked.
type Translator interface {
	Translate(va uint64, write bool) (Translation, error)
}

// Mapping is a virtual range backed by page frames with one attribute.
type Mapping struct {
	Name string // e.g. "etr-buf (linear map)", "etr-buf (NC alias)"
	VA   uint64 // page aligned
	// Pages are the physical addresses of the mapping's 4 KiB pages, in VA
	// order. Invariant: len(Pages) == Size/PageSize.
	Pages []uint64
	Attr  Attr
}

// Size returns the mapping size in bytes.
func (m *Mapping) Size() uint64 { return uint64(len(m.Pages)) << PageShift }

// Space is a flat virtual address space: mappings looked up directly, no
// TLB or walk cost. Two mappings may share frames (a cacheable linear map
// and a Normal-NC alias), exactly as on hardware.
type Space struct {
	maps []Mapping // sorted by VA, disjoint
	last int
}

// Map adds m. The VA must be page aligned, non-empty and not overlap an
// existing mapping; pages must be page aligned.
func (s *Space) Map(m Mapping) error {
	if m.VA%PageSize != 0 {
		return fmt.Errorf("map %s: va %#x is not page aligned", m.Name, m.VA)
	}
	if len(m.Pages) == 0 {
		return fmt.Errorf("map %s: no pages", m.Name)
	}
	if m.Attr > Device {
		return fmt.Errorf("map %s: attr %d; allowed normal-wb, normal-nc, device", m.Name, m.Attr)
	}
	for _, pa := range m.Pages {
		if pa%PageSize != 0 {
			return fmt.Errorf("map %s: page %#x is not page aligned", m.Name, pa)
		}
	}
	end := m.VA + m.Size()
	if end < m.VA {
		return fmt.Errorf("map %s: va range wraps", m.Name)
	}
	for i := range s.maps {
		o := &s.maps[i]
		if m.VA < o.VA+o.Size() && o.VA < end {
			return fmt.Errorf("map %s: va %#x..%#x overlaps %s", m.Name, m.VA, end, o.Name)
		}
	}
	m.Pages = append([]uint64(nil), m.Pages...)
	s.maps = append(s.maps, m)
	sort.Slice(s.maps, func(i, j int) bool { return s.maps[i].VA < s.maps[j].VA })
	s.last = 0
	return nil
}

// Mappings returns the mappings in VA order (read-only).
func (s *Space) Mappings() []Mapping { return s.maps }

func (s *Space) find(va uint64) *Mapping {
	if len(s.maps) == 0 {
		return nil
	}
	if m := &s.maps[s.last]; va-m.VA < m.Size() {
		return m
	}
	i := sort.Search(len(s.maps), func(i int) bool { return s.maps[i].VA+s.maps[i].Size() > va })
	if i < len(s.maps) && va >= s.maps[i].VA {
		s.last = i
		return &s.maps[i]
	}
	return nil
}

// Translate implements Translator.
func (s *Space) Translate(va uint64, write bool) (Translation, error) {
	m := s.find(va)
	if m == nil {
		return Translation{}, fmt.Errorf("translation fault: va %#x is not mapped", va)
	}
	off := va - m.VA
	pg := off >> PageShift
	in := off & (PageSize - 1)
	return Translation{PA: m.Pages[pg] + in, Attr: m.Attr, Contig: PageSize - in}, nil
}
