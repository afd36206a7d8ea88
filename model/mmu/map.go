package mmu

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// MapStats is what a mapping change did to the tables.
type MapStats struct {
	// Leaves written, by size: 4 KiB pages, 64 KiB contiguous runs (16
	// PTEs each), 2 MiB and 1 GiB blocks.
	Pages, Contig, Blocks2M, Blocks1G int
	Tables                            int // table frames allocated (or freed, for Unmap: 0)
	Reads, Writes                     int // descriptor accesses through the port
	// Cost is the time of those accesses on the table's port (the price of
	// creating the mapping; zero when the port is Memory).
	Cost sim.Time
}

func (a *MapStats) add(b *MapStats) {
	a.Pages += b.Pages
	a.Contig += b.Contig
	a.Blocks2M += b.Blocks2M
	a.Blocks1G += b.Blocks1G
	a.Tables += b.Tables
	a.Reads += b.Reads
	a.Writes += b.Writes
	a.Cost += b.Cost
}

// mapper is the visitor that installs one leaf: it allocates missing
// tables above the leaf level and writes the leaf descriptor(s).
type mapper struct {
	t      *PageTable
	pa     uint64
	bits   uint64 // attribute bits of the leaf
	level  int
	contig bool
	st     MapStats // what this run of leaves wrote, added to the caller's
	err    error
}

func (m *mapper) write(pa, v uint64) {
	m.st.Cost += m.t.port.Write64(pa, v)
	m.st.Writes++
}

func (m *mapper) visit(s *step) action {
	t := m.t
	k := KindOf(s.desc, s.level)
	if s.level < m.level {
		switch k {
		case Table:
			t.note(s)
			return descendTable
		case Invalid:
			pa, err := t.allocTable()
			if err != nil {
				m.err = err
				return stop
			}
			m.st.Tables++
			s.desc = pa | dValid | dTable
			m.write(s.descAddr, s.desc)
			t.note(s)
			return descendTable
		}
		m.err = fmt.Errorf("%s: map of va %#x overlaps a level-%d %v", t.name, s.va, s.level, k)
		return stop
	}
	if k == Table { // an empty table left by an earlier unmap: a block replaces it
		next := s.desc & oaMask
		if !t.emptyTable(next, s.level+1) {
			m.err = fmt.Errorf("%s: map of va %#x overlaps mappings below a level-%d table", t.name, s.va, s.level)
			return stop
		}
		m.write(s.descAddr, 0)
		t.freeTree(next, s.level+1)
		k = Invalid
	}
	if k != Invalid {
		m.err = fmt.Errorf("%s: map of va %#x overlaps a level-%d %v", t.name, s.va, s.level, k)
		return stop
	}
	d := m.pa | m.bits | dValid
	n := 1
	if s.level == 3 {
		d |= dTable // PTE_TYPE_PAGE
		if m.contig {
			d |= dCont
			n = ContigPTEs
		}
	}
	for i := range n {
		m.write(s.descAddr+uint64(i)*8, d+uint64(i)*PageSize)
	}
	return stop
}

// checkRange validates a VA range of this tree.
func (t *PageTable) checkRange(op string, va, bytes uint64) error {
	if bytes == 0 || bytes%PageSize != 0 {
		return fmt.Errorf("%s %s: size %d is not a positive multiple of 4 KiB", t.name, op, bytes)
	}
	if va%PageSize != 0 {
		return fmt.Errorf("%s %s: va %#x is not page aligned", t.name, op, va)
	}
	last := va + bytes - 1
	if last < va || !t.inRange(va) || !t.inRange(last) {
		return fmt.Errorf("%s %s: va %#x..%#x is outside this table's address range", t.name, op, va, va+bytes)
	}
	return nil
}

// firstLeaf returns a leaf overlapping [va, va+bytes), if any.
func (t *PageTable) firstLeaf(va, bytes uint64) (Leaf, bool) {
	var first Leaf
	found := false
	t.eachLeaf(va, bytes, func(l *Leaf) bool { first, found = *l, true; return false })
	return first, found
}

// MapRange maps the physically contiguous range pa..pa+bytes at va, using
// at each position the largest leaf in sizes whose alignment va and pa
// both have and which fits (so 2 MiB blocks only where both are 2 MiB
// aligned, like vmap_try_huge_pmd and arch_vmap_pte_range_map_size). The
// range must be unmapped. On error nothing is left mapped.
func (t *PageTable) MapRange(va, pa, bytes uint64, prot Prot, sizes Size) (MapStats, error) {
	if err := t.checkMap(va, bytes, prot, sizes); err != nil {
		return MapStats{}, err
	}
	if pa%PageSize != 0 || pa+bytes > 1<<VABits || pa+bytes < pa {
		return MapStats{}, fmt.Errorf("%s map: pa %#x..%#x is not page aligned below 2^48", t.name, pa, pa+bytes)
	}
	var st MapStats
	if err := t.mapRun(va, pa, bytes, prot.bits(), sizes, &st); err != nil {
		t.rollback(va, &st)
		return MapStats{}, err
	}
	return st, nil
}

