package cache

import (
	"fmt"
	"math/bits"

	"github.com/dmaviz/dmaviz/model/sim"
)

// Array is the tag store of a set-associative structure: sets x ways keys
// with a valid bit and replacement state. A key is whatever the structure
// caches (a physical line number for a data cache, a page number plus ASID
// for a TLB); the set is key mod sets. Caches and TLBs keep their payload
// (dirty bits, versions, PTE attributes) in their own slices indexed by
// the same entry index.
type Array struct {
	sets, ways int
	setMask    uint64
	waysShift  int // log2(ways) when ways is a power of two, else -1
	// tags[e] is key+1 for a valid entry, 0 for an invalid one.
	// Invariant: 3 zero entries follow the last set's (padding lanes of a
	// way count that is not a multiple of 4 may point there; see match).
	tags []uint64
	// Invariant: valid[s] is the number of non-zero tags in set s, so a
	// fill into a full set (the steady state) skips looking for a free way.
	valid []uint16
	// Invariant: lanes mirrors tags as 16-bit partial tags (see lanes.go).
	lanes
	regions
	Repl Replacer

	// A cache's payload, set by New (nil for a TLB or another structure
	// that keeps its payload itself): Claim's hit through the fill hint,
	// and on a miss the victim's payload (Evicted) and a zero one for the
	// new key, in the same call as the walk.
	meta []Line
	// recent[key % hintSize] is the entry the last fill of a key with
	// those low bits took: a touching Claim checks it before walking the
	// set (a prefetched line is found without a walk).
	// Invariant: every value is a valid entry index (0 initially); it is
	// only a hint: a hit through it is taken only when tags[recent[h]]
	// holds the key, so a stale hint costs a set walk, never a wrong hit.
	recent *[hintSize]int32
	// Evicted is what the last Claim that missed displaced (Valid false
	// when it took an invalid way), kept for a cache (meta set).
	// Invariant: it describes the most recent missing Claim only; the
	// caller reads it before its next Claim on this cache.
	Evicted Victim
	// fills counts the Claims that missed (a key was brought in).
	fills uint64
	// ahead is what lookAhead read; nothing reads it.
	ahead uint64
}

// hintSize is the number of fill hints a cache keeps (Array.recent).
const hintSize = 1024

// MaxWays bounds the associativity: a fully associative structure (one
// set) of up to this many entries, such as a TLB, is one set of MaxWays
// ways.
const MaxWays = 4096

// NewArray returns an empty sets x ways array. sets must be a power of two,
// ways 1..MaxWays (PLRU: a power of two up to 64); LRU and Random take any
// way count.
func NewArray(name string, sets, ways int, p Policy, rng *sim.RNG) (*Array, error) {
	if ways < 1 || ways > MaxWays {
		return nil, fmt.Errorf("%s.ways: %d is out of range; allowed 1..%d", name, ways, MaxWays)
	}
	if sets < 1 || sets > 1<<24 || sets&(sets-1) != 0 {
		return nil, fmt.Errorf("%s.sets: %d is not a power of two in 1..16777216", name, sets)
	}
	r, err := NewReplacer(p, sets, ways, rng)
	if err != nil {
		return nil, fmt.Errorf("%s.%v", name, err)
	}
	a := &Array{sets: sets, ways: ways, setMask: uint64(sets - 1), waysShift: -1, tags: make([]uint64, sets*ways+3), valid: make([]uint16, sets), Repl: r}
	if ways&(ways-1) == 0 {
		a.waysShift = bits.TrailingZeros(uint(ways))
	}
	a.lanes = newLanes(sets, ways)
	a.regions = newRegions(sets * ways)
	return a, nil
}

// Sets returns the number of sets.
func (a *Array) Sets() int { return a.sets }

// Ways returns the associativity.
func (a *Array) Ways() int { return a.ways }

// SetOf returns the set a key maps to.
func (a *Array) SetOf(key uint64) int { return int(key & a.setMask) }

// Find returns the entry holding key, or -1. It does not update
// replacement state (see Touch).
func (a *Array) Find(key uint64) int {
	set := int(key & a.setMask)
	if a.valid[set] == 0 || a.absent(key) { // a cold or invalidated range
		return -1
	}
	return a.match(set*a.wps, set*a.ways, a.pattern(key), key+1)
}

