package cache

import "math/bits"

// Lookup and Put are the per-access pair the machine's hot path uses: one
// pass over the set to look up, one call to fill. They do exactly what
// Probe+Touch and Victim+Install do, flattened into single calls because
// calls dominate the cost of simulating a line (notably as WebAssembly).

// Lookup probes line and marks a hit used. free is the first invalid
// entry of the set on a miss, or -1 (see Probe).
func (c *Cache) Lookup(line uint64) (hit, free int) {
	set := int(line & c.setMask)
	base := set * c.ways
	k := line + 1
	pat := c.pattern(line)
	free = -1
	for wi, w := range c.words[set*c.wps : set*c.wps+c.wps] {
		x := w ^ pat
		for m := (x - laneOnes) &^ x & laneHigh; m != 0; m &= m - 1 {
			if way := wi<<2 + bits.TrailingZeros64(m)>>4; way < c.ways && c.tags[base+way] == k {
				r := &c.Repl
				switch r.policy {
				case LRU:
					r.clock++
					r.stamp[base+way] = r.clock
				case PLRU:
					r.tree[set] = (r.tree[set] | r.setBits[way]) &^ r.clrBits[way]
				}
				return base + way, -1
			}
		}
		if free < 0 {
			if z := (w - laneOnes) &^ w & laneHigh; z != 0 {
				free = base + wi<<2 + bits.TrailingZeros64(z)>>4
			}
		}
	}
	return -1, free
}

// Put fills line with meta into free (from Lookup/Probe) or, when free is
// -1, into the replacement victim of its set, marks it used and returns the
// entry and what it displaced (valid reports whether there was a line).
func (c *Cache) Put(line uint64, free int, meta Line) (e int, old uint64, oldMeta Line, valid bool) {
	set := int(line & c.setMask)
	e = free
	if e < 0 {
		if r := &c.Repl; r.policy == PLRU { // inline tree walk
			t, node := r.tree[set], 1
			for node < c.ways {
				node = 2*node + int(t>>node&1)
			}
			e = set*c.ways + node - c.ways
		} else {
			e = set*c.ways + c.Repl.Victim(set)
		}
	}
	way := e - set*c.ways
	if t := c.tags[e]; t != 0 {
		old, oldMeta, valid = t-1, c.Meta[e], true
	}
	c.tags[e] = line + 1
	c.setLane(set, way, c.partial(line))
	c.Meta[e] = meta
	r := &c.Repl
	switch r.policy {
	case LRU:
		r.clock++
		r.stamp[e] = r.clock
	case PLRU:
		r.tree[set] = (r.tree[set] | r.setBits[way]) &^ r.clrBits[way]
	}
	return e, old, oldMeta, valid
}