// MapPages maps a page list (the physical address of each 4 KiB page, in
// VA order) at va: each physically contiguous run is mapped as MapRange
// maps it, so contiguous, aligned runs get 64 KiB or 2 MiB entries when
// sizes allows them and everything else 4 KiB PTEs.
func (t *PageTable) MapPages(va uint64, pages []uint64, prot Prot, sizes Size) (MapStats, error) {
	if err := t.checkMap(va, uint64(len(pages))*PageSize, prot, sizes); err != nil {
		return MapStats{}, err
	}
	if err := checkPages(t.name, pages); err != nil {
		return MapStats{}, err
	}
	var st MapStats
	if err := t.mapList(va, pages, prot.bits(), sizes, &st); err != nil {
		t.rollback(va, &st)
		return MapStats{}, err
	}
	return st, nil
}

// checkPages checks that every page of a list is a page-aligned physical
// address below 2^48.
func checkPages(name string, pages []uint64) error {
	for i, pa := range pages {
		if pa%PageSize != 0 || pa >= 1<<VABits {
			return fmt.Errorf("%s map: page %d at pa %#x is not page aligned below 2^48", name, i, pa)
		}
	}
	return nil
}

// mapList is MapPages' loop over the list's physically contiguous runs,
// counting into st (the caller rolls back on error).
func (t *PageTable) mapList(va uint64, pages []uint64, bits uint64, sizes Size, st *MapStats) error {
	next := progressPages
	end := uint64(len(pages)) * PageSize
	for r := mem.RunAt(pages, 0, end); r.N > 0; r = mem.RunAt(pages, r.Off+r.N, end) {
		if err := t.mapRun(va+r.Off, r.PA, r.N, bits, sizes, st); err != nil {
			return err
		}
		if i := int((r.Off + r.N) / PageSize); i >= next && t.Progress != nil {
			t.Progress(i - (next - progressPages))
			next = i + progressPages
		}
	}
	return nil
}

func (t *PageTable) checkMap(va, bytes uint64, prot Prot, sizes Size) error {
	if err := t.checkRange("map", va, bytes); err != nil {
		return err
	}
	if err := prot.valid(); err != nil {
		return fmt.Errorf("%s map: %v", t.name, err)
	}
	if sizes == 0 || sizes > Size4K|Size64K|Size2M|Size1G {
		return fmt.Errorf("%s map: sizes %d; allowed a combination of 4K, 64K, 2M, 1G", t.name, sizes)
	}
	if l, ok := t.firstLeaf(va, bytes); ok {
		return fmt.Errorf("%s map: va %#x..%#x overlaps the existing mapping at va %#x (%d bytes)", t.name, va, va+bytes, l.VA, l.Bytes)
	}
	return nil
}

// rollback unmaps what a failed map had written from va on.
func (t *PageTable) rollback(va uint64, st *MapStats) {
	n := uint64(st.Pages)*PageSize + uint64(st.Contig)*ContigSize + uint64(st.Blocks2M)*BlockL2 + uint64(st.Blocks1G)*BlockL1
	if n > 0 {
		_, _ = t.Unmap(va, n)
	}
}

func (t *PageTable) mapRun(va, pa, bytes, bits uint64, sizes Size, st *MapStats) error {
	m := &t.mp // reused: a visitor passed by interface would be a heap object per run
	// Field by field: a struct store with pointers in it is a bulk write
	// barrier while the GC runs (about 1 % of both runs as WebAssembly).
	// The pointers are stored only when they change: even one pointer
	// store per run is a write barrier while the GC marks, which as
	// WebAssembly (one thread: marking lasts long) was a tenth of
	// spe-aux's time, vmap mapping a run per order-0 page.
	if m.t != t {
		m.t = t
	}
	if m.err != nil {
		m.err = nil
	}
	m.pa, m.bits, m.level, m.contig, m.st = 0, bits, 0, false, MapStats{}
	err := t.mapLeaves(va, pa, bytes, bits, sizes)
	st.add(&m.st)
	return err
}

