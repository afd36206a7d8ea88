package mmu

import (
	"fmt"
	"math/bits"

	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/sim"
)

// EntrySizes is the set of entry sizes a TLB holds, as a mask of
// log2(bytes): bit 12 is 4 KiB, 16 is 64 KiB (a contiguous run of 16
// PTEs), 20 is 1 MiB, 21 is 2 MiB, 29 is 512 MiB, 30 is 1 GiB. A leaf
// larger than the largest size that fits it is stored as the part of it
// around the translated address (Cortex-A53 splits a 1 GiB block into
// 512 MiB entries; a TLB without 64 KiB entries holds a contiguous run
// as 4 KiB entries).
type EntrySizes uint64

// Sizes returns the mask of the given entry sizes in bytes (powers of two).
func Sizes(bytes ...uint64) EntrySizes {
	var s EntrySizes
	for _, b := range bytes {
		s |= 1 << bits.TrailingZeros64(b)
	}
	return s
}

func (s EntrySizes) String() string {
	out := ""
	for sh := 0; sh < 64; sh++ {
		if s&(1<<sh) == 0 {
			continue
		}
		if out != "" {
			out += "|"
		}
		switch {
		case sh >= 30:
			out += fmt.Sprintf("%dG", 1<<(sh-30))
		case sh >= 20:
			out += fmt.Sprintf("%dM", 1<<(sh-20))
		default:
			out += fmt.Sprintf("%dK", 1<<(sh-10))
		}
	}
	return out
}

// TLBConfig is one TLB's hardware.
type TLBConfig struct {
	// Entries in Entries/Ways sets; Ways == Entries is fully associative.
	Entries, Ways int
	// Sizes are the entry sizes it holds (4 KiB always among them).
	Sizes EntrySizes
	// Hit is the time a lookup that hits adds to the access (0 for an
	// L1 TLB looked up in the load pipeline; an L2 TLB hit is the L1
	// miss penalty).
	Hit sim.Time
	// Coalesce is the number of 4 KiB pages one entry may hold when the
	// PTEs of an aligned four-page VA group map physically consecutive
	// pages, the physical run need not be 16 KiB aligned (as MMU.coalesce
	// fills it). 0: none; 4: the Cortex-A76 L2 TLB, whose entry format has
	// a "coalesced" bit and a valid bit for each of four contiguous pages.
	// A coalesced entry is keyed as a 16 KiB entry and hits only for its
	// valid pages.
	Coalesce int
}

// CoalesceShift is log2 of the span of a four-page coalesced entry.
const CoalesceShift = PageShift + 2

// MaxTLBWays bounds a TLB's set walk, keeping runs bounded (the largest
// modelled TLB, fully associative, has 96 ways).
const MaxTLBWays = 128

// Validate checks the sizes; name prefixes the field in the error.
func (c TLBConfig) Validate(name string) error {
	if c.Entries < 1 || c.Entries > cache.MaxWays {
		return fmt.Errorf("%s.entries: %d is out of range; allowed 1..%d", name, c.Entries, cache.MaxWays)
	}
	if c.Ways > MaxTLBWays {
		return fmt.Errorf("%s.ways: %d is out of range; allowed 1..%d", name, c.Ways, MaxTLBWays)
	}
	if c.Ways < 1 || c.Ways > c.Entries || c.Entries%c.Ways != 0 {
		return fmt.Errorf("%s.ways: %d does not divide the %d entries; allowed a divisor giving a power-of-two number of sets", name, c.Ways, c.Entries)
	}
	if sets := c.Entries / c.Ways; sets&(sets-1) != 0 {
		return fmt.Errorf("%s.ways: %d gives %d sets, not a power of two; allowed a divisor of the %d entries giving a power of two", name, c.Ways, sets, c.Entries)
	}
	if c.Sizes&(1<<PageShift) == 0 || c.Sizes&^EntrySizes((1<<31-1)&^(1<<PageShift-1)) != 0 {
		return fmt.Errorf("%s.sizes: %v; must include 4K and lie in 4K..1G", name, c.Sizes)
	}
	if c.Coalesce != 0 && c.Coalesce != 4 {
		return fmt.Errorf("%s.coalesce: %d; allowed 0 (none) or 4 pages", name, c.Coalesce)
	}
	if c.Hit < 0 || c.Hit > sim.Microsecond {
		return fmt.Errorf("%s.hit: %v is out of range; allowed 0..1us", name, c.Hit)
	}
	return nil
}

