package render

import (
	"fmt"
	"strings"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// Describe says in words what a Ref of the last built frame shows, e.g.
// "0x80001040 line 65 · copied · last writer etr". It reads the frame's
// current states, so call it right after a hit test.
func (st *Stage) Describe(r Ref) string {
	f := &st.frame
	sd := &f.A
	if r.Side == 1 {
		sd = &f.B
	}
	res := sd.Result
	switch r.Kind {
	case RefLegend:
		if r.Obj == 2 {
			return translationLegendHelp(int(r.Index))
		}
		if r.Obj == 1 {
			if int(r.Index) < len(st.lanes.meanings) {
				m := st.lanes.meanings[r.Index]
				return "timeline colour: " + m.Label + " · " + m.Help
			}
			return ""
		}
		return "cell colour: " + CellLabel(timeline.CellState(r.Index)) + " · " + CellHelp(timeline.CellState(r.Index))
	case RefMetric:
		return st.describeMetric(r)
	case RefExplain:
		return explain(r)
	case RefSMMU:
		return st.describeSMMU(r)
	}
	if res == nil || res.Timeline == nil {
		return ""
	}
	tl := res.Timeline
	state := sd.State
	if state == nil && len(tl.Keyframes) > 0 {
		state = &tl.Keyframes[0].State
	}
	side := sideNames[min(r.Side, 1)]
	switch r.Kind {
	case RefCells:
		return describeCells(tl, state, int(r.Obj), int(r.Index), max(int(r.Count), 1))
	case RefCacheWay:
		if int(r.Obj) >= len(tl.Caches) || state == nil || int(r.Obj) >= len(state.Caches) || int(r.Index) >= len(state.Caches[r.Obj]) {
			return ""
		}
		c := &tl.Caches[r.Obj]
		l := state.Caches[r.Obj][r.Index]
		where := fmt.Sprintf("%s %s set %d way %d", side, c.Label, c.FirstSet+int(r.Index)/max(c.Ways, 1), int(r.Index)%max(c.Ways, 1))
		switch {
		case !l.Valid:
			return where + " · invalid"
		case l.Dirty:
			return fmt.Sprintf("%s · line PA %#x · valid, dirty (the CPU wrote it; memory is older)", where, l.Tag)
		}
		return fmt.Sprintf("%s · line PA %#x · valid, clean", where, l.Tag)
	case RefValue:
		if int(r.Obj) >= len(tl.Values) || state == nil || int(r.Obj) >= len(state.Values) {
			return ""
		}
		v := &tl.Values[r.Obj]
		val := state.Values[r.Obj]
		out := fmt.Sprintf("%s %s = %d (%s)", side, v.ID, val, v.Label)
		switch {
		case v.Kind == timeline.ValuePointer && v.Grid >= 0 && v.Grid < len(tl.Grids):
			g := &tl.Grids[v.Grid]
			space := g.Space
			if space == "" {
				space = "address"
			}
			out = fmt.Sprintf("%s %s = %s %d, buffer offset %#x (%s %#x) (%s)", side, v.ID, unitWord(g.CellBytes, 1), val,
				uint64(val)*uint64(g.CellBytes), space, g.Base+uint64(val)*uint64(g.CellBytes), v.Label)
		case v.Kind == timeline.ValueFlag:
			word := "off"
			if val != 0 {
				word = "on"
			}
			out = fmt.Sprintf("%s %s: %s", side, v.Label, word)
		case v.Kind == timeline.ValueGauge && v.Max > 0:
			out = fmt.Sprintf("%s %s: %d of %d", side, v.Label, val, v.Max)
		}
		if help := valueHelp(v); help != "" {
			out += " · " + help
		}
		return out
	case RefSpan:
		if int(r.Obj) >= len(tl.Spans) || state == nil || int(r.Obj) >= len(state.Spans) {
			return ""
		}
		sp := &tl.Spans[r.Obj]
		sr := state.Spans[r.Obj]
		if sp.Grid < 0 || sp.Grid >= len(tl.Grids) {
			return sp.Label
		}
		g := &tl.Grids[sp.Grid]
		return fmt.Sprintf("%s %s: %s %d-%d (%#x..%#x)", side, sp.Label, unitWord(g.CellBytes, 2), sr.First, sr.First+sr.Count-1,
			g.Base+uint64(sr.First)*uint64(g.CellBytes), g.Base+uint64(sr.First+sr.Count)*uint64(g.CellBytes)-1)
	case RefMapping, RefChunk, RefTLBEntry, RefWalkStep:
		return st.describeTranslation(r, tl, side)
	case RefPhase:
		if int(r.Index) >= len(tl.Phases) {
			return ""
		}
		p := &tl.Phases[r.Index]
		return fmt.Sprintf("%s %s · %s (%s: %s) · %v..%v (%v)", side, p.Lane, p.Label, p.Kind, MeaningOf(p.Kind).Label, p.Start, p.End, p.End-p.Start)
	}
	return ""
}

func unitWord(cellBytes int64, n int) string {
	switch {
	case cellBytes == 64 && n == 1:
		return "line"
	case cellBytes == 64:
		return "lines"
	case cellBytes == 4096 && n == 1:
		return "page"
	case cellBytes == 4096:
		return "pages"
	case n == 1:
		return "cell"
	}
	return "cells"
}

// describeCells describes count cells from first: one cell with its
// address, state and writer; a range with its address range and how many
// cells are in each state.
func describeCells(tl *timeline.Timeline, state *timeline.State, g, first, count int) string {
	if g < 0 || g >= len(tl.Grids) || state == nil || g >= len(state.Cells) {
		return ""
	}
	spec := &tl.Grids[g]
	cells := state.Cells[g]
	if first < 0 || first >= len(cells) {
		return ""
	}
	count = min(count, len(cells)-first)
	off := uint64(first) * uint64(spec.CellBytes)
	space := spec.Space
	if space == "" {
		space = "address"
	}
	if count == 1 {
		c := cells[first]
		return fmt.Sprintf("%s %d · buffer offset %#x (%s %#x) · %s · last writer %s", unitWord(spec.CellBytes, 1), first, off, space, spec.Base+off, c.State, tl.WriterName(c.Writer))
	}
	var n [timeline.NumCellStates]int
	for _, c := range cells[first : first+count] {
		if c.State < timeline.NumCellStates {
			n[c.State]++
		}
	}
	var parts []string
	for s := len(n) - 1; s >= 0; s-- {
		if n[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[s], timeline.CellState(s)))
		}
	}
	w := worst(cells[first : first+count])
	end := off + uint64(count)*uint64(spec.CellBytes) - 1
	return fmt.Sprintf("%s %d-%d · buffer offsets %#x..%#x (%s %#x..%#x) · %s · last writer %s", unitWord(spec.CellBytes, count), first, first+count-1,
		off, end, space, spec.Base+off, spec.Base+end, strings.Join(parts, ", "), tl.WriterName(w.Writer))
}

func (st *Stage) describeMetric(r Ref) string {
	a, b := st.frame.A.Result, st.frame.B.Result
	if a == nil || b == nil {
		return ""
	}
	var m scenario.Metric
	switch i := int(r.Index); {
	case i < len(a.Metrics):
		m = a.Metrics[i]
	case i-len(a.Metrics) < len(a.Checks):
		m = a.Checks[i-len(a.Metrics)]
	default:
		return ""
	}
	bv, _ := b.Metric(m.Name)
	unit := ""
	if m.Unit != "" {
		unit = " " + m.Unit
	}
	return fmt.Sprintf("%s (%s): A %s%s, B %s%s, B/A %s", m.Name, m.Label, st.txt.Num(m.Value), unit, st.txt.Num(bv), unit, st.ratio(m.Value, bv))
}
