package render

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// translationSide lays out a side whose timeline records translation
// (Timeline.Translation): the page-mapping view above the TLB view. Its
// grids are not drawn (the mapping view shows the same buffer, and one
// colour means one thing on the stage: a grid's cell states and the
// mapping sizes share the palette); they remain the zoom's target.
func (st *Stage) translationSide(s *Scene, side uint8, tl *timeline.Timeline, state *timeline.State, t sim.Time, x, y, w, h float32) {
	_ = state
	pmH := h * 0.4
	st.pageMap(s, side, tl, t, x, y, w, pmH-8)
	st.tlbView(s, side, tl, t, x, y+pmH, w, h-pmH)
}

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

// The translation legend's entries (Ref{Kind: RefLegend, Obj: 2, Index}).
const (
	tlLeaf      = 0 // + index in leafLegend
	tlChunk     = 4
	tlFilled    = 5
	tlCore      = 6
	tlUnit      = 7
	tlEvicted   = 8
	numTLLegend = 9
)

// translationShown reports which translation legend entries the results
// show: leaf sizes of their mappings and TLB entries, chunks, fills, the
// owners of filled entries and evictions.
func translationShown(results ...*scenario.Result) (shown [numTLLegend]bool) {
	for _, r := range results {
		if r == nil || r.Timeline == nil || r.Timeline.Translation == nil {
			continue
		}
		tr := r.Timeline.Translation
		for i := range tr.Mappings {
			shown[tlLeaf+leafSlot(tr.Mappings[i].Leaf)] = true
		}
		if len(tr.Chunks) > 0 && len(tr.Mappings) > 0 {
			shown[tlChunk] = true
		}
		for i := range tr.TLBEvents {
			ev := &tr.TLBEvents[i]
			if ev.Kind != timeline.TLBFill {
				continue
			}
			shown[tlFilled] = true
			shown[tlLeaf+leafSlot(ev.Entry.Bytes)] = true
			if ev.Entry.Owner <= 1 {
				shown[tlCore] = true
			} else {
				shown[tlUnit] = true
			}
			if ev.Evicted {
				shown[tlEvicted] = true
			}
		}
	}
	return shown
}

// leafSlot is the index in leafLegend of a leaf size.
func leafSlot(bytes uint64) int { return max(leafClass(bytes), 0) }

// translationLegendHelp says what a translation legend entry means.
func translationLegendHelp(i int) string {
	switch {
	case i >= tlLeaf && i < tlLeaf+len(leafLegend):
		return "mapping size: " + leafLegend[i-tlLeaf].name + " · a VA range (or TLB entry) translated by one " + leafLegend[i-tlLeaf].name + " leaf"
	case i == tlChunk:
		return "outline: an allocator chunk (rb_alloc_aux) · physically contiguous pages the allocator handed out together"
	case i == tlFilled:
		return "outline: the TLB entry filled last · its VA is named beside the TLB"
	case i == tlCore:
		return "owner strip: by core · the core's miss allocated the TLB entry"
	case i == tlUnit:
		return "owner strip: by trace unit · the trace unit's miss allocated the TLB entry"
	case i == tlEvicted:
		return "evicted: the TLB entry the last fill pushed out, named beside the TLB"
	}
	return ""
}