// TLBEntry is what one TLB entry holds: the translation of VA..VA+Bytes
// in address space Space (ASID or VMID) and who caused its allocation.
type TLBEntry struct {
	VA, PA, Bytes uint64
	Space         uint16
	// Level is the level of the leaf descriptor it came from.
	Level int8
	// Owner is the requester whose miss allocated it (a hwevent agent id).
	Owner uint8
	Prot  Prot
	// Valid is, for a coalesced entry (Bytes 16 KiB of 4 KiB pages), the
	// mask of its pages that are valid (bit i: page VA+i*4KiB); 0 for an
	// ordinary entry, valid over all its Bytes.
	Valid uint8
}

// Covers reports whether the entry translates va (a coalesced entry only
// for its valid pages). Precondition: va lies in VA..VA+Bytes.
func (e *TLBEntry) Covers(va uint64) bool {
	return e.Valid == 0 || e.Valid&(1<<((va>>PageShift)&3)) != 0
}

// TLBStats counts what a TLB did.
type TLBStats struct {
	Lookups, Hits uint64
	// Refills are allocations (an L1 TLB's l1d_tlb_refill; an L2 TLB is
	// only filled after a walk, so its Refills are l2d_tlb_refill).
	Refills   uint64
	Evictions uint64
}

// TLB is a set-associative translation cache on cache.Array (the one set
// walk of caches and TLBs), LRU. An entry's key is its VA page number at
// its own size, the size, and the address space, so a lookup probes once
// per entry size the TLB currently holds.
type TLB struct {
	Name string
	cfg  TLBConfig
	arr  *cache.Array
	ent  []TLBEntry // payload, indexed like arr
	// held[sh] is the number of valid entries of 2^sh bytes.
	// Invariant: the sum of held is the number of valid entries.
	held [31]int
	// heldMask has bit sh set when held[sh] > 0, so a lookup probes only
	// the sizes held (largest first) without a pass over shifts.
	heldMask uint32
	shifts   []uint8 // supported sizes, largest first
	// sizeOf[lb] is entrySize of a 2^lb-byte leaf (lb 0..30).
	sizeOf [31]uint8
	// gen counts invalidations; a cached translation of an older gen may
	// be gone.
	gen uint64
	// changes counts every change of the entries (fills that allocate and
	// invalidations): equal counts, the same entries.
	changes uint64
	// Stats are changed by every lookup and fill.
	Stats TLBStats
	// tick counts every use that changes what the TLB holds or its LRU
	// order (a hit's touch, a fill, an invalidation); stamp[set] is the
	// tick of the set's last such use (touch), so a caller that remembers
	// the tick can tell which sets were used since (Loop).
	tick  uint64
	stamp []uint64
	// log[tick % tlbLog] is the set of that tick's use, for the last
	// tlbLog ticks (UsedSince).
	log [tlbLog]int32
	// group remembers what the last Lookup found at the coalesced size
	// for groupKey (a coalesced entry of the group or not), so the walk's
	// coalescing that follows a miss asks holdsGroup without a second set
	// walk. Any change of the entries clears groupOK.
	groupKey       uint64
	group, groupOK bool
}