// mapLeaves is mapRun's loop, leaf by leaf, counting in t.mp.st. (No
// defer, and the size table read by pointer: in Go's WASM port a
// deferred closure per run and a 24-byte struct copied per page and size
// were about a fifth of vmap's time.)
func (t *PageTable) mapLeaves(va, pa, bytes, bits uint64, sizes Size) error {
	m := &t.mp
	for off := uint64(0); off < bytes; {
		v, p, rem := va+off, pa+off, bytes-off
		pick := -1
		for i := range sizeOrder {
			if so := &sizeOrder[i]; sizes&so.s != 0 && v%so.bytes == 0 && p%so.bytes == 0 && rem >= so.bytes {
				pick = i
				break
			}
		}
		if pick < 0 {
			return fmt.Errorf("%s map: va %#x pa %#x (%d bytes left) fits no allowed leaf size (%v): unaligned block", t.name, v, p, rem, sizes)
		}
		so := &sizeOrder[pick]
		m.pa, m.level, m.contig = p, so.level, so.s == Size64K
		lvl, table := t.start(v, so.level)
		if so.s == Size4K && lvl == Levels-1 && t.direct {
			// A page into the level-3 table the cursor holds, on a free
			// port: mapper.visit's leaf case on the frame itself (one
			// read, one write, as the descent would count them).
			if f := t.mem.frame(table); f != nil {
				i := slot(v, Levels-1)
				m.st.Reads++
				if KindOf(f[i], Levels-1) != Invalid {
					m.err = fmt.Errorf("%s: map of va %#x overlaps a level-%d %v", t.name, v, Levels-1, KindOf(f[i], Levels-1))
					return m.err
				}
				f[i] = p | bits | dValid | dTable // PTE_TYPE_PAGE
				m.st.Writes++
				m.st.Pages++
				off += PageSize
				continue
			}
		}
		s := &t.st
		s.va, s.level, s.descAddr, s.desc, s.cached, s.cost, s.reads = v, 0, 0, 0, false, 0, 0 // (WASM: no memory.fill)
		m.st.Cost += descend(t.port, v, lvl, table, m, s)
		m.st.Reads += s.reads
		if m.err != nil {
			return m.err
		}
		switch so.s {
		case Size4K:
			m.st.Pages++
		case Size64K:
			m.st.Contig++
		case Size2M:
			m.st.Blocks2M++
		default:
			m.st.Blocks1G++
		}
		off += so.bytes
	}
	return nil
}

// unmapper clears the leaf it reaches (all 16 PTEs of a contiguous run).
type unmapper struct {
	t     *PageTable
	st    MapStats
	bytes uint64 // size of the leaf cleared
}

func (u *unmapper) visit(s *step) action {
	switch KindOf(s.desc, s.level) {
	case Table:
		u.t.note(s)
		return descendTable
	case Block, Page:
		l := leafOf(s.va, s.desc, s.level)
		first, n := s.descAddr, 1
		if l.Bytes == ContigSize {
			first, n = s.descAddr&^(ContigPTEs*8-1), ContigPTEs
		}
		for i := range n {
			u.st.Cost += u.t.port.Write64(first+uint64(i)*8, 0)
			u.st.Writes++
		}
		u.bytes = l.Bytes
	}
	return stop
}

// clearPTE is visit's page case on the level-3 table at table itself (a
// free port: one read and the writes, as the descent would count them).
// It reports false, doing nothing, when va's descriptor is not a page.
func (u *unmapper) clearPTE(va, table uint64) bool {
	f := u.t.mem.frame(table)
	if f == nil {
		return false
	}
	i := slot(va, Levels-1)
	d := f[i]
	if KindOf(d, Levels-1) != Page {
		return false
	}
	u.st.Reads++
	l := leafOf(va, d, Levels-1)
	first, n := i, uint64(1)
	if l.Bytes == ContigSize {
		first, n = i&^(ContigPTEs-1), ContigPTEs
	}
	clear(f[first : first+n])
	u.st.Writes += int(n)
	u.bytes = l.Bytes
	return true
}

// Unmap clears every leaf in [va, va+bytes) (vunmap_range); the tables
// stay, as the kernel leaves them. The range must be fully mapped and
// must not cut a block or contiguous run; otherwise nothing changes. The
// caller invalidates TLBs and walk caches (Walker.Invalidate).
func (t *PageTable) Unmap(va, bytes uint64) (MapStats, error) {
	if err := t.checkRange("unmap", va, bytes); err != nil {
		return MapStats{}, err
	}
	at := va
	var bad error
	t.eachLeaf(va, bytes, func(l *Leaf) bool {
		switch {
		case l.VA+l.Bytes > va+bytes || l.VA < va:
			bad = fmt.Errorf("%s unmap: va %#x..%#x would split the %d-byte mapping at va %#x", t.name, va, va+bytes, l.Bytes, l.VA)
		case l.VA != at:
			bad = fmt.Errorf("%s unmap: va %#x is not mapped", t.name, at)
		}
		at = l.VA + l.Bytes
		return bad == nil
	})
	if bad == nil && at != va+bytes {
		bad = fmt.Errorf("%s unmap: va %#x is not mapped", t.name, at)
	}
	if bad != nil {
		return MapStats{}, bad
	}
	u := &t.um // reused, as t.mp
	*u = unmapper{t: t}
	next := uint64(progressPages) * PageSize
	for off := uint64(0); off < bytes; off += u.bytes {
		v := va + off
		lvl, table := t.start(v, Levels-1)
		if lvl == Levels-1 && t.direct && u.clearPTE(v, table) {
			// done in place
		} else {
			s := &t.st
			s.va, s.level, s.descAddr, s.desc, s.cached, s.cost, s.reads = v, 0, 0, 0, false, 0, 0
			u.st.Cost += descend(t.port, v, lvl, table, u, s)
			u.st.Reads += s.reads
		}
		if off >= next && t.Progress != nil {
			t.Progress(int((off - (next - progressPages*PageSize)) / PageSize))
			next = off + progressPages*PageSize
		}
	}
	return u.st, nil
}
