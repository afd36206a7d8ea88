package mmu

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// PageTable is one stage-1 translation table tree (what a TTBR points to):
// a level-0 table and the tables below it, each a frame from the buddy
// allocator whose descriptors live in Memory. Map, Unmap and Lookup are
// visitors of the one descent (descend); the hardware walk is Walker.
type PageTable struct {
	name string
	mem  *Memory
	port Port // every descriptor access of Map/Unmap goes through it
	// direct: port is mem itself (accesses cost nothing), so a mapping
	// change may write a level-3 table's frame in place.
	direct bool
	buddy  *mem.Buddy
	root   uint64 // PA of the level-0 table (TTBR_ELx.BADDR)
	// upper: this tree serves VAs with bits [63:48] all ones (TTBR1, the
	// kernel's half); otherwise all zeros (TTBR0, or an IOMMU domain).
	upper bool
	// gen counts removals of table descriptors. Invariant: a walk cache
	// or cursor filled at another gen may hold a freed table's address.
	gen uint64
	cur cursor
	lk  lookup   // reused by software lookups
	st  step     // reused by software descents
	mp  mapper   // reused by mapRun
	um  unmapper // reused by Unmap
	lf  Leaf     // the leaf eachLeaf shows from a level-3 table's frame
	// Progress, if set, is called with the pages done since its last call
	// in a call of MapPages (between physically contiguous runs) or Unmap,
	// every progressPages pages or so (so a
	// simulation can give way during a long vmap or vunmap). It must not
	// use the table.
	Progress func(pages int)
}

// progressPages is how often MapPages and Unmap call Progress.
const progressPages = 4096

// cursor remembers the tables the last software descent went through, so
// mapping a range resumes in the same level-3 table instead of reading
// the upper levels again for every page (as vmap_pte_range does).
type cursor struct {
	va    uint64
	depth int // table[1..depth] are valid for va's prefix
	table [Levels]uint64
	gen   uint64
}

// NewPageTable allocates an empty level-0 table from b. port prices
// descriptor accesses of mapping changes (nil: Memory, no cost).
func NewPageTable(name string, m *Memory, b *mem.Buddy, port Port, upper bool) (*PageTable, error) {
	if m == nil || b == nil {
		return nil, fmt.Errorf("%s: page table needs a descriptor memory and a buddy allocator", name)
	}
	if port == nil {
		port = m
	}
	t := &PageTable{name: name, mem: m, port: port, direct: port == Port(m), buddy: b, upper: upper}
	root, err := t.allocTable()
	if err != nil {
		return nil, err
	}
	t.root = root
	return t, nil
}

// Name returns the table's name.
func (t *PageTable) Name() string { return t.name }

// Root returns the physical address of the level-0 table.
func (t *PageTable) Root() uint64 { return t.root }

// Gen returns the table-removal generation (see the Invariant on gen).
func (t *PageTable) Gen() uint64 { return t.gen }

// inRange reports whether va belongs to this tree's half of the VA space.
func (t *PageTable) inRange(va uint64) bool {
	if t.upper {
		return va>>VABits == 0xffff
	}
	return va>>VABits == 0
}

func (t *PageTable) allocTable() (uint64, error) {
	c, err := t.buddy.Alloc(0)
	if err != nil {
		return 0, fmt.Errorf("%s: no frame for a page table: %v", t.name, err)
	}
	t.mem.addTable(c.PA())
	return c.PA(), nil
}

// step is what the descent shows a visitor at one level.
type step struct {
	va       uint64
	level    int
	descAddr uint64
	desc     uint64
	cached   bool     // from a walk cache, not read through the port
	cost     sim.Time // time of this level's read
	reads    int      // descriptor reads so far in this descent
}

type action uint8

const (
	stop action = iota
	descendTable
)

// visitor decides, at each level, what happens to the descriptor there.
// It may replace s.desc (writing it) before asking to descend.
type visitor interface {
	visit(s *step) action
}

// descend is the one walk: starting with the level-lvl table at table, it
// reads va's descriptor at each level through port and shows it to v,
// going down while v asks to and the descriptor is a table. It returns
// the time of the reads.
func descend(port Port, va uint64, lvl int, table uint64, v visitor, s *step) sim.Time {
	var cost sim.Time
	for ; lvl < Levels; lvl++ {
		s.level, s.descAddr, s.cached = lvl, table+slot(va, lvl)*8, false
		d, c := port.Read64(s.descAddr)
		s.desc, s.cost, s.reads, cost = d, c, s.reads+1, cost+c
		if v.visit(s) == stop || KindOf(s.desc, lvl) != Table {
			return cost
		}
		table = s.desc & oaMask
	}
	return cost
}

// start returns where a software descent for va can begin: the deepest
// table, at most at level limit, that the cursor holds for va's prefix,
// or the root. (A map of a block stops above the level-3 table it may
// replace, so it passes its leaf level as limit.)
func (t *PageTable) start(va uint64, limit int) (int, uint64) {
	c := &t.cur
	if c.gen == t.gen {
		for l := min(c.depth, limit); l >= 1; l-- {
			if va>>levelShift(l-1) == c.va>>levelShift(l-1) {
				return l, c.table[l]
			}
		}
	}
	return 0, t.root
}

// note records that the descent for s.va goes from s.level into the table
// s.desc points to.
func (t *PageTable) note(s *step) {
	c := &t.cur
	c.va, c.gen = s.va, t.gen
	c.depth = s.level + 1
	c.table[s.level+1] = s.desc & oaMask
}