// Absent reports that no entry holds key, from one read of the group
// counts (see regions); false means "maybe": Find decides.
func (a *Array) Absent(key uint64) bool { return a.absent(key) }

// Touch records a use of entry e. Small enough to inline: an LRU entry
// that is its set's most recently used already (a TLB or walk cache hit
// again on the entry it hit last) makes no call.
func (a *Array) Touch(e int) {
	if a.Repl.policy != LRU || a.Repl.lruNext[e] < a.Repl.entries {
		a.touch(e)
	}
}

func (a *Array) touch(e int) {
	if r := &a.Repl; r.policy == LRU { // no division unless it moves
		set, _ := a.split(e)
		r.use(int32(e), r.entries+int32(set))
		return
	}
	if a.waysShift >= 0 {
		a.Repl.Touch(e>>a.waysShift, e&(a.ways-1))
		return
	}
	a.Repl.Touch(e/a.ways, e%a.ways)
}

// freeWay returns the lowest invalid way of set (the caller knows there
// is one: valid[set] < ways).
func (a *Array) freeWay(set int) int {
	for wi, w := range a.words[set*a.wps : set*a.wps+a.wps] {
		// The lowest zero lane is exact; padding lanes are never zero.
		if z := (w - laneOnes) &^ w & laneHigh; z != 0 {
			return wi<<2 + bits.TrailingZeros64(z)>>4
		}
	}
	return 0
}

// match is the set walk: the entry from base holding tag k (a key plus
// one) among the lanes of words [w0, w0+wps) that match pattern pat, or
// -1. A padding lane may match; its entry lies past the set (in the next
// set, or in the tags' padding after the last one) and never holds k.
// Small enough to inline.
func (a *Array) match(w0, base int, pat, k uint64) int {
	for wi, w := range a.words[w0 : w0+a.wps] {
		x := w ^ pat
		for m := (x - laneOnes) &^ x & laneHigh; m != 0; m &= m - 1 {
			if e := base + wi<<2 + bits.TrailingZeros64(m)>>4; a.tags[e] == k {
				return e
			}
		}
	}
	return -1
}

// Claim is the one lookup, victim choice and fill of every
// set-associative structure (caches through Cache.Claim, TLBs directly):
// for a cache, a touching Claim first tries the fill hint (recent); it
// looks key up in its set (match) and, on a miss, fills the lowest
// invalid way, or the replacement policy's victim, with key and marks it
// used. A hit is marked used only when touch is set (a prefetcher's probe
// is not a use). It returns the entry, whether key was already there, and
// on a miss the key the entry held (evicted false when the way was
// invalid). For a cache the miss also records the victim's payload in
// Evicted and gives the entry a zero payload (one call for the whole
// claim: the machine's most frequent one). Find and Lookup are its
// lookup half (match, inlined).
func (a *Array) Claim(key uint64, touch bool) (e int, hit bool, old uint64, evicted bool) {
	// Fields used more than once are read into locals once: stores
	// through a would otherwise make the compiler reload them.
	tags, r, ways, meta := a.tags, &a.Repl, a.ways, a.meta
	set := int(key & a.setMask)
	base := set * ways
	k := key + 1
	hint := key % hintSize
	if meta != nil && touch { // a cache's fill hint
		if h := int(a.recent[hint]); tags[h] == k {
			switch r.policy { // r.Touch(set, h-base), inlined
			case PLRU:
				r.plruTouch(set, h-base)
			case LRU:
				r.use(int32(h), r.entries+int32(set))
			}
			return h, true, 0, false
		}
	}
	pat := a.pattern(key)
	words := a.words[set*a.wps : set*a.wps+a.wps]
	if e := a.match(set*a.wps, base, pat, k); e >= 0 {
		if touch {
			switch r.policy { // r.Touch(set, e-base), inlined
			case PLRU:
				r.plruTouch(set, e-base)
			case LRU:
				r.use(int32(e), r.entries+int32(set))
			}
		}
		return e, true, 0, false
	}
	var way int
	switch {
	case int(a.valid[set]) < ways:
		way = a.freeWay(set)
		a.valid[set]++
	case r.policy == PLRU: // a full set, the common fill: no call
		way = r.plruVictim(set)
	case r.policy == LRU: // r.Victim(set), inlined
		way = int(r.lruNext[r.entries+int32(set)]) - base
	default:
		way = r.Victim(set)
	}
	e = base + way
	switch r.policy { // r.Touch(set, way), inlined
	case PLRU:
		r.plruTouch(set, way)
	case LRU:
		r.use(int32(e), r.entries+int32(set))
	}
	if t := tags[e]; t != 0 {
		old, evicted = t-1, true
		a.remove(old)
	}
	tags[e] = k
	a.add(key)
	a.fills++
	// pat's low lane is the partial tag.
	sh := uint(way&3) * 16
	words[way>>2] = words[way>>2]&^(0xffff<<sh) | pat&0xffff<<sh
	if meta != nil {
		// Field by field: a struct copy here goes through the stack and
		// stalls on store forwarding.
		ev, om := &a.Evicted, &meta[e]
		if evicted {
			ev.Line, ev.Valid, ev.Dirty, ev.Ver = old, true, om.Dirty, om.Ver
		} else {
			ev.Line, ev.Valid, ev.Dirty, ev.Ver = 0, false, false, 0
		}
		ev.Entry = e
		a.recent[hint] = int32(e)
		om.Ready, om.Ver, om.Dirty = 0, 0, false
		if r.next != nil && evicted && set%aheadBatch == 0 {
			a.lookAhead(set)
		}
	}
	return e, false, old, evicted
}

