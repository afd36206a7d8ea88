package mmu

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/sim"
)

// WalkCacheConfig sizes the walk cache of one level: Entries table
// descriptors in Entries/Ways sets (Entries 0: no walk cache there).
type WalkCacheConfig struct {
	Entries, Ways int
}

// Config is a walker's hardware. WalkCache[l] caches the table
// descriptors read at level l (l = 0, 1, 2), keyed by the VA bits that
// select them; a hit at level l lets the walk start at level l+1. Presets
// set the sizes from the core's manual; the default has none.
type Config struct {
	WalkCache [3]WalkCacheConfig
}

// DefaultConfig returns a walker without walk caches.
func DefaultConfig() Config { return Config{} }

// Validate checks every walk-cache size; the error names the level's
// cache as the board does ("l1.entries": level 1's).
func (c Config) Validate() error {
	for l, w := range c.WalkCache {
		if w.Entries == 0 {
			continue
		}
		if w.Entries < 0 || w.Entries > 4096 {
			return fmt.Errorf("l%d.entries: %d is out of range; allowed 0..4096", l, w.Entries)
		}
		if w.Ways < 1 || w.Ways > w.Entries || w.Entries%w.Ways != 0 {
			return fmt.Errorf("l%d.ways: %d does not divide the %d entries; allowed a divisor giving a power-of-two number of sets", l, w.Ways, w.Entries)
		}
		if sets := w.Entries / w.Ways; sets&(sets-1) != 0 {
			return fmt.Errorf("l%d.ways: %d gives %d sets, not a power of two; allowed a divisor of the %d entries giving a power of two", l, w.Ways, sets, w.Entries)
		}
	}
	return nil
}

// walkCache is one level's cache of table descriptors on cache.Array
// (the one set walk of caches and TLBs), LRU; addr and desc are the
// payload of each entry. The zero value (no array) caches nothing.
type walkCache struct {
	arr  *cache.Array
	addr []uint64 // where the descriptor was read
	desc []uint64
}

func newWalkCache(level int, c WalkCacheConfig) (walkCache, error) {
	if c.Entries == 0 {
		return walkCache{}, nil
	}
	a, err := cache.NewArray(fmt.Sprintf("walk_cache[%d]", level), c.Entries/c.Ways, c.Ways, cache.LRU, nil)
	if err != nil {
		return walkCache{}, err
	}
	return walkCache{arr: a, addr: make([]uint64, c.Entries), desc: make([]uint64, c.Entries)}, nil
}

// fill puts key in its set, evicting the least recently used way.
func (c *walkCache) fill(key, addr, desc uint64) {
	if c.arr == nil {
		return
	}
	e, _, _, _ := c.arr.Claim(key, true)
	c.addr[e], c.desc[e] = addr, desc
}

func (c *walkCache) clear() {
	if c.arr == nil {
		return
	}
	for e := 0; e < c.arr.Entries(); e++ {
		if _, ok := c.arr.Key(e); ok {
			c.arr.Invalidate(e)
		}
	}
}

// WalkStats counts what a walker did.
type WalkStats struct {
	Walks, Faults uint64
	Reads         uint64    // descriptor reads through the port
	CacheHits     [3]uint64 // walks that started below level l thanks to walk cache l
	Cost          sim.Time
}

// Step is one level of a traced walk, for the view.
type Step struct {
	Level    int
	DescAddr uint64
	Desc     uint64
	Kind     Kind
	// WalkCache: the descriptor came from the walk cache (no read, no cost).
	WalkCache bool
	Cost      sim.Time
}

// Result is one walk's outcome: a Leaf, or a Fault when !OK.
type Result struct {
	Leaf  Leaf
	Fault Fault
	OK    bool
	Reads int // descriptor reads this walk made
	Cost  sim.Time
}

// Walker is the hardware table walker of one requester (a core's MMU, an
// SMMU's TCU) over one PageTable, with its walk caches. Descriptor reads go
// through its Port.
type Walker struct {
	pt   *PageTable
	port Port
	wc   [3]walkCache
	gen  uint64 // pt.gen the walk caches were filled at
	// Stats is changed by every walk.
	Stats WalkStats
	hw    hwVisitor
	tr    tracer
	s     step
}

// NewWalker returns a walker of pt reading descriptors through port (nil:
// straight from pt's Memory, no cost).
func NewWalker(cfg Config, pt *PageTable, port Port) (*Walker, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if pt == nil {
		return nil, fmt.Errorf("walker: no page table")
	}
	if port == nil {
		port = pt.mem
	}
	w := &Walker{pt: pt, port: port, gen: pt.gen}
	for l := range w.wc {
		c, err := newWalkCache(l, cfg.WalkCache[l])
		if err != nil {
			return nil, err
		}
		w.wc[l] = c
	}
	w.hw.w = w
	w.tr.inner = &w.hw
	return w, nil
}

// Invalidate empties the walk caches (what TLBI VMALLE1 does to them).
func (w *Walker) Invalidate() {
	for l := range w.wc {
		w.wc[l].clear()
	}
}

// hwVisitor is the hardware walk's visitor: a lookup that fills the walk
// caches with the table descriptors it reads.
type hwVisitor struct {
	w  *Walker
	lk lookup
}

