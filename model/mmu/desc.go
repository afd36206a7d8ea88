// Package mmu models Arm64 stage-1 translation with a 4 KiB granule and
// 48-bit virtual addresses: page tables whose descriptors live in frames
// from the buddy allocator at real physical addresses, one walker (a loop
// over levels 0..3 driven by small visitors), per-level walk caches, the
// kernel's address spaces (linear map, vmalloc/vmap, IOVA), perf's
// rb_alloc_aux and vmap of a page list with or without large mappings.
//
// The walker reaches memory only through a Port (one 8-byte descriptor
// read or write at a physical address, with its time), so the SoC can
// route descriptor reads through its caches and DRAM. Nothing here panics
// on bad input: mapping errors are error values, a walk that finds an
// invalid descriptor returns a Fault with its address and level.
package mmu

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/mem"
)

// Geometry of the 4 KiB granule with 48-bit VAs (arch/arm64/include/asm/
// pgtable-hwdef.h): levels 0..3, 512 eight-byte descriptors per table.
const (
	Levels     = 4
	PageShift  = 12
	PageSize   = 1 << PageShift
	ContigPTEs = 16                       // CONT_PTES: 16 aligned PTEs share one TLB entry
	ContigSize = ContigPTEs * PageSize    // CONT_PTE_SIZE, 64 KiB
	BlockL2    = 1 << 21                  // PMD_SIZE, a level-2 block
	BlockL1    = 1 << 30                  // PUD_SIZE, a level-1 block
	VABits     = 48                       // VA_BITS
	tableSlots = 1 << (PageShift - 3)     // PTRS_PER_PTE
	vaMask     = uint64(1)<<VABits - 1    // the bits a walk indexes
	oaMask     = vaMask &^ (PageSize - 1) // output / next-table address, bits [47:12]
)

// levelShift is the VA bit where level l's index starts: 39, 30, 21, 12
// (ARM64_HW_PGTABLE_LEVEL_SHIFT).
func levelShift(l int) uint { return uint(PageShift + 9*(3-l)) }

// slot is va's descriptor index in its level-l table.
func slot(va uint64, l int) uint64 { return (va >> levelShift(l)) & (tableSlots - 1) }

// Descriptor bits (pgtable-hwdef.h names in comments).
const (
	dValid   = 1 << 0  // PTE_VALID
	dTable   = 1 << 1  // PMD_TABLE_BIT; at level 3 it marks a page (PTE_TYPE_PAGE = 3)
	dAttrSh  = 2       // PTE_ATTRINDX(t) = t << 2
	dAttrMsk = 7 << 2  // PTE_ATTRINDX_MASK
	dRdonly  = 1 << 7  // PTE_RDONLY, AP[2]
	dShInner = 3 << 8  // PTE_SHARED, SH[1:0] inner shareable
	dAF      = 1 << 10 // PTE_AF
	dCont    = 1 << 52 // PTE_CONT
	dPXN     = 1 << 53 // PTE_PXN
	dUXN     = 1 << 54 // PTE_UXN
)

// MAIR indices as Linux programs them (arch/arm64/include/asm/memory.h).
const (
	mtNormal       = 0 // MT_NORMAL
	mtNormalNC     = 2 // MT_NORMAL_NC
	mtDeviceNGnRE  = 4 // MT_DEVICE_nGnRE
	mtDeviceNGnRnE = 3 // MT_DEVICE_nGnRnE
)

// Kind is what a descriptor is at the level it was read.
type Kind uint8

const (
	// Invalid has bit 0 clear: a walk that reaches it faults.
	Invalid Kind = iota
	// Table points to the next level's table (levels 0..2, bits[1:0]=11).
	Table
	// Block maps 1 GiB at level 1 or 2 MiB at level 2 (bits[1:0]=01).
	Block
	// Page maps 4 KiB at level 3 (bits[1:0]=11).
	Page
	// Reserved is an encoding the 4 KiB granule does not allow (a level-0
	// block, a level-3 descriptor with bits[1:0]=01); it faults like Invalid.
	Reserved
)

