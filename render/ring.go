package render

import (
	"math"
	"strings"

	"github.com/dmaviz/dmaviz/model/timeline"
)

// ringSegments caps how many arcs the ring is drawn with.
const ringSegments = 96

// ringView draws grid g as a circular buffer: arcs coloured by the worst
// cell state they cover (clockwise from the top), the grid's pointers as
// arrows from the centre, its spans as an outer arc, its flags as words
// under it and the zoom window as an inner arc. Its label and flags may
// use labelW (at least its width), the slot's width.
type ringView struct {
	txt    *texts
	d      sideData
	g      int
	zoom   Zoom
	labelW float32
}

func (v *ringView) bind(txt *texts, d sideData, g int, zoom Zoom, labelW float32) {
	*v = ringView{txt: txt, d: d, g: g, zoom: zoom, labelW: labelW}
}

// flagsH is the height of the flags' words under the ring (STS.FULL,
// TRUNCATED), clear of the pointers' labels inside it.
func (v *ringView) flagsH() float32 {
	h := float32(0)
	for _, val := range v.d.tl.Values {
		if val.Grid == v.g && val.Kind == timeline.ValueFlag {
			h += textSz + 2
		}
	}
	return h
}

// minRing is the smallest radius at which the ring is drawn.
const minRing = 12

// MinSize is the box of the smallest readable ring (radius minRing), with
// its label and flags; in less the flags stay as words under the label.
func (v *ringView) MinSize() Size {
	d := float32(2 * (minRing + 4))
	return Size{d, d + textSz + 4 + v.flagsH()}
}

func (v *ringView) TextSizes() TextSizes {
	return TextSizes{Title: smallSz, Body: textSz, Least: smallSz}
}

func (v *ringView) Describe(r Ref) string { return v.d.describe(r) }

// beside reports whether the names and flags fit right of a ring of
// radius r centred in a box w wide (its slot, labelW, has the room): the
// ring then takes the box's height, the flags under the names.
func (v *ringView) beside(w, r float32) bool {
	widest := float32(0)
	for _, val := range v.d.tl.Values {
		if val.Grid != v.g {
			continue
		}
		switch val.Kind {
		case timeline.ValuePointer:
			widest = max(widest, textWidth(val.ID, smallSz))
		case timeline.ValueFlag:
			widest = max(widest, textWidth(v.txt.Join("no ", val.Label, ""), textSz))
		}
	}
	return w/2+r+10+widest <= v.labelW
}

func (v *ringView) Build(s *Scene, rect Rect) {
	tl, state, g := v.d.tl, v.d.state, v.g
	x, y, w, h := rect.X, rect.Y, rect.W, rect.H
	if g >= len(state.Cells) || len(state.Cells[g]) == 0 {
		return
	}
	flagsH := v.flagsH()
	beside := false
	if full := h - textSz - 4; flagsH > 0 && v.beside(w, ringRadius(min(w, full)/2)) {
		flagsH, beside = 0, true // the flags go beside, under the names
	}
	ringH := h - textSz - 4 - flagsH
	cx, cy := x+w/2, y+textSz+4+ringH/2
	r := ringRadius(min(w, ringH) / 2)
	// Labelled only when drawn: a label over an empty slot explains nothing.
	label := tl.Grids[g].Label
	base := baseLabel(label)
	long, short := v.txt.Join(label, " (ring)", ""), v.txt.Join(base, " ring", "")
	if strings.Contains(base, "ring") {
		long, short = label, base
	}
	if r < minRing {
		// Too small for a readable ring (a short row in presentation
		// mode): its flags, which say whether the buffer wrapped
		// (STS.FULL) or the ring lost data (TRUNCATED), stay as words
		// under its label; the pointers are on the grid above.
		if flagsH > 0 && h >= textSz+4+flagsH {
			v.label(s, x, y, long, short)
			v.flagWords(s, x, y)
		}
		return
	}
	v.label(s, x, y, long, short)
	thick := ringThick(r)
	v.arcs(s, cx, cy, r, thick)
	v.marks(s, x, y+textSz+4, w, cx, cy, r, thick, beside)
}

