package render

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
)

// translationSide lays out a side whose timeline records translation
// (Timeline.Translation): the page-mapping view above the TLB view. Its
// grids are not drawn (the mapping view shows the same buffer, and one
// colour means one thing on the stage: a grid's cell states and the
// mapping sizes share the palette); they remain the zoom's target.
func (st *Stage) translationSide(s *Scene, side uint8, tl *scenario.Timeline, state *scenario.State, t sim.Time, x, y, w, h float32) {
	_ = state
	pmH := h * 0.4
	st.pageMap(s, side, tl, t, x, y, w, pmH-8)
	st.tlbView(s, side, tl, t, x, y+pmH, w, h-pmH)
}

// translationOnly reports whether every side with a result shows
// translation views (the stage's legend is then theirs).
func translationOnly(f *Frame) bool {
	n := 0
	for _, sd := range []*Side{&f.A, &f.B} {
		if sd.Result == nil || sd.Result.Timeline == nil {
			continue
		}
		if sd.Result.Timeline.Translation == nil {
			return false
		}
		n++
	}
	return n > 0
}

// translationLegend is the stage legend of the translation views: one
// swatch per leaf size, the chunk outline, the owners, the last fill and
// the eviction.
func translationLegend(s *Scene, x, y, w float32) {
	lx := x
	item := func(i int, name string, draw func(x float32)) bool {
		if lx+16+textWidth(name, smallSz) > x+w {
			return false
		}
		draw(lx)
		s.Text("legend/label", lx+16, y+14, name, smallSz, Text, AlignStart)
		lx += 16 + textWidth(name, smallSz) + 12
		return true
	}
	for i, l := range leafLegend {
		c := LeafColor(l.bytes)
		if !item(i, l.name, func(x float32) { s.Rect("legend/swatch", int32(i), x, y+4, 12, 12, c, Ref{}) }) {
			return
		}
	}
	frames := []struct {
		name string
		c    Color
	}{{"rb_alloc_aux chunk", chunkColor}, {"TLB entry filled last", filledColor}}
	for i, fr := range frames {
		c := fr.c
		if !item(10+i, fr.name, func(x float32) { s.Frame("legend/swatch", x+1, y+5, 10, 10, c, 1.5) }) {
			return
		}
	}
	owners := []struct {
		name  string
		owner uint8
	}{{"owner: core", 1}, {"owner: trace unit", 2}}
	for i, o := range owners {
		c := OwnerColor(o.owner)
		if !item(20+i, o.name, func(x float32) { s.Rect("legend/swatch", int32(20+i), x, y+4, 12, 4, c, Ref{}) }) {
			return
		}
	}
	item(30, "evicted (named in red)", func(x float32) { s.Rect("legend/swatch", 30, x, y+4, 12, 12, evictedColor, Ref{}) })
}

// describeTranslation says what a translation item of the last frame
// shows.
func (st *Stage) describeTranslation(r Ref, tl *scenario.Timeline, side string) string {
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
		out := fmt.Sprintf("%s VA %#x..%#x → PA %#x · %s · %s", side, leafVA, leafVA+m.Leaf-1, m.PA+(leafVA-m.VA), scenario.LeafName(m.Leaf), m.Attr)
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
			return fmt.Sprintf("%s · VA %#x → PA %#x · %s · allocated by %s", where, e.VA, e.PA, scenario.LeafName(e.Bytes), tl.WriterName(e.Owner))
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