// translationLegend draws the stage legend of translation sides: only the
// entries the runs show, each with its own colour and a hover.
func translationLegend(s *Scene, shown [numTLLegend]bool, x, y, w float32) {
	lx := x
	for i := 0; i < numTLLegend; i++ {
		if !shown[i] {
			continue
		}
		var name string
		ref := Ref{Kind: RefLegend, Obj: 2, Index: int32(i)}
		switch {
		case i < tlLeaf+len(leafLegend):
			name = leafLegend[i-tlLeaf].name
		case i == tlChunk:
			name = "chunk"
		case i == tlFilled:
			name = "last fill"
		case i == tlCore:
			name = "by core"
		case i == tlUnit:
			name = "by trace unit"
		case i == tlEvicted:
			name = "evicted"
		}
		if lx+16+textWidth(name, smallSz) > x+w {
			return
		}
		switch {
		case i < tlLeaf+len(leafLegend):
			s.Rect("legend/tl-swatch", int32(i), lx, y+4, 12, 12, LeafColor(leafLegend[i-tlLeaf].bytes), ref)
		case i == tlChunk:
			s.Add(Item{Kind: KindRect, ID: "legend/tl-swatch", Index: int32(i), X: lx + 1, Y: y + 5, W: 10, H: 10, Fill: None, Stroke: chunkColor, StrokeWidth: 1.5, Ref: ref})
		case i == tlFilled:
			s.Add(Item{Kind: KindRect, ID: "legend/tl-swatch", Index: int32(i), X: lx + 1, Y: y + 5, W: 10, H: 10, Fill: None, Stroke: filledColor, StrokeWidth: 2, Ref: ref})
		case i == tlCore:
			s.Rect("legend/tl-swatch", int32(i), lx, y+4, 12, 4, OwnerColor(1), ref)
		case i == tlUnit:
			s.Rect("legend/tl-swatch", int32(i), lx, y+4, 12, 4, OwnerColor(2), ref)
		case i == tlEvicted:
			s.Rect("legend/tl-swatch", int32(i), lx, y+4, 12, 12, evictedColor, ref)
		}
		s.TextRef("legend/label", lx+16, y+14, name, smallSz, Text, AlignStart, ref)
		lx += 16 + textWidth(name, smallSz) + 12
	}
}

// describeTranslation says what a translation item of the last frame
// shows.
func (st *Stage) describeTranslation(r Ref, tl *timeline.Timeline, side string) string {
	tr := tl.Translation
	if tr == nil {
		return ""
	}
	switch r.Kind {
	case RefMapping:
		win, ok := st.pageWindow(tl)
		if !ok {
			return ""
		}
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
		if m.Scattered {
			out += " · run merged (physical places approximate)"
		}
		if m.Chunk >= 0 && m.Chunk < len(tr.Chunks) {
			c := tr.Chunks[m.Chunk]
			out += fmt.Sprintf(" · chunk %d (order %d at PA %#x)", m.Chunk, c.Order, c.PA)
		}
		return out
	case RefChunk:
		if int(r.Index) >= len(tr.Chunks) {
			return ""
		}
		c := tr.Chunks[r.Index]
		return fmt.Sprintf("%s chunk %d · order %d (%s) · PA %#x · mapped at VA %#x", side, r.Index, c.Order,
			scenario.FormatBytes(int64(c.Bytes())), c.PA, c.VA)
	case RefTLBEntry:
		sd := r.Side
		if int(r.Obj) >= len(tr.TLBs) || int(sd) >= len(st.tlbState) || int(r.Obj) >= len(st.tlbState[sd].Entries) {
			return ""
		}
		sp := &tr.TLBs[r.Obj]
		ents := st.tlbState[sd].Entries[r.Obj]
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
			return fmt.Sprintf("%s · VA %#x → PA %#x · %s · allocated by %s", where, e.VA, e.PA, timeline.LeafName(e.Bytes), tl.WriterName(e.Owner))
		}
		valid := 0
		for _, e := range ents[lo:min(lo+n, len(ents))] {
			if e.Valid {
				valid++
			}
		}
		return fmt.Sprintf("%s %s entries %d-%d · %d valid", side, sp.Label, lo, min(lo+n, len(ents))-1, valid)
	case RefWalkStep:
		steps, arrived := tr.WalkAt(st.sideTime(r.Side))
		i := int(r.Index)
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
	return ""
}

func (st *Stage) sideTime(side uint8) sim.Time {
	if side == 1 {
		return st.frame.B.Time
	}
	return st.frame.A.Time
}