// NewTLB builds an empty TLB.
func NewTLB(name string, c TLBConfig) (*TLB, error) {
	if err := c.Validate(name); err != nil {
		return nil, err
	}
	a, err := cache.NewArray(name, c.Entries/c.Ways, c.Ways, cache.LRU, nil)
	if err != nil {
		return nil, err
	}
	t := &TLB{Name: name, cfg: c, arr: a, ent: make([]TLBEntry, c.Entries), stamp: make([]uint64, c.Entries/c.Ways)}
	for sh := 30; sh >= PageShift; sh-- {
		if c.Sizes&(1<<sh) != 0 || (c.Coalesce > 0 && sh == CoalesceShift) {
			t.shifts = append(t.shifts, uint8(sh))
		}
	}
	for lb := range t.sizeOf {
		t.sizeOf[lb] = PageShift
		for _, sh := range t.shifts {
			if int(sh) <= lb {
				t.sizeOf[lb] = sh
				break
			}
		}
	}
	return t, nil
}

// Config returns the TLB's configuration.
func (t *TLB) Config() TLBConfig { return t.cfg }

// Gen returns the invalidation generation.
func (t *TLB) Gen() uint64 { return t.gen }

// Sets and Ways give the geometry (views lay entries out by them).
func (t *TLB) Sets() int { return t.arr.Sets() }

// Ways returns the associativity.
func (t *TLB) Ways() int { return t.arr.Ways() }

// tlbKey is the key of the 2^sh-byte entry holding va in space: the page
// number in the low bits (so the set index is the page number's low bits),
// then the size and the space above the largest page number.
func tlbKey(space uint16, va uint64, sh uint8) uint64 {
	return (va&vaMask)>>sh | uint64(sh)<<40 | uint64(space)<<46
}

// Lookup returns the entry translating va in space (and marks it used),
// or -1.
func (t *TLB) Lookup(space uint16, va uint64) int {
	t.Stats.Lookups++
	t.groupOK = false
	for m := t.heldMask; m != 0; { // the sizes held, largest first
		sh := uint8(bits.Len32(m) - 1)
		m &^= 1 << sh
		k := tlbKey(space, va, sh)
		e := t.arr.Find(k)
		if e >= 0 && t.ent[e].Covers(va) {
			t.touch(e)
			t.Stats.Hits++
			return e
		}
		if sh == CoalesceShift {
			t.groupKey, t.group, t.groupOK = k, e >= 0 && t.ent[e].Valid != 0, true
		}
	}
	return -1
}

// Changes counts every change of the entries (fills that allocate and
// invalidations): while it stays the same, a lookup finds what it found
// before (LRU state aside).
func (t *TLB) Changes() uint64 { return t.changes }

// Hit is Lookup for a caller that knows the lookup finds entry e (it
// found e for an address that entry translates, and Changes has not moved
// since): counted and touched as Lookup does, without the set walk.
func (t *TLB) Hit(e int) {
	t.Stats.Lookups++
	t.Stats.Hits++
	t.groupOK = false
	t.touch(e)
}

// Entry returns entry e's contents and whether it is valid.
func (t *TLB) Entry(e int) (TLBEntry, bool) {
	if e < 0 || e >= len(t.ent) {
		return TLBEntry{}, false
	}
	_, ok := t.arr.Key(e)
	return t.ent[e], ok
}

// EntryAt is entry e's contents in place, for a caller that holds an e a
// lookup or fill just returned (valid) and only reads it: in Go's WASM
// port Entry's copy of the struct is a memory.copy call.
func (t *TLB) EntryAt(e int) *TLBEntry { return &t.ent[e] }

// entrySize is the size t stores a leaf of leafBytes in: the largest size
// it holds that is no larger.
func (t *TLB) entrySize(leafBytes uint64) uint8 {
	lb := uint8(bits.TrailingZeros64(leafBytes))
	if int(lb) < len(t.sizeOf) {
		return t.sizeOf[lb]
	}
	for _, sh := range t.shifts {
		if sh <= lb {
			return sh
		}
	}
	return PageShift
}

// Fill allocates the entry for va from e (an entry of a larger or equal
// size: a leaf, or an L2 TLB entry) on owner's behalf, in the size t
// holds it at. It returns the entry index and the evicted entry (ok false
// when the way was free or va was already there, which counts no refill).
func (t *TLB) Fill(space uint16, va uint64, from TLBEntry, owner uint8) (e int, victim TLBEntry, evicted bool) {
	e, evicted = t.fill(space, va, &from, owner, &victim)
	return e, victim, evicted
}

