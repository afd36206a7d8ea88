package render

import (
	"math"
	"strings"

	"github.com/dmaviz/dmaviz/model/timeline"
)

// ringSegments caps how many arcs the ring is drawn with.
const ringSegments = 96

// ring draws grid g as a circular buffer in the box (x, y, w, h): arcs
// coloured by the worst cell state they cover (clockwise from the top),
// the grid's pointers as arrows from the centre, its spans as an outer arc,
// its flags as words under it and the zoom window as an inner arc. Its
// label and flags may use labelW (at least w), the slot's width.
func (st *Stage) ring(s *Scene, side uint8, tl *timeline.Timeline, state *timeline.State, g int, x, y, w, h, labelW float32) {
	ids := &sideIDs[side]
	if g >= len(state.Cells) || len(state.Cells[g]) == 0 {
		return
	}
	cells := state.Cells[g]
	n := len(cells)
	// Flags (STS.FULL, TRUNCATED) go in words under the ring, clear of the
	// pointers' labels inside it.
	flagsH := float32(0)
	for _, v := range tl.Values {
		if v.Grid == g && v.Kind == timeline.ValueFlag {
			flagsH += textSz + 2
		}
	}
	ringH := h - textSz - 4 - flagsH
	cx, cy := x+w/2, y+textSz+4+ringH/2
	r := min(w, ringH)/2 - 4
	// Labelled only when drawn: a label over an empty slot explains nothing.
	label := tl.Grids[g].Label
	base := baseLabel(label)
	long, short := st.txt.Join(label, " (ring)", ""), st.txt.Join(base, " ring", "")
	if strings.Contains(base, "ring") {
		long, short = label, base
	}
	if r < 12 {
		// Too small for a readable ring (a short row in presentation
		// mode): its flags, which say whether the buffer wrapped
		// (STS.FULL) or the ring lost data (TRUNCATED), stay as words
		// under its label; the pointers are on the grid above.
		if flagsH == 0 || h < textSz+4+flagsH {
			return
		}
		s.TextRef(ids.ringLabel, x, y+textSz, st.txt.FitFirst(labelW, smallSz, long, short), smallSz, Muted, AlignStart,
			Ref{Kind: RefExplain, Side: side, Index: explainRing})
		flags := 0
		for i, v := range tl.Values {
			if v.Grid == g && v.Kind == timeline.ValueFlag && i < len(state.Values) {
				colour, word := st.flagWord(v, state.Values[i])
				s.TextRef(ids.ringLabel, x, y+textSz+4+float32(flags+1)*(textSz+2)-2, st.txt.Fit(word, labelW, textSz), textSz, colour, AlignStart,
					Ref{Kind: RefValue, Side: side, Obj: int32(i)})
				flags++
			}
		}
		return
	}
	s.TextRef(ids.ringLabel, x, y+textSz, st.txt.FitFirst(labelW, smallSz, long, short), smallSz, Muted, AlignStart,
		Ref{Kind: RefExplain, Side: side, Index: explainRing})
	m := min(n, ringSegments)
	thick := min(max(r/6, 4), 14)
	for j := 0; j < m; j++ {
		lo, hi := j*n/m, (j+1)*n/m
		c := worst(cells[lo:hi])
		ax, ay := polar(cx, cy, r, float64(j)/float64(m))
		bx, by := polar(cx, cy, r, float64(j+1)/float64(m))
		s.Add(Item{Kind: KindLine, ID: ids.ring, Index: int32(j), X: ax, Y: ay, X2: bx, Y2: by, Fill: None,
			Stroke: CellColor(c.State), StrokeWidth: thick,
			Ref: Ref{Kind: RefCells, Side: side, Obj: int32(g), Index: int32(lo), Count: int32(hi - lo)}})
	}
	if z := st.frame.Zoom.Clamp(n); z.Count < n {
		arc(s, ids.ringSpan, cx, cy, r-thick, float64(z.First)/float64(n), float64(z.First+z.Count)/float64(n), Muted, 2, Ref{})
	}
	for i, sp := range tl.Spans {
		if sp.Grid == g && i < len(state.Spans) && state.Spans[i].Count > 0 {
			sr := state.Spans[i]
			arc(s, ids.ringSpan, cx, cy, r+thick/2+4, float64(sr.First)/float64(n), float64(sr.First+sr.Count)/float64(n), Cursor, 3,
				Ref{Kind: RefSpan, Side: side, Obj: int32(i)})
		}
	}
	// The pointers' names go inside the ring, right of its centre, when
	// they fit there; in a small ring (a 1024 px window) they would cross
	// its arc, so they go beside it, if the slot has the room.
	nameX, widest := cx+6, float32(0)
	for _, v := range tl.Values {
		if v.Grid == g && v.Kind == timeline.ValuePointer {
			widest = max(widest, textWidth(v.ID, smallSz))
		}
	}
	if out := cx + r + thick/2 + 4; 6+widest > r-thick-2 && out+widest <= x+labelW {
		nameX = out
	}
	k, flags := 0, 0
	for i, v := range tl.Values {
		if v.Grid != g || i >= len(state.Values) {
			continue
		}
		switch v.Kind {
		case timeline.ValuePointer:
			f := float64(state.Values[i]) / float64(n)
			tx, ty := polar(cx, cy, r-thick/2-2, f)
			colour := pointerColour(k)
			s.Arrow(ids.ringPointer, cx, cy, tx, ty, colour, 2, Ref{Kind: RefValue, Side: side, Obj: int32(i)})
			// Labels stack in the ring's middle, one line each, in the
			// arrow's colour; hover names the arrow too.
			s.TextRef(ids.ringLabel, nameX, cy-4+float32(k)*(smallSz+1), v.ID, smallSz, colour, AlignStart, Ref{Kind: RefValue, Side: side, Obj: int32(i)})
			k++
		case timeline.ValueFlag:
			colour, word := st.flagWord(v, state.Values[i])
			// Centred under the ring, or from its left edge when wider.
			fx, align := cx, AlignMiddle
			if textWidth(word, textSz) > w {
				fx, align, word = x, AlignStart, st.txt.Fit(word, labelW, textSz)
			}
			s.TextRef(ids.ringLabel, fx, cy+r+4+float32(flags+1)*(textSz+2)-2, word, textSz, colour, align, Ref{Kind: RefValue, Side: side, Obj: int32(i)})
			flags++
		}
	}
}

// flagWord is how a ring flag reads: its name in the cursor colour when
// set, "no" and its name, muted, when clear (the word that matters first,
// if Fit shortens it).
func (st *Stage) flagWord(v timeline.ValueSpec, val int64) (Color, string) {
	if val != 0 {
		return Cursor, v.Label
	}
	return Muted, st.txt.Join("no ", v.Label, "")
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
