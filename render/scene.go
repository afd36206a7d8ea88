// Package render turns recorded scenario state into a Scene: a flat display
// list of rectangles, lines, arrows and text that the Ebiten painter (in the
// browser) and the SVG writer (docs, CLI, golden tests) both draw.
//
// Views never draw pixels and painters never look at the model: a view reads
// a Timeline's specs and a State and appends Items; a painter walks Items in
// order (later items on top). Items are plain values with no pointers except
// their strings, so a Scene rebuilt every frame into the same slice (Reset
// keeps capacity) does not grow allocations.
//
// Each part of the stage (a buffer grid, its ring, a cache window, the page
// map, the TLBs, the SMMU's tables, the timeline, the counters, a legend)
// is a View: it reports the smallest rectangle it is useful in and its text
// sizes, builds its items in the rectangle it is given and describes them
// on hover. The Stage chooses the views a pair of results calls for, lays
// them out (layoutRuns, layoutBuffers, smmuStage) and routes hover to the
// view that drew the item.
package render

// Kind is the shape of an Item.
type Kind uint8

const (
	// KindRect is the rectangle (X, Y)-(X+W, Y+H), filled with Fill unless
	// Fill is None, outlined with Stroke unless Stroke is None.
	KindRect Kind = iota
	// KindLine is the segment (X, Y)-(X2, Y2) in Stroke, StrokeWidth wide.
	KindLine
	// KindArrow is a line from (X, Y) to (X2, Y2) with a head at (X2, Y2).
	KindArrow
	// KindText is Text with its baseline at Y, anchored at X by Align, in
	// Fill, Size pixels high.
	KindText
)

// Align anchors text horizontally.
type Align uint8

const (
	AlignStart  Align = iota // X is the left edge
	AlignMiddle              // X is the centre
	AlignEnd                 // X is the right edge
)

// Item is one primitive. Coordinates are in CSS pixels of the whole window,
// origin top left, y down.
type Item struct {
	Kind Kind
	// ID names the item stably across frames, e.g. "a/grid/buf"; together
	// with Index (a cell, way or bar number, 0 when unused) it identifies
	// one drawn object. IDs are built once per layout, not per frame.
	ID    string
	Index int32
	X, Y  float32
	// W, H size a rectangle.
	W, H float32
	// X2, Y2 end a line or arrow.
	X2, Y2      float32
	Fill        Color // rect fill, text colour; None for no fill
	Stroke      Color // outline or line colour; None for no outline
	StrokeWidth float32
	Text        string
	Size        float32 // text size in pixels
	Align       Align
	Bold        bool
	// Ref says what the item shows, for hit testing; RefNone when it is
	// decoration.
	Ref Ref
}

// RefKind says which part of a Result an item stands for.
type RefKind uint8

const (
	RefNone     RefKind = iota
	RefCells            // Obj grid, Index first cell, Count cells (aggregated)
	RefCacheWay         // Obj cache window, Index (set-FirstSet)*Ways + way
	RefValue            // Obj value spec
	RefSpan             // Obj span spec
	RefPhase            // Index phase in Timeline.Phases
	RefMetric           // Index metric in Result.Metrics
	RefLegend           // Index cell state or phase kind in the legend
	RefExplain          // Index a glossary entry (explainScale, ...), Obj and Count its numbers
	RefSMMU             // Obj a part of the SMMU view (smmuMaster...), Index within it
	RefMapping          // Obj grid of the buffer, Index first page, Count pages (page-mapping view)
	RefChunk            // Index chunk in Timeline.Translation.Chunks
	RefTLBEntry         // Obj TLB in Timeline.Translation.TLBs, Index first entry, Count entries
	RefWalkStep         // Index step of the walk shown, Obj its level
	RefFlow             // Obj a VA bin of the page-mapping view, Index a physical bin, Count pages
)

