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
	r := &c.Repl
	e := int(c.recent[line%hintSize])
	if c.tags[e] != line+1 {
		if e = c.match(set*c.wps, base, c.pattern(line), line+1); e < 0 {
			return -1
		}
	}
	switch r.policy { // r.Touch(set, e-base), inlined
	case PLRU:
		r.plruTouch(set, e-base)
	case LRU:
		r.use(int32(e), r.entries+int32(set))
	}
	return e
}

// Claim is Array.Claim for a cache (small enough to inline, so a claim
// is one call): the fill hint first (a prefetched line is found without
// a walk), then the one walk and fill; on a miss the entry gets a zero
// payload that the caller fills in once the data's ready time and
// version are known (nothing may use this cache in between; fetching
// from the levels below is fine), and Evicted says what the entry held.
func (c *Cache) Claim(line uint64, touch bool) (int, bool) {
	e, hit, _, _ := c.Array.Claim(line, touch)
	return e, hit
}

// Recent is Claim's hit through the recent hint alone, small enough to
// inline, for PLRU: the entry of line, marked used, when the last fill of
// a line with its low bits took it and it still holds line; else -1
// (Claim decides).
func (c *Cache) Recent(line uint64) int {
	h := int(c.recent[line%hintSize])
	if r := &c.Repl; r.policy == PLRU && c.tags[h] == line+1 {
		set, way := line&c.setMask, h&(c.ways-1)&63 // PLRU ways: a power of two
		r.tree[set] = (r.tree[set] | r.setBits[way]) &^ r.clrBits[way]
		return h
	}
	return -1
}