// ringRadius is the radius of a ring in a box 2*half wide and high: its
// arcs stay inside the box, clear of the label above it and of the cells
// beside it.
func ringRadius(half float32) float32 {
	return half - ringThick(half-4)/2 - 2
}

// ringThick is the width of the arcs of a ring of radius r.
func ringThick(r float32) float32 { return min(max(r/6, 4), 14) }

func (v *ringView) label(s *Scene, x, y float32, long, short string) {
	s.TextRef(sideIDs[v.d.side].ringLabel, x, y+textSz, v.txt.FitFirst(v.labelW, smallSz, long, short), smallSz, Muted, AlignStart,
		Ref{Kind: RefExplain, Side: v.d.side, Index: explainRing})
}

// flagWords lists the grid's flags as words under the label (a ring too
// small to draw).
func (v *ringView) flagWords(s *Scene, x, y float32) {
	flags := 0
	for i, val := range v.d.tl.Values {
		if val.Grid == v.g && val.Kind == timeline.ValueFlag && i < len(v.d.state.Values) {
			colour, word := v.flagWord(val, v.d.state.Values[i])
			s.TextRef(sideIDs[v.d.side].ringLabel, x, y+textSz+4+float32(flags+1)*(textSz+2)-2, v.txt.Fit(word, v.labelW, textSz), textSz, colour, AlignStart,
				Ref{Kind: RefValue, Side: v.d.side, Obj: int32(i)})
			flags++
		}
	}
}

// arcs draws the cells round the ring, then the zoom window inside it and
// the spans outside it.
func (v *ringView) arcs(s *Scene, cx, cy, r, thick float32) {
	ids := &sideIDs[v.d.side]
	side, tl, state, g := v.d.side, v.d.tl, v.d.state, v.g
	cells := state.Cells[g]
	n := len(cells)
	m := min(n, ringSegments)
	for j := 0; j < m; j++ {
		lo, hi := j*n/m, (j+1)*n/m
		c := worst(cells[lo:hi])
		ax, ay := polar(cx, cy, r, float64(j)/float64(m))
		bx, by := polar(cx, cy, r, float64(j+1)/float64(m))
		s.Add(Item{Kind: KindLine, ID: ids.ring, Index: int32(j), X: ax, Y: ay, X2: bx, Y2: by, Fill: None,
			Stroke: CellColor(c.State), StrokeWidth: thick,
			Ref: Ref{Kind: RefCells, Side: side, Obj: int32(g), Index: int32(lo), Count: int32(hi - lo)}})
	}
	if z := v.zoom.Clamp(n); z.Count < n {
		arc(s, ids.ringSpan, cx, cy, r-thick, float64(z.First)/float64(n), float64(z.First+z.Count)/float64(n), Muted, 2, Ref{})
	}
	for i, sp := range tl.Spans {
		if sp.Grid == g && i < len(state.Spans) && state.Spans[i].Count > 0 {
			sr := state.Spans[i]
			arc(s, ids.ringSpan, cx, cy, r+thick/2+4, float64(sr.First)/float64(n), float64(sr.First+sr.Count)/float64(n), Cursor, 3,
				Ref{Kind: RefSpan, Side: side, Obj: int32(i)})
		}
	}
}

