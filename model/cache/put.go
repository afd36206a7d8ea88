package cache

// Lookup and Claim are the per-access calls of the machine's hot path.
// Both go through the recent hint, then the one set walk (Array.match,
// inlined) and, for Claim, the one victim choice and fill (Array.Claim).

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
	if e := c.match(set*c.wps, base, c.pattern(line), line+1); e >= 0 {
		c.Repl.Touch(set, e-base)
		return e
	}
	return -1
}

// Claim is Array.Claim for a cache: the recent hint first (a prefetched
// line is found without a walk), then the one walk and fill; on a miss the
// entry gets a zero payload that the caller fills in once the data's
// ready time and version are known (nothing may use this cache in
// between; fetching from the levels below is fine), and Evicted says what
// the entry held.
func (c *Cache) Claim(line uint64, touch bool) (int, bool) {
	set := int(line & c.setMask)
	hint := line % uint64(len(c.recent))
	if h := int(c.recent[hint]); touch && c.tags[h] == line+1 {
		c.Repl.Touch(set, h-set*c.ways)
		return h, true
	}
	e, hit, old, evicted := c.Array.Claim(line, touch)
	if hit {
		return e, true
	}
	// Field by field: a struct copy here goes through the stack and
	// stalls on store forwarding.
	ev, om := &c.Evicted, &c.Meta[e]
	if evicted {
		ev.Line, ev.Valid, ev.Dirty, ev.Ver = old, true, om.Dirty, om.Ver
	} else {
		ev.Line, ev.Valid, ev.Dirty, ev.Ver = 0, false, false, 0
	}
	ev.Entry = e
	c.recent[hint] = int32(e)
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
