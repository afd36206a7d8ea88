// Package cache models set-associative structures: the array of tags with
// its replacement state (shared by data caches and, later, TLBs and the
// SMMU's TLB), write-back caches built on it, and a stride prefetcher.
//
// Everything is flat slices indexed by entry = set*ways + way; no pointers
// between entries, no per-access allocation, no interface calls on the
// lookup path.
package cache

import (
	"fmt"
	"math/bits"

	"github.com/dmaviz/dmaviz/model/sim"
)

// Policy is a replacement policy.
type Policy uint8

const (
	// LRU evicts the least recently used way (a use-ordered list per set).
	LRU Policy = iota
	// PLRU is the binary-tree pseudo-LRU of Arm cores (ways must be a
	// power of two).
	PLRU
	// Random evicts a way drawn from the run's RNG.
	Random
)

var policyNames = [...]string{"lru", "plru", "random"}

func (p Policy) String() string {
	if int(p) < len(policyNames) {
		return policyNames[p]
	}
	return fmt.Sprintf("policy(%d)", uint8(p))
}

// ParsePolicy returns the policy named s ("lru", "plru", "random").
func ParsePolicy(s string) (Policy, error) {
	for i, n := range policyNames {
		if n == s {
			return Policy(i), nil
		}
	}
	return 0, fmt.Errorf("replacement: %q is not one of lru, plru, random", s)
}

// Replacer is the replacement state of a sets x ways structure. It is the
// one tracker every set-associative structure in the model uses.
type Replacer struct {
	policy Policy
	ways   int
	levels int // PLRU tree depth, log2(ways)
	// LRU: per set a circular list of its ways in order of use, least
	// recently used first, through entry indices (set*ways+way); node
	// entries+set is the set's head, so lruNext[head] is the victim and a
	// touch moves an entry before its set's head (to the MRU end). A victim
	// is then one read instead of a scan of every way's use stamp.
	// Invariant: valid ways are ordered by their last use (every fill
	// touches), so the first valid way is the one a use stamp per entry
	// would give as least recently used; Forget puts a way first.
	entries          int32
	lruPrev, lruNext []int32
	tree             []uint64 // PLRU: per set, tree node bits 1..ways-1
	// PLRU: per way, the node bits a use sets and clears (so a touch is
	// two mask operations, not a walk of the tree). Arrays of the largest
	// way count, indexed by way&63, so the touch has no bounds checks.
	setBits, clrBits [64]uint64
	// PLRU: top[bits 1..7 of a set's tree] is the node the victim walk
	// reaches after its first min(levels, 3) steps, so a walk of 16 ways
	// is one table read and one step instead of four dependent steps.
	top [128]uint8
	rng *sim.RNG // Random
	// Random with a structure's own RNG (see drawAhead), else nil:
	// next[(head+j)%aheadWays] is the way the j-th next Victim returns,
	// drawn aheadWays victims early so that a cache can start reading
	// those entries before it is asked for them. The draws, and so the
	// victims, are the same as drawing on demand.
	next *[aheadWays]int
	head int
}

// aheadWays is how many victims Random draws ahead (drawAhead): twice
// the look-ahead's batch (Array.lookAhead).
const aheadWays = 2 * aheadBatch

// drawAhead makes Victim draw aheadWays victims early (Random only; the
// rng must be this structure's alone, or the early draws would reorder the
// draws of its other users).
func (r *Replacer) drawAhead() {
	if r.policy == Random && r.next == nil {
		r.next = new([aheadWays]int)
		for i := range r.next {
			r.next[i] = r.rng.Intn(r.ways)
		}
	}
}

