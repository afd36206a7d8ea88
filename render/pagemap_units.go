package render

import (
	"slices"
	"sort"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
)

// paUnit is a piece of the page-mapping view's physical strip.
type paUnit struct {
	pa, bytes, va uint64
	class         int
	chunk         int
	// from is when the unit's mapping exists (class is -1 before it, and
	// a mapping's unit is not drawn before it); kind is its leaf class.
	from  sim.Time
	kind  int
	whole bool // a chunk's unit: drawn at any time
}

// pmSorted is a side's units in physical order for one window of one
// translation record, kept between frames: the order does not depend on
// the cursor, and sorting up to MaxMappings units every frame cost most
// of a frame in WebAssembly.
type pmSorted struct {
	tr     *scenario.Translation
	lo, hi uint64
	buf    string
	units  []paUnit
}

// maxLinks caps the lines joining the strips.
const maxLinks = 64

// pmUnitsOf returns the window's units in physical order (cached per side).
func (st *Stage) pmUnitsOf(side uint8, tr *scenario.Translation, win pmWindow) []paUnit {
	c := &st.pmCache[side&1]
	if c.tr == tr && c.lo == win.lo && c.hi == win.hi && c.buf == win.buf {
		return c.units
	}
	units := c.units[:0]
	// Chunks place the frames when all of them are recorded; past
	// MaxChunks the mappings do (every page, in PA order).
	if len(tr.Chunks) > 0 && tr.DroppedChunks == 0 {
		c0 := sort.Search(len(tr.Chunks), func(i int) bool { return tr.Chunks[i].VA+tr.Chunks[i].Bytes() > win.lo })
		for c := c0; c < len(tr.Chunks) && tr.Chunks[c].VA < win.hi; c++ {
			ch := &tr.Chunks[c]
			a, e := max(ch.VA, win.lo), min(ch.VA+ch.Bytes(), win.hi)
			u := paUnit{pa: ch.PA + (a - ch.VA), bytes: e - a, va: a, chunk: c, kind: -1, whole: true}
			if k := tr.MappingAt(a); k >= 0 {
				u.from, u.kind = tr.Mappings[k].T, leafClass(tr.Mappings[k].Leaf)
			}
			units = append(units, u)
		}
	} else {
		i0 := sort.Search(len(tr.Mappings), func(i int) bool { return tr.Mappings[i].VA+tr.Mappings[i].Bytes > win.lo })
		for i := i0; i < len(tr.Mappings) && tr.Mappings[i].VA < win.hi; i++ {
			m := &tr.Mappings[i]
			if m.Buffer != win.buf {
				continue
			}
			a, e := max(m.VA, win.lo), min(m.VA+m.Bytes, win.hi)
			units = append(units, paUnit{pa: m.PA + (a - m.VA), bytes: e - a, va: a, chunk: -1, from: m.T, kind: leafClass(m.Leaf)})
		}
	}
	byPA := func(a, b paUnit) int { // by PA, then VA (written out: the page's code is not inlined)
		switch {
		case a.pa < b.pa:
			return -1
		case a.pa > b.pa:
			return 1
		case a.va < b.va:
			return -1
		case a.va > b.va:
			return 1
		}
		return 0
	}
	if !slices.IsSortedFunc(units, byPA) {
		slices.SortFunc(units, byPA) // units have distinct VAs: one order
	}
	*c = pmSorted{tr: tr, lo: win.lo, hi: win.hi, buf: win.buf, units: units}
	return units
}