var kindNames = [...]string{"invalid", "table", "block", "page", "reserved"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// KindOf decodes descriptor d read at level l.
func KindOf(d uint64, l int) Kind {
	switch {
	case d&dValid == 0:
		return Invalid
	case l == 3 && d&dTable != 0:
		return Page
	case l == 3, l == 0 && d&dTable == 0:
		return Reserved
	case d&dTable != 0:
		return Table
	default:
		return Block
	}
}

// Prot is a mapping's attributes: memory type, write permission and
// whether it may be executed.
type Prot struct {
	Attr     mem.Attr
	ReadOnly bool
	Exec     bool
}

// PageKernel is PAGE_KERNEL without execute (what vmap uses): Normal WB, RW, XN.
var PageKernel = Prot{Attr: mem.Normal}

func (p Prot) String() string {
	s := p.Attr.String()
	if p.ReadOnly {
		s += " ro"
	} else {
		s += " rw"
	}
	if p.Exec {
		s += " x"
	} else {
		s += " xn"
	}
	return s
}

func (p Prot) valid() error {
	if p.Attr > mem.Device {
		return fmt.Errorf("prot.attr: %d; allowed normal-wb, normal-nc, device", p.Attr)
	}
	return nil
}

// bits returns the leaf descriptor attribute bits for p (AF set, inner
// shareable, AttrIndx from Linux's MAIR layout).
func (p Prot) bits() uint64 {
	idx := uint64(mtNormal)
	switch p.Attr {
	case mem.NormalNC:
		idx = mtNormalNC
	case mem.Device:
		idx = mtDeviceNGnRE
	}
	d := uint64(dAF|dShInner) | idx<<dAttrSh
	if p.ReadOnly {
		d |= dRdonly
	}
	if !p.Exec {
		d |= dPXN | dUXN
	}
	return d
}

// protOf decodes the attribute bits of a leaf descriptor.
func protOf(d uint64) Prot {
	return Prot{ReadOnly: d&dRdonly != 0, Exec: d&dPXN == 0, Attr: attrOf(d)}
}

// attrOf is the memory type of descriptor d's AttrIndx.
func attrOf(d uint64) mem.Attr {
	switch (d & dAttrMsk) >> dAttrSh {
	case mtNormalNC:
		return mem.NormalNC
	case mtDeviceNGnRE, mtDeviceNGnRnE:
		return mem.Device
	}
	return mem.Normal
}

// Size is a set of leaf mapping sizes (bits may be combined).
type Size uint8

const (
	// Size4K is a level-3 page.
	Size4K Size = 1 << iota
	// Size64K is 16 aligned level-3 pages with the contiguous bit.
	Size64K
	// Size2M is a level-2 block.
	Size2M
	// Size1G is a level-1 block.
	Size1G
)

// sizeOrder lists leaf sizes largest first with their bytes and level.
var sizeOrder = [...]struct {
	s     Size
	bytes uint64
	level int
}{{Size1G, BlockL1, 1}, {Size2M, BlockL2, 2}, {Size64K, ContigSize, 3}, {Size4K, PageSize, 3}}

func (s Size) String() string {
	names := [...]string{"4K", "64K", "2M", "1G"}
	out := ""
	for i, n := range names {
		if s&(1<<i) != 0 {
			if out != "" {
				out += "|"
			}
			out += n
		}
	}
	if out == "" {
		return "none"
	}
	return out
}

// Leaf is one translation found by a walk: VA..VA+Bytes maps to PA..PA+Bytes.
type Leaf struct {
	VA, PA uint64 // both aligned to Bytes
	// Bytes is 4 KiB (page), 64 KiB (page with the contiguous hint, one TLB
	// entry for all 16), 2 MiB or 1 GiB (blocks).
	Bytes uint64
	Level int
	Prot  Prot
}

// leafOf builds the Leaf that descriptor d (a Block or Page at level l)
// gives va.
func leafOf(va, d uint64, l int) Leaf {
	var lf Leaf
	setLeaf(&lf, va, d, l)
	return lf
}

// setLeaf is leafOf into *lf, field by field (in Go's WASM port a struct
// copy bigger than 16 bytes is a call; this is every walk's leaf).
func setLeaf(lf *Leaf, va, d uint64, l int) {
	bytes := uint64(1) << levelShift(l)
	oa := d & oaMask
	if l == 3 && d&dCont != 0 {
		bytes = ContigSize
		oa -= (va >> PageShift & (ContigPTEs - 1)) << PageShift
	}
	oa &^= bytes - 1
	lf.VA, lf.PA, lf.Bytes, lf.Level = va&^(bytes-1), oa, bytes, l
	lf.Prot.ReadOnly, lf.Prot.Exec, lf.Prot.Attr = d&dRdonly != 0, d&dPXN == 0, attrOf(d)
}

// Fault is a translation fault: the walk of VA found no valid descriptor at
// Level (the descriptor it read, and where, are kept for the view).
type Fault struct {
	VA       uint64
	Level    int
	DescAddr uint64
	Desc     uint64
	// Range is set when the VA lies outside the table's half of the
	// address space (reported at level 0, like the hardware).
	Range bool
}

func (f *Fault) Error() string {
	if f.Range {
		return fmt.Sprintf("translation fault at level 0: va %#x is outside this table's address range", f.VA)
	}
	return fmt.Sprintf("translation fault at level %d: va %#x (descriptor %#x at pa %#x is %v)",
		f.Level, f.VA, f.Desc, f.DescAddr, KindOf(f.Desc, f.Level))
}
