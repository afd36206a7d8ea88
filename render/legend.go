package render

import (
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// cellLegendView draws a swatch and name for every cell state the runs
// show, wrapping onto at most rows rows (cellLegendRows, fewer where the
// columns need the room), so that no colour on the grids goes unexplained
// on a narrow stage.
type cellLegendView struct {
	states []timeline.CellState
	rows   int
	gap    float32 // between entries
}

func (v *cellLegendView) bind(states []timeline.CellState, rows int, gap float32) {
	v.states, v.rows, v.gap = states, rows, gap
}

// The space between the legend's entries: on the stage, and in
// presentation mode, where ETR's ten states keep to one row.
const (
	legendGap        = 12
	presentLegendGap = 6
)

// MinSize is one row as wide as the widest entry.
func (v *cellLegendView) MinSize() Size {
	w := float32(0)
	for _, c := range v.states {
		w = max(w, 16+textWidth(CellLabel(c), smallSz))
	}
	return Size{w, legendH}
}

func (v *cellLegendView) TextSizes() TextSizes {
	return TextSizes{Title: smallSz, Body: smallSz, Least: smallSz}
}

func (v *cellLegendView) Describe(r Ref) string {
	return "cell colour: " + CellLabel(timeline.CellState(r.Index)) + " · " + CellHelp(timeline.CellState(r.Index))
}

func (v *cellLegendView) Build(s *Scene, r Rect) {
	x, y := r.X, r.Y
	cellLegendFlow(v.states, r.W, v.rows, v.gap, func(c timeline.CellState, name string, dx float32, row int) {
		lx, ry := x+dx, y+float32(row)*legendH
		s.Rect("legend/swatch", int32(c), lx, ry+4, 12, 12, CellColor(c), Ref{Kind: RefLegend, Index: int32(c)})
		s.TextRef("legend/label", lx+16, ry+14, name, smallSz, Text, AlignStart, Ref{Kind: RefLegend, Index: int32(c)})
	})
}

// maxCellLegendRows bounds the rows the cell legend takes from the columns.
const maxCellLegendRows = 3

// cellLegendRows is the number of rows cellLegend needs for states in a
// width of w: one on a wide stage, two for ETR's seven states beside the
// panel in a 1024 px window.
func cellLegendRows(states []timeline.CellState, w, gap float32) int {
	return cellLegendFlow(states, w, maxCellLegendRows, gap, nil)
}

// cellLegendFlow lays the legend's entries out in reading order, wrapping
// at width w, and calls at (when not nil) with each entry's offset and row;
// it stops at an entry that would start row maxRows or does not fit a row
// of its own, and returns the rows used (at least one, the row the layout
// always keeps).
func cellLegendFlow(states []timeline.CellState, w float32, maxRows int, gap float32, at func(c timeline.CellState, name string, dx float32, row int)) int {
	dx, row := float32(0), 0
	for _, c := range states {
		name := CellLabel(c)
		ew := 16 + textWidth(name, smallSz)
		if dx > 0 && dx+ew > w {
			row, dx = row+1, 0
		}
		if row >= maxRows || ew > w {
			return max(min(row, maxRows), 1)
		}
		if at != nil {
			at(c, name, dx, row)
		}
		dx += ew + gap
	}
	return row + 1
}

// The translation legend's entries (Ref{Kind: RefLegend, Obj: 2, Index}).
const (
	tlLeaf      = 0 // + index in leafLegend
	tlChunk     = 4
	tlFilled    = 5
	tlCore      = 6
	tlUnit      = 7
	tlEvicted   = 8
	tlBins      = 9
	numTLLegend = 10
)

// tlOrder is the translation legend's drawing order: the page-mapping
// view's entries first, the TLB view's after.
var tlOrder = [numTLLegend]int{tlLeaf, tlLeaf + 1, tlLeaf + 2, tlLeaf + 3, tlChunk, tlBins, tlFilled, tlCore, tlUnit, tlEvicted}

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
		shown[tlBins] = shown[tlBins] || binned(tr)
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
	case i == tlBins:
		return "VA bin colours: a buffer of many scattered pieces is cut into numbered VA bins, each its own colour; " +
			"each physical frame carries the colour of the bin it is mapped into (a piece of many frames, the bin most of them are in), " +
			"and a line joins only the page being written to its frame"
	}
	return ""
}