// lookup is the visitor of a translation: it descends through tables and
// stops at the leaf, or at the invalid descriptor it records as a fault.
type lookup struct {
	leaf  Leaf
	fault Fault
	ok    bool
	soft  *PageTable // set for software lookups, which move the cursor
}

func (l *lookup) visit(s *step) action {
	switch KindOf(s.desc, s.level) {
	case Table:
		if l.soft != nil {
			l.soft.note(s)
		}
		return descendTable
	case Block, Page:
		l.leaf, l.ok = leafOf(s.va, s.desc, s.level), true
		return stop
	}
	l.ok = false
	l.fault = Fault{VA: s.va, Level: s.level, DescAddr: s.descAddr, Desc: s.desc}
	return stop
}

// Lookup translates va by reading the tables directly (no port, no cost):
// what software (the kernel, a test) sees. A miss is a *Fault.
func (t *PageTable) Lookup(va uint64) (Leaf, error) {
	if !t.inRange(va) {
		return Leaf{}, &Fault{VA: va, Range: true}
	}
	l := t.softLookup(va, false)
	if !l.ok {
		f := l.fault
		return Leaf{}, &f
	}
	return l.leaf, nil
}

// softLookup walks va straight from Memory, from the root or (resume)
// from the cursor. Precondition: t.inRange(va).
func (t *PageTable) softLookup(va uint64, resume bool) *lookup {
	l := &t.lk
	// Field by field: zeroing a struct that holds a pointer costs a write
	// barrier on the whole struct while the collector runs (WASM).
	l.leaf, l.fault, l.ok, l.soft = Leaf{}, Fault{}, false, t
	s := &t.st
	*s = step{va: va}
	lvl, table := 0, t.root
	if resume {
		lvl, table = t.start(va, Levels-1)
	}
	descend(t.mem, va, lvl, table, l, s)
	return l
}

// Leaves lists the leaf mappings that overlap [va, va+bytes), in VA order:
// a contiguous run of 16 PTEs is one 64 KiB row, a block one row.
func (t *PageTable) Leaves(va, bytes uint64) []Leaf {
	var out []Leaf
	t.eachLeaf(va, bytes, func(l *Leaf) bool { out = append(out, *l); return true })
	return out
}

// EachLeaf calls fn for each leaf overlapping [va, va+bytes) in VA order
// until fn returns false, skipping holes (what Leaves lists, without the
// list). fn must not change the table, nor keep l past the call (it is
// the table's own storage: in Go's WASM port passing a Leaf by value is
// a memory.copy call per page).
func (t *PageTable) EachLeaf(va, bytes uint64, fn func(l *Leaf) bool) { t.eachLeaf(va, bytes, fn) }

// eachLeaf calls fn for each leaf overlapping [va, va+bytes) in VA order
// until fn returns false, skipping holes a whole invalid descriptor at a
// time. After a descent that ends in a level-3 table, the rest of that
// table is read straight from its frame (the levels above it are the
// same), as the kernel's pte loops do.
func (t *PageTable) eachLeaf(va, bytes uint64, fn func(*Leaf) bool) {
	for off := uint64(0); off < bytes; {
		a := va + off
		if !t.inRange(a) {
			return
		}
		var next uint64
		l := t.softLookup(a, true)
		level, descAddr := t.st.level, t.st.descAddr
		if l.ok {
			if !fn(&l.leaf) {
				return
			}
			next = l.leaf.VA + l.leaf.Bytes
		} else {
			span := uint64(1) << levelShift(l.fault.Level)
			next = a&^(span-1) + span
		}
		if next <= a { // the top of the address space
			return
		}
		tableEnd := off - a&(1<<levelShift(2)-1) + 1<<levelShift(2) // offset where a's level-3 table ends
		off += next - a
		if level != Levels-1 {
			continue
		}
		f := t.mem.frame(descAddr)
		for f != nil && off < bytes && off < tableEnd {
			b := va + off
			d := f[slot(b, Levels-1)]
			if KindOf(d, Levels-1) != Page {
				off += PageSize - b&(PageSize-1)
				continue
			}
			lf := &t.lf
			setLeaf(lf, b, d, Levels-1)
			if !fn(lf) {
				return
			}
			off += lf.VA + lf.Bytes - b
		}
	}
}

// emptyTable reports whether the table at pa (level l) maps nothing: every
// descriptor invalid or a table that is itself empty.
func (t *PageTable) emptyTable(pa uint64, l int) bool {
	for i := uint64(0); i < tableSlots; i++ {
		d, _ := t.mem.Read64(pa + i*8)
		switch KindOf(d, l) {
		case Invalid:
		case Table:
			if !t.emptyTable(d&oaMask, l+1) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// freeTree returns the empty table at pa (level l) and the tables below
// it to the buddy allocator (pmd_free_pte_page, pud_free_pmd_page).
func (t *PageTable) freeTree(pa uint64, l int) {
	for i := uint64(0); i < tableSlots; i++ {
		if d, _ := t.mem.Read64(pa + i*8); KindOf(d, l) == Table {
			t.freeTree(d&oaMask, l+1)
		}
	}
	t.mem.dropTable(pa)
	_ = t.buddy.Free(mem.Chunk{PFN: pa >> PageShift})
	t.gen++
}
