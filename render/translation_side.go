package render

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
)

// translationSide lays out a side whose timeline records translation
// (Timeline.Translation): its grids in a band at the top, then the
// page-mapping view and the TLB view.
func (st *Stage) translationSide(s *Scene, side uint8, tl *scenario.Timeline, state *scenario.State, t sim.Time, x, y, w, h float32) {
	gridsH := float32(0)
	if n := len(tl.Grids); n > 0 && state != nil {
		gridsH = min(h*0.16, float32(n)*70)
		each := gridsH / float32(n)
		for g := range tl.Grids {
			st.grid(s, side, tl, state, g, x, y+float32(g)*each, w, each-6)
		}
	}
	rest := h - gridsH
	pmH := rest * 0.42
	st.pageMap(s, side, tl, t, x, y+gridsH, w, pmH-8)
	st.tlbView(s, side, tl, t, x, y+gridsH+pmH, w, rest-pmH)
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