func (h *hwVisitor) visit(s *step) action {
	a := h.lk.visit(s)
	if a == descendTable && !s.cached && s.level < 3 {
		h.w.wc[s.level].fill(s.va>>levelShift(s.level), s.descAddr, s.desc)
	}
	return a
}

// tracer is a visitor that records every level it is shown, then lets
// inner decide.
type tracer struct {
	inner visitor
	steps []Step
}

func (t *tracer) visit(s *step) action {
	t.steps = append(t.steps, Step{Level: s.level, DescAddr: s.descAddr, Desc: s.desc,
		Kind: KindOf(s.desc, s.level), WalkCache: s.cached, Cost: s.cost})
	return t.inner.visit(s)
}

// Walk translates va as the hardware does: it starts below the deepest
// walk-cache hit (or at the root) and reads one descriptor per level
// through the port until a leaf or an invalid descriptor.
func (w *Walker) Walk(va uint64) Result { return w.run(va, &w.hw) }

// LeafAddr is where the last walk read its last descriptor (the leaf's,
// when the walk succeeded).
func (w *Walker) LeafAddr() uint64 { return w.s.descAddr }

// Trace walks va like Walk and appends each level it saw to steps.
func (w *Walker) Trace(va uint64, steps []Step) (Result, []Step) {
	w.tr.steps = steps
	r := w.run(va, &w.tr)
	steps, w.tr.steps = w.tr.steps, nil
	return r, steps
}

// traceWalk is Trace without the Result (see walk).
func (w *Walker) traceWalk(va uint64, steps []Step) (sim.Time, []Step) {
	w.tr.steps = steps
	cost, _ := w.walk(va, &w.tr)
	steps, w.tr.steps = w.tr.steps, nil
	return cost, steps
}

func (w *Walker) run(va uint64, v visitor) Result {
	cost, reads := w.walk(va, v)
	lk := &w.hw.lk
	if lk.ok {
		return Result{Leaf: lk.leaf, OK: true, Reads: reads, Cost: cost}
	}
	return Result{Fault: lk.fault, Reads: reads, Cost: cost}
}

// walk is run without the Result: the leaf (w.hw.lk.leaf, when
// w.hw.lk.ok) or the fault (w.hw.lk.fault) stays in the walker, read in
// place by the caller before the next walk. Of the two only the one ok
// names is current (the other is a former walk's). In Go's WASM port a
// struct copy bigger than 16 bytes is a call, and this is the walker of
// every TLB miss.
func (w *Walker) walk(va uint64, v visitor) (sim.Time, int) {
	w.Stats.Walks++
	if w.gen != w.pt.gen { // a table was freed: cached table pointers may be stale
		w.Invalidate()
		w.gen = w.pt.gen
	}
	lk := &w.hw.lk // hw.lk.soft stays nil
	if !w.pt.inRange(va) {
		w.Stats.Faults++
		lk.ok = false
		lk.fault = Fault{VA: va, Range: true}
		return 0, 0
	}
	lvl, table := 0, w.pt.root
	s := &w.s
	// Field by field (WASM: no memory.fill of the whole step).
	s.va, s.level, s.descAddr, s.desc, s.cached, s.cost, s.reads = va, 0, 0, 0, false, 0, 0
	lk.ok = false
	hw := v == visitor(&w.hw)
	for l := 2; l >= 0; l-- {
		c := &w.wc[l]
		if c.arr == nil { // no walk cache at this level
			continue
		}
		e := c.arr.Find(va >> levelShift(l))
		if e < 0 {
			continue
		}
		c.arr.Touch(e)
		w.Stats.CacheHits[l]++
		s.level, s.descAddr, s.desc, s.cached, s.cost = l, c.addr[e], c.desc[e], true, 0
		if !hw { // the hardware visitor does nothing with a cached table descriptor
			v.visit(s)
		}
		lvl, table = l+1, s.desc&oaMask
		break
	}
	var cost sim.Time
	if hw {
		cost = w.descendHW(va, lvl, table, s)
	} else {
		cost = descend(w.port, va, lvl, table, v, s)
	}
	w.Stats.Reads += uint64(s.reads)
	w.Stats.Cost += cost
	if !lk.ok {
		w.Stats.Faults++
	}
	return cost, s.reads
}

// descendHW is descend with the hardware visitor (hwVisitor.visit, its
// lookup's visit) written out: an untraced walk makes no visitor call per
// level. The random-operations test compares its walks with Lookup.
func (w *Walker) descendHW(va uint64, lvl int, table uint64, s *step) sim.Time {
	var cost sim.Time
	lk := &w.hw.lk
	for ; lvl < Levels; lvl++ {
		s.level, s.descAddr, s.cached = lvl, table+slot(va, lvl)*8, false
		d, c := w.port.Read64(s.descAddr)
		s.desc, s.cost, s.reads, cost = d, c, s.reads+1, cost+c
		switch KindOf(d, lvl) {
		case Table:
			if lvl < 3 {
				w.wc[lvl].fill(va>>levelShift(lvl), s.descAddr, d)
			}
			table = d & oaMask
			continue
		case Block, Page:
			setLeaf(&lk.leaf, va, d, lvl)
			lk.ok = true
		default:
			lk.ok = false
			lk.fault = Fault{VA: va, Level: lvl, DescAddr: s.descAddr, Desc: d}
		}
		return cost
	}
	return cost
}
