package render

import (
	"fmt"
	"strings"

	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// name is the side's letter, as hover texts start.
func (d *sideData) name() string { return sideNames[min(d.side, 1)] }

// describe says what a ref to one of the side's buffers shows: cells, a
// value (a pointer, flag or gauge), a span, or an explanatory label.
func (d *sideData) describe(r Ref) string {
	switch r.Kind {
	case RefExplain:
		return explain(r)
	case RefCells:
		out := describeCells(d.tl, d.state, int(r.Obj), int(r.Index), max(int(r.Count), 1))
		if r.Count <= 1 && out != "" {
			out += d.cellCause(int(r.Obj), int(r.Index))
		}
		return out
	case RefValue:
		return d.describeValue(int(r.Obj))
	case RefSpan:
		return d.describeSpan(int(r.Obj))
	}
	return ""
}

// describeValue says what value i is at the side's time, and what it means.
func (d *sideData) describeValue(i int) string {
	tl, state, side := d.tl, d.state, d.name()
	if i >= len(tl.Values) || state == nil || i >= len(state.Values) {
		return ""
	}
	v := &tl.Values[i]
	val := state.Values[i]
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
}

// describeSpan says which cells span i covers at the side's time.
func (d *sideData) describeSpan(i int) string {
	tl, state := d.tl, d.state
	if i >= len(tl.Spans) || state == nil || i >= len(state.Spans) {
		return ""
	}
	sp := &tl.Spans[i]
	sr := state.Spans[i]
	if sp.Grid < 0 || sp.Grid >= len(tl.Grids) {
		return sp.Label
	}
	g := &tl.Grids[sp.Grid]
	return fmt.Sprintf("%s %s: %s %d-%d (%#x..%#x)", d.name(), sp.Label, unitWord(g.CellBytes, 2), sr.First, sr.First+sr.Count-1,
		g.Base+uint64(sr.First)*uint64(g.CellBytes), g.Base+uint64(sr.First+sr.Count)*uint64(g.CellBytes)-1)
}

// cellCause says, for a cell showing an outdated copy, since when and
// why: " · stale copy since 1.23 ms: the etr wrote this line after the
// CPU cached it" ("" for other states).
func (d *sideData) cellCause(g, cell int) string {
	if d.state == nil || g < 0 || g >= len(d.state.Cells) || cell < 0 || cell >= len(d.state.Cells[g]) {
		return ""
	}
	c := d.state.Cells[g][cell]
	if c.State != timeline.CellStaleCopy && c.State != timeline.CellDoomed {
		return ""
	}
	since, why, ok := d.tl.CellCause(g, cell, d.tl.EventsUntil(d.t))
	if !ok {
		return ""
	}
	out := " · " + CellLabel(c.State) + " since " + timeWords(since)
	if w := WhyText(c.State, why, d.tl.WriterName(c.Writer)); w != "" {
		out += ": " + w
	}
	return out
}

// timeWords prints t for a sentence: "1.23 ms", "3.5 µs".
func timeWords(t sim.Time) string {
	s := t.String()
	for _, u := range []string{"ps", "ns", "us", "ms", "s"} {
		if num, ok := strings.CutSuffix(s, u); ok {
			if u == "us" {
				u = "µs"
			}
			return num + " " + u
		}
	}
	return s
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