// NewReplacer returns replacement state for sets x ways entries. Random
// needs rng (the run's generator or one split from it).
func NewReplacer(p Policy, sets, ways int, rng *sim.RNG) (Replacer, error) {
	r := Replacer{policy: p, ways: ways}
	switch p {
	case LRU:
		n := sets * ways
		r.entries = int32(n)
		r.lruPrev, r.lruNext = make([]int32, n+sets), make([]int32, n+sets)
		for set := 0; set < sets; set++ {
			h := int32(n + set) // the head; ways 0..ways-1 follow in order
			last := h
			for w := 0; w < ways; w++ {
				e := int32(set*ways + w)
				r.lruNext[last], r.lruPrev[e] = e, last
				last = e
			}
			r.lruNext[last], r.lruPrev[h] = h, last
		}
	case PLRU:
		if ways&(ways-1) != 0 || ways > 64 {
			return r, fmt.Errorf("ways: %d; plru needs a power of two up to 64", ways)
		}
		r.tree = make([]uint64, sets)
		r.levels = bits.Len(uint(ways)) - 1
		for i := range r.top {
			t, node := uint64(i)<<1, 1
			for step := 0; step < min(r.levels, 3); step++ {
				node = 2*node + int(t>>node&1)
			}
			r.top[i] = uint8(node)
		}
		for w := 0; w < ways; w++ {
			node := 1
			for shift := r.levels - 1; shift >= 0; shift-- {
				dir := (w >> shift) & 1
				// Point the node away from the way just used.
				if dir == 0 {
					r.setBits[w] |= 1 << node
				} else {
					r.clrBits[w] |= 1 << node
				}
				node = 2*node + dir
			}
		}
	case Random:
		if rng == nil {
			return r, fmt.Errorf("replacement: random needs the run's RNG")
		}
		r.rng = rng
	default:
		return r, fmt.Errorf("replacement: %v is not one of lru, plru, random", p)
	}
	return r, nil
}

// Policy returns the replacement policy.
func (r *Replacer) Policy() Policy { return r.policy }

// Touch records a use of (set, way).
func (r *Replacer) Touch(set, way int) {
	switch r.policy {
	case LRU:
		r.use(int32(set*r.ways+way), r.entries+int32(set))
	case PLRU:
		r.plruTouch(set, way)
	}
}

// plruTouch is Touch for PLRU. The hot paths (Array.Claim, Cache.Lookup)
// write the switch out as "PLRU: plruTouch, LRU: use" instead of calling
// Touch, which does not inline with the LRU list's move in it.
func (r *Replacer) plruTouch(set, way int) {
	r.tree[set] = (r.tree[set] | r.setBits[way&63]) &^ r.clrBits[way&63]
}

// use moves LRU entry e to the most recently used end of its set's list
// (just before head h, the set's head node).
func (r *Replacer) use(e, h int32) {
	next, prev := r.lruNext, r.lruPrev
	n := next[e]
	if n == h { // already the most recent
		return
	}
	p := prev[e]
	next[p], prev[n] = n, p
	t := prev[h]
	next[t], prev[e] = e, t
	next[e], prev[h] = h, e
}

// Forget marks (set, way) as least recently used (after an invalidation).
// Small enough to inline: only LRU makes a call (a cache's invalidation,
// PLRU or random, makes none, as with use stamps).
func (r *Replacer) Forget(set, way int) {
	if r.policy == LRU {
		r.forgetLRU(set, way)
	}
}

func (r *Replacer) forgetLRU(set, way int) {
	next, prev := r.lruNext, r.lruPrev
	e, h := int32(set*r.ways+way), r.entries+int32(set)
	if prev[e] == h {
		return
	}
	p, n := prev[e], next[e]
	next[p], prev[n] = n, p
	f := next[h]
	next[h], prev[e] = e, h
	next[e], prev[f] = f, e
}

// Victim returns the way of set to replace when every way is valid.
func (r *Replacer) Victim(set int) int {
	switch r.policy {
	case LRU:
		return int(r.lruNext[r.entries+int32(set)]) - set*r.ways
	case PLRU:
		return r.plruVictim(set)
	case Random:
		if r.next != nil {
			h := r.head
			v := r.next[h]
			r.next[h] = r.rng.Intn(r.ways)
			r.head = (h + 1) % aheadWays
			return v
		}
		return r.rng.Intn(r.ways)
	}
	return 0
}

// plruVictim is Victim for PLRU, small enough to inline where a fill
// picks its way (Array.fill): the tree walk from the node that top says
// the first steps reach.
func (r *Replacer) plruVictim(set int) int {
	t := r.tree[set]
	node := int(r.top[t>>1&127])
	for node < r.ways {
		node = 2*node + int(t>>(node&63)&1) // (node < ways <= 64; &63: no shift-overflow check)
	}
	return node - r.ways
}