// translationLegendView draws the stage legend of translation sides: only
// the entries the runs show, each with its own colour and a hover.
type translationLegendView struct{ shown [numTLLegend]bool }

func (v *translationLegendView) bind(shown [numTLLegend]bool) { v.shown = shown }

func (v *translationLegendView) MinSize() Size { return Size{0, legendH} }

func (v *translationLegendView) TextSizes() TextSizes {
	return TextSizes{Title: smallSz, Body: smallSz, Least: smallSz}
}

func (v *translationLegendView) Describe(r Ref) string { return translationLegendHelp(int(r.Index)) }

func (v *translationLegendView) Build(s *Scene, r Rect) {
	x, y, w := r.X, r.Y, r.W
	lx := x
	for _, i := range tlOrder {
		if !v.shown[i] {
			continue
		}
		e := translationLegendEntry(i)
		ref := Ref{Kind: RefLegend, Obj: 2, Index: int32(i)}
		if lx+16+textWidth(e.name, smallSz) > x+w {
			return
		}
		switch {
		case i == tlBins:
			binSwatch(s, "legend/tl-swatch", int32(i), lx, y+4, ref)
		case e.stroke != None:
			s.Add(Item{Kind: KindRect, ID: "legend/tl-swatch", Index: int32(i), X: lx + 1, Y: y + 5, W: 10, H: 10, Fill: None, Stroke: e.stroke, StrokeWidth: e.width, Ref: ref})
		case e.strip:
			s.Rect("legend/tl-swatch", int32(i), lx, y+4, 12, 4, e.fill, ref)
		default:
			s.Rect("legend/tl-swatch", int32(i), lx, y+4, 12, 12, e.fill, ref)
		}
		s.TextRef("legend/label", lx+16, y+14, e.name, smallSz, Text, AlignStart, ref)
		lx += 16 + textWidth(e.name, smallSz) + 12
	}
}

// tlEntry is how a translation legend entry is drawn: its name, and a
// swatch filled (a square, or an owner's strip) or outlined.
type tlEntry struct {
	name         string
	fill, stroke Color
	width        float32 // the outline's
	strip        bool
}

// translationLegendEntry is translation legend entry i.
func translationLegendEntry(i int) tlEntry {
	switch {
	case i < tlLeaf+len(leafLegend):
		l := leafLegend[i-tlLeaf]
		return tlEntry{name: l.name, fill: LeafColor(l.bytes), stroke: None}
	case i == tlChunk:
		return tlEntry{name: "chunk", fill: None, stroke: chunkColor, width: 1.5}
	case i == tlFilled:
		return tlEntry{name: "last fill", fill: None, stroke: filledColor, width: 2}
	case i == tlCore:
		return tlEntry{name: "by core", fill: OwnerColor(1), stroke: None, strip: true}
	case i == tlUnit:
		return tlEntry{name: "by trace unit", fill: OwnerColor(2), stroke: None, strip: true}
	case i == tlEvicted:
		return tlEntry{name: "evicted", fill: evictedColor, stroke: None}
	case i == tlBins:
		return tlEntry{name: "VA bins", fill: BinColor(0), stroke: None}
	}
	return tlEntry{fill: None, stroke: None}
}

// binSwatch draws the VA bins' legend swatch, 12 pixels square at (x, y):
// four of the bins' colours side by side.
func binSwatch(s *Scene, id string, index int32, x, y float32, ref Ref) {
	for k := range 4 {
		s.Rect(id, index, x+float32(k)*3, y, 3, 12, BinColor(2*k), ref)
	}
}