// Ref points an item back at the data it shows.
type Ref struct {
	Kind RefKind
	Side uint8 // 0 = A, 1 = B
	// View is the number, from 1, of the stage's view that drew the item
	// (set by the stage, which asks that view to describe it); 0 when no
	// view did.
	View  uint8
	Obj   int32
	Index int32
	Count int32
}

// Describer turns a Ref into the words shown on hover, e.g.
// "0x80001040 line 65 · copied · last writer etr".
type Describer interface {
	Describe(r Ref) string
}

// Scene is a display list. The zero value is empty and ready to use.
type Scene struct {
	// W, H are the size of the whole window the scene was laid out for.
	W, H float32
	// Background is the colour to clear to.
	Background Color
	Items      []Item
	// Describer explains hit items; nil means HitTest returns no info.
	Describer Describer
	// Scale is how many times larger than its layout units the scene was
	// drawn (presentation mode); the hover box is set at it too. 0 or 1:
	// as laid out.
	Scale float32
}

// Reset empties the scene for a new frame, keeping its capacity.
func (s *Scene) Reset(w, h float32) {
	s.W, s.H = w, h
	s.Background = Background
	s.Items = s.Items[:0]
	s.Describer = nil
	s.Scale = 1
}

// scaleBy draws every item k times larger, about the origin, and sets
// the scene's size back to the window's (the stage laid it out in a
// window k times smaller).
func (s *Scene) scaleBy(k float32) {
	for i := range s.Items {
		it := &s.Items[i]
		it.X, it.Y, it.W, it.H = it.X*k, it.Y*k, it.W*k, it.H*k
		it.X2, it.Y2 = it.X2*k, it.Y2*k
		it.StrokeWidth *= k
		it.Size *= k
	}
}

// Add appends an item.
func (s *Scene) Add(it Item) { s.Items = append(s.Items, it) }

// Rect appends a filled rectangle.
func (s *Scene) Rect(id string, index int32, x, y, w, h float32, fill Color, ref Ref) {
	s.Items = append(s.Items, Item{Kind: KindRect, ID: id, Index: index, X: x, Y: y, W: w, H: h, Fill: fill, Stroke: None, Ref: ref})
}

// Frame appends an outlined rectangle without fill.
func (s *Scene) Frame(id string, x, y, w, h float32, stroke Color, width float32) {
	s.Items = append(s.Items, Item{Kind: KindRect, ID: id, X: x, Y: y, W: w, H: h, Fill: None, Stroke: stroke, StrokeWidth: width})
}

// Line appends a line segment.
func (s *Scene) Line(id string, x, y, x2, y2 float32, stroke Color, width float32) {
	s.Items = append(s.Items, Item{Kind: KindLine, ID: id, X: x, Y: y, X2: x2, Y2: y2, Fill: None, Stroke: stroke, StrokeWidth: width})
}

// Arrow appends an arrow pointing at (x2, y2).
func (s *Scene) Arrow(id string, x, y, x2, y2 float32, stroke Color, width float32, ref Ref) {
	s.Items = append(s.Items, Item{Kind: KindArrow, ID: id, X: x, Y: y, X2: x2, Y2: y2, Fill: None, Stroke: stroke, StrokeWidth: width, Ref: ref})
}

// Text appends a text run.
func (s *Scene) Text(id string, x, y float32, text string, size float32, fill Color, align Align) {
	s.Items = append(s.Items, Item{Kind: KindText, ID: id, X: x, Y: y, Text: text, Size: size, Fill: fill, Stroke: None, Align: align})
}

// TextRef appends a text run that explains itself on hover (a label for
// the data ref points at).
func (s *Scene) TextRef(id string, x, y float32, text string, size float32, fill Color, align Align, ref Ref) {
	s.Items = append(s.Items, Item{Kind: KindText, ID: id, X: x, Y: y, Text: text, Size: size, Fill: fill, Stroke: None, Align: align, Ref: ref})
}

// Hit is the result of a hit test.
type Hit struct {
	Item Item
	Info string // what the item shows, in words; "" when unknown
}

