package render

import "github.com/dmaviz/dmaviz/model/sim"

// Rect is a part of the window, in CSS pixels: (X, Y) is its top left.
type Rect struct{ X, Y, W, H float32 }

// Size is a width and a height, in CSS pixels.
type Size struct{ W, H float32 }

// Fits reports whether a rectangle of size sz holds min.
func (sz Size) Fits(min Size) bool { return sz.W >= min.W && sz.H >= min.H }

// TextSizes are the sizes, in pixels, of the text a view draws: Title for
// its heading or label, Body for its names and values, Least the smallest
// any of its text may be (a tag inside a cell, a narration step set in
// the largest size that fits).
type TextSizes struct{ Title, Body, Least float32 }

// A View is one part of the stage: the buffer grid of a run, its ring, a
// cache window, the page map, the TLBs, the timeline, the counters, a
// legend. The stage binds it to what it shows (a side's timeline and
// state at the cursor), gives it a rectangle and asks it to build; a view
// lays its items out in that rectangle (a ring's label may use its slot's
// width, a long narration step runs on under it), keeps what it needs to
// describe them and any scratch it reuses between frames, and says in
// words what an item shows when the pointer is over it.
type View interface {
	// MinSize is the smallest rectangle in which the view shows what it
	// is for (cells, a ring, entries, bars). Given less, the buffer,
	// translation and chart views draw at most a label or a note (the
	// view tests pin it); the others draw cramped. It depends on what the
	// view is bound to.
	MinSize() Size
	// TextSizes are the sizes of the view's text.
	TextSizes() TextSizes
	// Build lays the view out in r and appends its items to s.
	Build(s *Scene, r Rect)
	// Describe says in words what the item with ref r of the view's last
	// Build shows, e.g. "0x80001040 line 65 · copied · last writer etr";
	// "" when it cannot say.
	Describe(r Ref) string
}

// pairData is what a view under both columns shows: both sides, and the
// player's common axis with its cursor.
type pairData struct {
	sides          [2]*Side
	cursor, length sim.Time
	// progress: each side's timeline is stretched over the whole axis.
	progress bool
}

func pairOf(f *Frame) pairData {
	return pairData{sides: [2]*Side{&f.A, &f.B}, cursor: f.Cursor, length: f.Length, progress: f.Progress}
}

// placed is a view of the last frame, the rectangle it was given and the
// items it added, [first, end) of the scene's.
type placed struct {
	v          View
	r          Rect
	first, end int32
}

// show builds v in r and records it, so that hover over its items is
// routed back to it: every item v adds that points at data is stamped
// with v's number (Ref.View).
func (st *Stage) show(s *Scene, v View, r Rect) {
	first := len(s.Items)
	v.Build(s, r)
	st.placed = append(st.placed, placed{v, r, int32(first), int32(len(s.Items))})
	n := len(st.placed)
	if n > maxViews {
		return // not described; a stage has a few dozen views
	}
	for i := first; i < len(s.Items); i++ {
		if s.Items[i].Ref.Kind != RefNone {
			s.Items[i].Ref.View = uint8(n)
		}
	}
}

// maxViews is the most views of a frame whose items hover can describe.
const maxViews = 255

// Describe says in words what a Ref of the last built frame shows: the
// view that drew the item describes it. It reads the frame's current
// states, so call it right after a hit test.
func (st *Stage) Describe(r Ref) string {
	if r.View == 0 || int(r.View) > len(st.placed) {
		return ""
	}
	return st.placed[r.View-1].v.Describe(r)
}
