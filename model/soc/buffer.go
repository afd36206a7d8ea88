package soc

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/mem"
)

// Buffer is a mapped buffer: a virtual range over page frames with one
// attribute. Two Buffers may share Pages (a linear map and its alias).
type Buffer struct {
	Name  string
	VA    uint64
	Size  uint64   // bytes, a whole number of pages
	Pages []uint64 // physical address of each 4 KiB page, in VA order
	Attr  mem.Attr
}

// PA returns the physical address of byte off of the buffer (0 when off
// is outside it).
func (b Buffer) PA(off uint64) uint64 {
	pg := off >> mem.PageShift
	if pg >= uint64(len(b.Pages)) {
		return 0
	}
	return b.Pages[pg] + off&(mem.PageSize-1)
}

// Contiguous reports whether the buffer is physically contiguous.
func (b Buffer) Contiguous() bool { return mem.Contiguous(b.Pages) }

// Alloc allocates size bytes (rounded up to pages) and maps them at a fresh
// VA with attr. Up to the largest buddy block it is physically contiguous
// (like dma_alloc_coherent or alloc_pages of that order); larger buffers
// are built from the largest chunks the allocator can give. The error
// names the field: "buffer: ... larger than memory", or out of memory.
func (m *Machine) Alloc(name string, size uint64, attr mem.Attr) (Buffer, error) {
	return m.AllocChunks(name, size, attr, m.buddy.MaxOrder())
}

// AllocChunks is Alloc with chunks of at most 2^order pages, lowering the
// order when an allocation fails (perf's rb_alloc_aux with PREFER_LARGE;
// order 0 gives a page list like vmalloc).
func (m *Machine) AllocChunks(name string, size uint64, attr mem.Attr, order int) (Buffer, error) {
	if size == 0 {
		return Buffer{}, fmt.Errorf("buffer: size 0; allowed 4KiB..%s", mem.FormatBytes(int64(m.cfg.MemBytes)))
	}
	if size > m.cfg.MemBytes {
		return Buffer{}, fmt.Errorf("buffer: %s is larger than memory (%s)", mem.FormatBytes(int64(size)), mem.FormatBytes(int64(m.cfg.MemBytes)))
	}
	pages := (size + mem.PageSize - 1) >> mem.PageShift
	chunks, err := m.buddy.AllocPreferLarge(pages, order)
	if err != nil {
		return Buffer{}, fmt.Errorf("buffer %s: %w", name, err)
	}
	var list []uint64
	for _, c := range chunks {
		for i := uint64(0); i < 1<<c.Order; i++ {
			list = append(list, c.PA()+i<<mem.PageShift)
		}
	}
	b, err := m.MapPages(name, list, attr)
	if err != nil {
		for _, c := range chunks {
			_ = m.buddy.Free(c)
		}
	}
	return b, err
}

// MapPages maps a page list at a fresh VA: when translating, in the
// kernel's address space (the linear map for a contiguous Normal buffer,
// else a vmap); otherwise in the flat Space (2 MiB aligned, with a guard
// gap).
func (m *Machine) MapPages(name string, pages []uint64, attr mem.Attr) (Buffer, error) {
	if len(pages) == 0 {
		return Buffer{}, fmt.Errorf("map %s: no pages", name)
	}
	va := m.nextVA
	kernel := false
	if m.x != nil {
		kva, ok, err := m.kernelVA(name, pages, attr)
		if err != nil {
			return Buffer{}, err
		}
		if ok {
			va, kernel = kva, true
		}
	}
	b := Buffer{Name: name, VA: va, Size: uint64(len(pages)) << mem.PageShift, Pages: append([]uint64(nil), pages...), Attr: attr}
	if err := m.space.Map(mem.Mapping{Name: name, VA: va, Pages: pages, Attr: attr}); err != nil {
		return Buffer{}, err
	}
	if kernel {
		return b, nil
	}
	if m.x != nil {
		m.x.lists = append(m.x.lists, pageList{va: va, pages: b.Pages})
	}
	const align = 2 << 20
	m.nextVA = (va + b.Size + align + align - 1) &^ (align - 1)
	return b, nil
}

// Alias maps b's frames a second time with attr: the Normal-NC alias of
// dma_alloc_coherent on a non-coherent device, next to the cacheable
// linear map. Accesses through the alias bypass the caches; a dirty line
// of the linear map aliasing it is then a real hazard (its data is not
// what the alias reads).
func (m *Machine) Alias(b Buffer, name string, attr mem.Attr) (Buffer, error) {
	return m.MapPages(name, b.Pages, attr)
}

// Track makes the machine record data versions for b's lines so stale
// reads and lost data on it are detected and counted.
func (m *Machine) Track(b Buffer) error {
	for _, r := range mem.Runs(b.Pages, 0, uint64(len(b.Pages))<<mem.PageShift) {
		if err := m.ver.Track(r.PA, r.N); err != nil {
			return fmt.Errorf("track %s: %w", b.Name, err)
		}
	}
	return nil
}