// aheadBatch is how many victims lookAhead reads at once, that many fills
// before they are needed.
const aheadBatch = 8

// lookAhead reads the entries (tag and payload, and the region count the
// victim's eviction will update) that the fills
// aheadBatch..2*aheadBatch-1 after this one would displace if they went
// to the sets after set, as a stream's do (a random policy knows its next
// victims: see Replacer.drawAhead), so that their host cache misses (a
// large cache's arrays are far beyond the host's caches) overlap one
// another and the work until those fills: one wait for aheadBatch fills
// instead of one or two each. Only loads: nothing depends on their values.
func (a *Array) lookAhead(set int) {
	r, tags, meta, ways, mask := &a.Repl, a.tags, a.meta, a.ways, int(a.setMask)
	var x uint64
	for j := aheadBatch - 1; j < 2*aheadBatch-1; j++ {
		e := (set+1+j)&mask*ways + r.next[(r.head+j)%aheadWays]
		t := tags[e]
		x ^= t + uint64(meta[e].Ver) + uint64(a.count[a.bucket(t-1)])
	}
	a.ahead = x
}

// Fills returns how many Claims have missed (keys brought in) so far.
func (a *Array) Fills() uint64 { return a.fills }

// Invalidate clears entry e.
func (a *Array) Invalidate(e int) {
	set, way := a.split(e)
	if t := a.tags[e]; t != 0 {
		a.valid[set]--
		a.remove(t - 1)
	}
	a.tags[e] = 0
	a.setLane(set, way, 0)
	a.Repl.Forget(set, way)
}

// split returns the set and way of entry e.
func (a *Array) split(e int) (set, way int) {
	if a.waysShift >= 0 {
		return e >> a.waysShift, e & (a.ways - 1)
	}
	return e / a.ways, e % a.ways
}

// Key returns the key in entry e and whether the entry is valid.
func (a *Array) Key(e int) (uint64, bool) {
	t := a.tags[e]
	return t - 1, t != 0
}

// Entries returns sets*ways.
func (a *Array) Entries() int { return a.sets * a.ways }

// Warm reads the tags and payload of the n sets from key's (a cache's),
// one load per host cache line, and changes nothing: a caller about to
// look up a run of consecutive keys (cache maintenance over a buffer) in
// a cache far larger than the host's caches lets their host misses
// overlap one another instead of waiting for each lookup's in turn.
func (a *Array) Warm(key uint64, n int) {
	if a.meta == nil {
		return
	}
	tags, meta, ways, mask := a.tags, a.meta, a.ways, int(a.setMask)
	var x uint64
	for j := 0; j < n; j++ {
		base := (int(key) + j) & mask * ways
		for w := 0; w < ways; w += 8 { // 8-byte tags
			x += tags[base+w]
		}
		for w := 0; w < ways; w += 4 { // 16-byte Lines
			x += uint64(meta[base+w].Ver)
		}
	}
	a.ahead = x
}