// marks draws the pointers as arrows from the centre, named in a stack
// inside the ring or beside it (never over its arcs: names that fit
// neither are left to the arrows' hover), and the flags centred under it,
// or beside it under the names; never above top (the label's line is
// above it).
func (v *ringView) marks(s *Scene, x, top, w, cx, cy, r, thick float32, flagsBeside bool) {
	ids := &sideIDs[v.d.side]
	side, tl, state, g := v.d.side, v.d.tl, v.d.state, v.g
	n := len(state.Cells[g])
	names, widest := 0, float32(0)
	for _, val := range tl.Values {
		if val.Grid == g && val.Kind == timeline.ValuePointer {
			widest = max(widest, textWidth(val.ID, smallSz))
			names++
		}
	}
	rowH := float32(smallSz + 1)
	out := cx + r + thick/2 + 6
	nameX, named := cx+6, true
	// Inside: right of the centre, within the ring's hole (the names'
	// farthest corner inside its circle, so no arc runs under a name).
	nameY := max(cy-4-float32(names-1)*rowH/2, top+smallSz*0.8+1)
	dy := max(cy-nameY+smallSz*0.8, nameY+float32(names-1)*rowH+smallSz*0.25-cy)
	if inside := r - thick/2 - 2; math.Hypot(float64(6+widest), float64(dy)) > float64(inside) {
		nameX = out
		named = out+widest <= x+v.labelW
	}
	if flagsBeside {
		nameX, named = out, true
	}
	nameY = cy - 4 - float32(names-1)*rowH/2
	if flagsBeside {
		flags := 0
		for _, val := range tl.Values {
			if val.Grid == g && val.Kind == timeline.ValueFlag {
				flags++
			}
		}
		nameY = cy + smallSz*0.35 - float32(names+flags-1)*rowH/2
	}
	nameY = max(nameY, top+smallSz*0.8+1)
	k, flags := 0, 0
	for i, val := range tl.Values {
		if val.Grid != g || i >= len(state.Values) {
			continue
		}
		switch val.Kind {
		case timeline.ValuePointer:
			f := float64(state.Values[i]) / float64(n)
			tx, ty := polar(cx, cy, r-thick/2-2, f)
			colour := pointerColour(k)
			s.Arrow(ids.ringPointer, cx, cy, tx, ty, colour, 2, Ref{Kind: RefValue, Side: side, Obj: int32(i)})
			// Names stack one line each, in the arrow's colour; hover
			// names the arrow too.
			if named {
				s.TextRef(ids.ringLabel, nameX, nameY+float32(k)*rowH, val.ID, smallSz, colour, AlignStart, Ref{Kind: RefValue, Side: side, Obj: int32(i)})
			}
			k++
		case timeline.ValueFlag:
			colour, word := v.flagWord(val, state.Values[i])
			ref := Ref{Kind: RefValue, Side: side, Obj: int32(i)}
			if flagsBeside {
				s.TextRef(ids.ringLabel, out, nameY+float32(names+flags)*rowH, word, textSz, colour, AlignStart, ref)
				flags++
				continue
			}
			// Centred under the ring, or from its left edge when wider.
			fx, align := cx, AlignMiddle
			if textWidth(word, textSz) > w {
				fx, align, word = x, AlignStart, v.txt.Fit(word, v.labelW, textSz)
			}
			s.TextRef(ids.ringLabel, fx, cy+r+4+float32(flags+1)*(textSz+2)-2, word, textSz, colour, align, ref)
			flags++
		}
	}
}

// flagWord is how a ring flag reads: its name in the cursor colour when
// set, "no" and its name, muted, when clear (the word that matters first,
// if Fit shortens it).
func (v *ringView) flagWord(spec timeline.ValueSpec, val int64) (Color, string) {
	if val != 0 {
		return Cursor, spec.Label
	}
	return Muted, v.txt.Join("no ", spec.Label, "")
}

// polar returns the point at radius r and fraction f of a turn, clockwise
// from the top.
func polar(cx, cy, r float32, f float64) (float32, float32) {
	a := 2*math.Pi*f - math.Pi/2
	return cx + r*float32(math.Cos(a)), cy + r*float32(math.Sin(a))
}

// arc draws an arc from fraction f0 to f1 of a turn as chords.
func arc(s *Scene, id string, cx, cy, r float32, f0, f1 float64, c Color, width float32, ref Ref) {
	steps := max(int((f1-f0)*ringSegments), 1)
	for j := 0; j < steps; j++ {
		ax, ay := polar(cx, cy, r, f0+(f1-f0)*float64(j)/float64(steps))
		bx, by := polar(cx, cy, r, f0+(f1-f0)*float64(j+1)/float64(steps))
		s.Add(Item{Kind: KindLine, ID: id, Index: int32(j), X: ax, Y: ay, X2: bx, Y2: by, Fill: None, Stroke: c, StrokeWidth: width, Ref: ref})
	}
}
