package cache

import "math/bits"

// Lookup and Claim are the per-access calls of the machine's hot path:
// one pass over the set each, Claim also filling on a miss,
// because calls, not the work inside them, dominate the cost of simulating
// a line (notably as WebAssembly). They do what Probe+Touch and
// Victim+Install do.

// Lookup returns the entry holding line, or -1, and marks a hit used.
func (c *Cache) Lookup(line uint64) int {
	if c.absent(line) {
		return -1
	}
	set := int(line & c.setMask)
	base := set * c.ways
	if h := int(c.recent[line%uint64(len(c.recent))]); c.tags[h] == line+1 {
		c.Repl.Touch(set, h-base)
		return h
	}
	if e := c.hit(set, line, c.pattern(line)); e >= 0 {
		c.Repl.Touch(set, e-base)
		return e
	}
	return -1
}

// Claim looks line up and, on a miss, takes an entry for it at once: the
// first invalid way of its set or the policy's victim, tagged with line,
// marked used and with a zero payload that the caller fills in once the
// data's ready time and version are known (nothing may use this cache in
// between; fetching from the levels below is fine). A hit is marked used
// only when touch is set (a prefetcher's probe is not a use). It returns
// the entry and whether line was already there; after a miss, Evicted
// says what the entry held.
func (c *Cache) Claim(line uint64, touch bool) (int, bool) {
	// Fields used more than once are read into locals once: stores
	// through c would otherwise make the compiler reload them.
	tags, r, ways := c.tags, &c.Repl, c.ways
	set := int(line & c.setMask)
	base := set * ways
	k := line + 1
	hint := line % uint64(len(c.recent))
	if h := int(c.recent[hint]); touch && tags[h] == k {
		r.Touch(set, h-base)
		return h, true
	}
	pat := c.pattern(line)
	// The set walk of hit, written out: this is the machine's most
	// frequent call.
	words := c.words[set*c.wps : set*c.wps+c.wps]
	for wi, w := range words {
		x := w ^ pat
		for m := (x - laneOnes) &^ x & laneHigh; m != 0; m &= m - 1 {
			if way := wi<<2 + bits.TrailingZeros64(m)>>4; way < ways && tags[base+way] == k {
				if touch {
					r.Touch(set, way)
				}
				return base + way, true
			}
		}
	}
	var way int
	switch {
	case int(c.valid[set]) < ways: // the lowest invalid way
		for wi, w := range words {
			// The lowest zero lane is exact; padding lanes are never zero.
			if z := (w - laneOnes) &^ w & laneHigh; z != 0 {
				way = wi<<2 + bits.TrailingZeros64(z)>>4
				break
			}
		}
		c.valid[set]++
	case r.policy == PLRU: // the tree walk of Replacer.Victim, inline (a full set: the common fill)
		t := r.tree[set]
		node := int(r.top[t>>1&127])
		for node < ways {
			node = 2*node + int(t>>(node&63)&1) // (node < ways <= 64; &63: no shift-overflow check)
		}
		way = node - ways
	default:
		way = r.Victim(set)
	}
	r.Touch(set, way)
	e := base + way
	// Field by field: a struct copy here goes through the stack and
	// stalls on store forwarding.
	ev, om := &c.Evicted, &c.Meta[e]
	if t := tags[e]; t != 0 {
		ev.Line, ev.Valid, ev.Dirty, ev.Ver = t-1, true, om.Dirty, om.Ver
		c.remove(t - 1)
	} else {
		ev.Line, ev.Valid, ev.Dirty, ev.Ver = 0, false, false, 0
	}
	ev.Entry = e
	tags[e] = k
	c.add(line)
	c.recent[hint] = int32(e)
	// setLane on the set's words already in hand; pat's low lane is the
	// partial tag.
	sh := uint(way&3) * 16
	words[way>>2] = words[way>>2]&^(0xffff<<sh) | pat&0xffff<<sh
	om.Ready, om.Ver, om.Dirty = 0, 0, false
	return e, false
}

// Recent is Claim's hit through the recent hint alone, small enough to
// inline, for PLRU: the entry of line, marked used, when the last fill of
// a line with its low bits took it and it still holds line; else -1
// (Claim decides).
func (c *Cache) Recent(line uint64) int {
	h := int(c.recent[line%uint64(len(c.recent))])
	if r := &c.Repl; r.policy == PLRU && c.tags[h] == line+1 {
		set, way := line&c.setMask, h&(c.ways-1)&63 // PLRU ways: a power of two
		r.tree[set] = (r.tree[set] | r.setBits[way]) &^ r.clrBits[way]
		return h
	}
	return -1
}