// HitTest returns the topmost item with a Ref under (x, y): filled
// rectangles by their area, outlines, lines and arrows within 4 pixels.
// Decoration (RefNone) is transparent to the pointer. A point in the
// pixel or two between the squares of a grid or the ways of a cache
// falls to the nearest filled rectangle within gapReach.
func (s *Scene) HitTest(x, y float32) (Hit, bool) {
	i := s.hit(x, y)
	if i < 0 {
		i = s.hitNear(x, y)
	}
	if i < 0 {
		return Hit{}, false
	}
	it := &s.Items[i]
	h := Hit{Item: *it}
	if s.Describer != nil {
		h.Info = s.Describer.Describe(it.Ref)
	}
	return h, true
}

// gapReach is how far from a filled rectangle a point still hits it: the
// gap the grids and caches leave between cells.
const gapReach = 1.5

func (s *Scene) hit(x, y float32) int {
	for i := len(s.Items) - 1; i >= 0; i-- {
		if it := &s.Items[i]; it.Ref.Kind != RefNone && it.contains(x, y) {
			return i
		}
	}
	return -1
}

// hitNear is the topmost filled rectangle with a Ref within gapReach of
// (x, y), -1 for none.
func (s *Scene) hitNear(x, y float32) int {
	for i := len(s.Items) - 1; i >= 0; i-- {
		it := &s.Items[i]
		if it.Ref.Kind != RefNone && it.Kind == KindRect && it.Fill != None &&
			x >= it.X-gapReach && x < it.X+it.W+gapReach && y >= it.Y-gapReach && y < it.Y+it.H+gapReach {
			return i
		}
	}
	return -1
}

func (it *Item) contains(x, y float32) bool {
	switch it.Kind {
	case KindRect:
		in := x >= it.X && x < it.X+it.W && y >= it.Y && y < it.Y+it.H
		if it.Fill != None || !in {
			return in
		}
		// An outline only: hit near its border, not inside it.
		const m = 4
		return x < it.X+m || x >= it.X+it.W-m || y < it.Y+m || y >= it.Y+it.H-m
	case KindLine, KindArrow:
		return segmentDistance2(x, y, it.X, it.Y, it.X2, it.Y2) <= 16
	case KindText:
		x0, w := it.textSpan()
		return x >= x0 && x < x0+w && y >= it.Y-it.Size && y < it.Y+it.Size*0.25
	}
	return false
}

func segmentDistance2(px, py, x1, y1, x2, y2 float32) float32 {
	dx, dy := x2-x1, y2-y1
	l2 := dx*dx + dy*dy
	t := float32(0)
	if l2 > 0 {
		t = ((px-x1)*dx + (py-y1)*dy) / l2
		t = min(max(t, 0), 1)
	}
	ex, ey := x1+t*dx-px, y1+t*dy-py
	return ex*ex + ey*ey
}

// Highlight appends an outline around it (the hovered item), in the
// Cursor colour: a frame around a rectangle or text, a wider line over a
// line or arrow.
func (s *Scene) Highlight(it *Item) {
	switch it.Kind {
	case KindRect:
		s.Frame("hover", it.X-1, it.Y-1, it.W+2, it.H+2, Cursor, 2)
	case KindLine, KindArrow:
		s.Line("hover", it.X, it.Y, it.X2, it.Y2, Cursor, max(it.StrokeWidth, 1)+2)
	case KindText:
		x, w := it.textSpan()
		s.Frame("hover", x-2, it.Y-it.Size-1, w+4, it.Size*1.3+2, Cursor, 1)
	}
}

// textSpan is where a text item starts and how wide it is, estimated at
// textWidth's 0.6 em per character and placed by its alignment.
func (it *Item) textSpan() (x0, w float32) {
	w = textWidth(it.Text, it.Size)
	x0 = it.X
	switch it.Align {
	case AlignMiddle:
		x0 -= w / 2
	case AlignEnd:
		x0 -= w
	}
	return x0, w
}
