package render

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// hasTLBs reports whether tl records TLBs (the side then shows the
// page-mapping and TLB views only).
func hasTLBs(tl *timeline.Timeline) bool {
	return tl.Translation != nil && len(tl.Translation.TLBs) > 0
}

// hasMappings reports whether tl records mappings.
func hasMappings(tl *timeline.Timeline) bool {
	return tl.Translation != nil && len(tl.Translation.Mappings) > 0
}

// translationOnly reports whether every side with a result shows the
// translation views only (the stage's legend is then theirs).
func translationOnly(f *Frame) bool {
	n := 0
	for _, sd := range []*Side{&f.A, &f.B} {
		if sd.Result == nil || sd.Result.Timeline == nil {
			continue
		}
		if !hasTLBs(sd.Result.Timeline) {
			return false
		}
		n++
	}
	return n > 0
}

// describeMapping says what the VA range under a RefMapping maps to.
func (v *pageMapView) describeMapping(r Ref) string {
	tr, side, win := v.d.tl.Translation, v.d.name(), v.win
	va := win.base + uint64(r.Index)*4096
	i := tr.MappingAt(va)
	if i < 0 {
		return fmt.Sprintf("%s %#x: not mapped", side, va)
	}
	m := &tr.Mappings[i]
	leafVA := va &^ (m.Leaf - 1)
	if leafVA < m.VA {
		leafVA = m.VA
	}
	out := fmt.Sprintf("%s VA %#x..%#x → PA %#x · %s · %s", side, leafVA, leafVA+m.Leaf-1, m.PA+(leafVA-m.VA), timeline.LeafName(m.Leaf), m.Attr)
	if r.Count > 1 {
		out += fmt.Sprintf(" · this column: %d pages", r.Count)
	}
	out += v.binWord(va)
	if m.Scattered {
		out += " · run merged (physical places approximate)"
	}
	if m.Chunk >= 0 && m.Chunk < len(tr.Chunks) {
		c := tr.Chunks[m.Chunk]
		out += fmt.Sprintf(" · chunk %d (order %d at PA %#x)", m.Chunk, c.Order, c.PA)
	}
	return out
}

// describeChunk says where an allocator chunk is.
func (v *pageMapView) describeChunk(r Ref) string {
	tr := v.d.tl.Translation
	if int(r.Index) >= len(tr.Chunks) {
		return ""
	}
	c := tr.Chunks[r.Index]
	return fmt.Sprintf("%s chunk %d · order %d (%s) · PA %#x · mapped at VA %#x%s", v.d.name(), r.Index, c.Order,
		scenario.FormatBytes(int64(c.Bytes())), c.PA, c.VA, v.binWord(c.VA))
}

// describeEntries says what TLB entries (one, or a drawn cell's range)
// hold at the side's time.
func (v *tlbView) describeEntries(r Ref) string {
	tr, side := v.d.tl.Translation, v.d.name()
	if int(r.Obj) >= len(tr.TLBs) || int(r.Obj) >= len(v.state.Entries) {
		return ""
	}
	sp := &tr.TLBs[r.Obj]
	ents := v.state.Entries[r.Obj]
	lo, n := int(r.Index), max(int(r.Count), 1)
	if lo >= len(ents) {
		return ""
	}
	ways := max(sp.Ways, 1)
	if n == 1 {
		e := ents[lo]
		where := fmt.Sprintf("%s %s entry %d (set %d way %d)", side, sp.Label, lo, lo/ways, lo%ways)
		if !e.Valid {
			return where + " · invalid"
		}
		return fmt.Sprintf("%s · VA %#x → PA %#x · %s · allocated by %s", where, e.VA, e.PA, timeline.LeafName(e.Bytes), v.d.tl.WriterName(e.Owner))
	}
	valid := 0
	for _, e := range ents[lo:min(lo+n, len(ents))] {
		if e.Valid {
			valid++
		}
	}
	return fmt.Sprintf("%s %s entries %d-%d · %d valid", side, sp.Label, lo, min(lo+n, len(ents))-1, valid)
}

// describeStep says what step i of the walk at the side's time read.
func (v *walkView) describeStep(i int) string {
	tr, side := v.d.tl.Translation, v.d.name()
	steps, arrived := tr.WalkAt(v.d.t)
	if i >= len(steps) {
		return ""
	}
	sp := steps[i]
	how := "read from memory"
	if sp.WalkCache {
		how = "from the walk cache"
	}
	state := "arrived"
	if i >= arrived {
		state = "not yet arrived"
	}
	return fmt.Sprintf("%s walk of VA %#x · level %d descriptor at PA %#x = %#x (%s) · %s · %s at %v", side, sp.VA, sp.Level,
		sp.DescAddr, sp.Desc, sp.Kind, how, state, sp.T)
}
