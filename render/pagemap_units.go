package render

import (
	"sort"

	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// paUnit is a piece of the page-mapping view's physical strip.
type paUnit struct {
	pa, bytes, va uint64
	// from is when the unit's mapping exists (a mapping's unit is not
	// drawn before it, a chunk's is drawn unmapped); kind is its leaf
	// class (-1: no mapping).
	from  sim.Time
	chunk int32
	kind  int32
	whole bool // a chunk's unit: drawn at any time
	// scattered: a merged run of mappings (past MaxMappings) whose pages
	// are not all at pa; the view draws no line for it.
	scattered bool
}

// pmSorted is a side's units in physical order for one window of one
// translation record, kept between frames: the order does not depend on
// the cursor, and sorting up to MaxMappings units every frame cost most
// of a frame in WebAssembly.
type pmSorted struct {
	tr     *timeline.Translation
	lo, hi uint64
	buf    string
	units  []paUnit
	// The sort's scratch, kept for the next window: the units in VA
	// order and the keys.
	raw  []paUnit
	keys []paKey
}

// maxLinks caps the lines joining the strips.
const maxLinks = 64

// unitsOf returns the window's units in physical order (kept from the
// last frame, or taken from what Prepare did for new results).
func (v *pageMapView) unitsOf(tr *timeline.Translation) []paUnit {
	c, win := &v.units, v.win
	if c.matches(tr, win) {
		return c.units
	}
	if p, ok := takePrepared(tr, win); ok {
		*c = p
		return c.units
	}
	c.fill(tr, win)
	return c.units
}

func (c *pmSorted) matches(tr *timeline.Translation, win pmWindow) bool {
	return c.tr == tr && c.lo == win.lo && c.hi == win.hi && c.buf == win.buf
}

// fill builds the window's units in physical order, reusing c's slices.
func (c *pmSorted) fill(tr *timeline.Translation, win pmWindow) {
	// Chunks place the frames when all of them are recorded; past
	// MaxChunks the mappings do (every page, in PA order). The units are
	// built in VA order into a slice sized once.
	units := c.raw[:0]
	if len(tr.Chunks) > 0 && tr.DroppedChunks == 0 {
		c0 := sort.Search(len(tr.Chunks), func(i int) bool { return tr.Chunks[i].VA+tr.Chunks[i].Bytes() > win.lo })
		c1 := sort.Search(len(tr.Chunks), func(i int) bool { return tr.Chunks[i].VA >= win.hi })
		units = grow(units, max(c1-c0, 0))
		for c := c0; c < c1; c++ {
			ch := &tr.Chunks[c]
			a, e := max(ch.VA, win.lo), min(ch.VA+ch.Bytes(), win.hi)
			u := paUnit{pa: ch.PA + (a - ch.VA), bytes: e - a, va: a, chunk: int32(c), kind: -1, whole: true}
			if k := tr.MappingAt(a); k >= 0 {
				u.from, u.kind = tr.Mappings[k].T, int32(leafClass(tr.Mappings[k].Leaf))
			}
			units = append(units, u)
		}
	} else {
		i0 := sort.Search(len(tr.Mappings), func(i int) bool { return tr.Mappings[i].VA+tr.Mappings[i].Bytes > win.lo })
		i1 := sort.Search(len(tr.Mappings), func(i int) bool { return tr.Mappings[i].VA >= win.hi })
		units = grow(units, max(i1-i0, 0))
		for i := i0; i < i1; i++ {
			m := &tr.Mappings[i]
			if m.Buffer != win.buf {
				continue
			}
			a, e := max(m.VA, win.lo), min(m.VA+m.Bytes, win.hi)
			units = append(units, paUnit{pa: m.PA + (a - m.VA), bytes: e - a, va: a, chunk: -1, from: m.T, kind: int32(leafClass(m.Leaf)), scattered: m.Scattered})
		}
	}
	sorted, raw := sortByPA(units, c.units, &c.keys)
	*c = pmSorted{tr: tr, lo: win.lo, hi: win.hi, buf: win.buf, units: sorted, raw: raw, keys: c.keys}
}

// grow returns s (empty) with room for n units, reusing its array when it
// is large enough.
func grow(s []paUnit, n int) []paUnit {
	if cap(s) < n {
		return make([]paUnit, 0, n)
	}
	return s[:0]
}

// paKey is a unit's physical address and its index, for the sort.
type paKey struct {
	pa uint64
	i  uint32
}

// sortByPA returns units, given in VA order, in (PA, VA) order, and the
// other buffer for reuse: when they are not in PA order already, a stable
// least-significant-digit radix sort of their physical addresses (11 bits
// a pass, over the bits in which they differ) orders their keys and dst
// takes the units in that order. It makes no comparison calls: sorting
// 262144 pages with a comparison function took about a frame and a half
// in the page, whose code is not inlined.
func sortByPA(units, dst []paUnit, keys *[]paKey) (sorted, spare []paUnit) {
	n := len(units)
	inOrder := true
	var diff uint64
	for i := 1; i < n; i++ {
		if units[i].pa < units[i-1].pa {
			inOrder = false
		}
		diff |= units[i].pa ^ units[0].pa
	}
	if inOrder {
		return units, dst
	}
	if cap(*keys) < 2*n {
		*keys = make([]paKey, 2*n)
	}
	a, b := (*keys)[:n], (*keys)[n:2*n]
	for i := range units {
		a[i] = paKey{pa: units[i].pa, i: uint32(i)}
	}
	const bits = 11
	var count [1 << bits]int
	for shift := uint(0); shift < 64 && diff>>shift != 0; shift += bits {
		count = [1 << bits]int{}
		for i := range a {
			count[(a[i].pa>>shift)&(1<<bits-1)]++
		}
		sum := 0
		for d := range count {
			sum, count[d] = sum+count[d], sum
		}
		for i := range a {
			d := (a[i].pa >> shift) & (1<<bits - 1)
			b[count[d]] = a[i]
			count[d]++
		}
		a, b = b, a
	}
	dst = grow(dst, n)[:n]
	for i := range a {
		dst[i] = units[a[i].i]
	}
	return dst, units
}