// fill is Fill with from by reference, and the victim copied to victim
// only when it is not nil (the translation path does not look at it).
func (t *TLB) fill(space uint16, va uint64, from *TLBEntry, owner uint8, victim *TLBEntry) (int, bool) {
	if from.Valid != 0 && t.cfg.Coalesce == 0 { // a TLB without coalescing holds the page
		pg := va &^ (PageSize - 1)
		page := TLBEntry{VA: pg, PA: from.PA + (pg - from.VA), Bytes: PageSize, Level: from.Level, Prot: from.Prot}
		from = &page
	}
	sh := t.entrySize(from.Bytes)
	if from.Valid != 0 {
		sh = CoalesceShift
	}
	size := uint64(1) << sh
	base := va &^ (size - 1)
	e, hit, old, was := t.arr.Claim(tlbKey(space, va, sh), true)
	t.used(e)
	if hit {
		return e, false
	}
	t.groupOK = false
	t.changes++
	ent := &t.ent[e]
	if was {
		if osh := (old >> 40) & 63; osh < 31 {
			if t.held[osh]--; t.held[osh] == 0 {
				t.heldMask &^= 1 << osh
			}
		}
		if victim != nil {
			*victim = *ent
		}
		t.Stats.Evictions++
	}
	t.held[sh]++
	t.heldMask |= 1 << sh
	t.Stats.Refills++
	// Field by field, from locals (from may be ent itself): in Go's WASM
	// port a struct copy bigger than 16 bytes is a call.
	pa, level, prot, valid := from.PA+(base-from.VA), from.Level, from.Prot, from.Valid
	ent.VA, ent.PA, ent.Bytes, ent.Space, ent.Level, ent.Owner, ent.Prot, ent.Valid = base, pa, size, space, level, owner, prot, valid
	return e, was
}

// holdsGroup reports whether t has a coalesced entry for va's group.
func (t *TLB) holdsGroup(space uint16, va uint64) bool {
	if t.cfg.Coalesce == 0 || t.held[CoalesceShift] == 0 {
		return false
	}
	k := tlbKey(space, va, CoalesceShift)
	if t.groupOK && t.groupKey == k {
		return t.group
	}
	e := t.arr.Find(k)
	return e >= 0 && t.ent[e].Valid != 0
}

// InvalidateAll empties the TLB (TLBI VMALLE1).
func (t *TLB) InvalidateAll() {
	for e := range t.ent {
		if _, ok := t.arr.Key(e); ok {
			t.arr.Invalidate(e)
		}
	}
	t.held = [31]int{}
	t.heldMask = 0
	t.tick++ // every set changed: Gen tells a caller so
	t.gen++
	t.changes++
	t.groupOK = false
}

// InvalidateVA removes every entry of space that translates va (TLBI
// VAE1: whatever its size).
func (t *TLB) InvalidateVA(space uint16, va uint64) {
	for _, sh := range t.shifts {
		if t.held[sh] == 0 {
			continue
		}
		if e := t.arr.Find(tlbKey(space, va, sh)); e >= 0 {
			t.arr.Invalidate(e)
			t.used(e)
			if t.held[sh]--; t.held[sh] == 0 {
				t.heldMask &^= 1 << sh
			}
		}
	}
	t.gen++
	t.changes++
	t.groupOK = false
}

// Entries returns the valid entries with their index, in index order (the
// TLB view's keyframe).
func (t *TLB) Entries() []TLBSlot {
	var out []TLBSlot
	for e := range t.ent {
		if _, ok := t.arr.Key(e); ok {
			out = append(out, TLBSlot{Index: e, TLBEntry: t.ent[e]})
		}
	}
	return out
}

// TLBSlot is a valid entry and where it sits (set = Index / ways).
type TLBSlot struct {
	Index int
	TLBEntry
}
