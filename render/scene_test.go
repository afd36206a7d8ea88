package render

import (
	"testing"

	"github.com/dmaviz/dmaviz/model/scenario"
)

type fixedDescriber string

func (d fixedDescriber) Describe(r Ref) string { return string(d) }

func TestHitTestTopmostWithRef(t *testing.T) {
	var s Scene
	s.Reset(100, 100)
	s.Rect("under", 0, 0, 0, 50, 50, Surface, Ref{Kind: RefCells, Index: 1})
	s.Rect("over", 7, 10, 10, 20, 20, Green, Ref{Kind: RefCells, Index: 2})
	s.Rect("deco", 0, 0, 0, 100, 100, None, Ref{}) // decoration: transparent
	s.Describer = fixedDescriber("info")
	h, ok := s.HitTest(15, 15)
	if !ok || h.Item.ID != "over" || h.Item.Index != 7 || h.Info != "info" {
		t.Fatalf("HitTest(15,15) = %+v, %v; want item over/7 with info", h, ok)
	}
	if h, ok := s.HitTest(40, 40); !ok || h.Item.ID != "under" {
		t.Fatalf("HitTest(40,40) = %+v, %v; want under", h, ok)
	}
	if _, ok := s.HitTest(70, 70); ok {
		t.Fatalf("HitTest(70,70) hit decoration")
	}
	s.Add(Item{Kind: KindRect, ID: "outline", X: 0, Y: 0, W: 50, H: 50, Fill: None, Stroke: Text, Ref: Ref{Kind: RefSpan}})
	if h, _ := s.HitTest(40, 40); h.Item.ID != "under" {
		t.Fatalf("inside an outline: hit %s, want the cell under it", h.Item.ID)
	}
	if h, _ := s.HitTest(1, 20); h.Item.ID != "outline" {
		t.Fatalf("on an outline: hit %s", h.Item.ID)
	}
}

func TestHitTestArrow(t *testing.T) {
	var s Scene
	s.Reset(100, 100)
	s.Arrow("rwp", 0, 0, 100, 0, Text, 2, Ref{Kind: RefValue, Obj: 3})
	if h, ok := s.HitTest(50, 3); !ok || h.Item.Ref.Obj != 3 {
		t.Fatalf("near arrow: %+v %v", h, ok)
	}
	if _, ok := s.HitTest(50, 10); ok {
		t.Fatalf("10px from the arrow should miss")
	}
}

func TestResetKeepsCapacity(t *testing.T) {
	var s Scene
	s.Reset(10, 10)
	for i := 0; i < 1000; i++ {
		s.Rect("c", int32(i), 0, 0, 1, 1, Green, Ref{})
	}
	c := cap(s.Items)
	allocs := testing.AllocsPerRun(10, func() {
		s.Reset(10, 10)
		for i := 0; i < 1000; i++ {
			s.Rect("c", int32(i), 0, 0, 1, 1, Green, Ref{})
		}
	})
	if allocs != 0 || cap(s.Items) != c {
		t.Fatalf("rebuild allocated %v times, cap %d -> %d", allocs, c, cap(s.Items))
	}
}

func TestEveryCellStateHasDistinctColour(t *testing.T) {
	seen := map[Color]scenario.CellState{}
	for st := scenario.CellState(0); st < scenario.NumCellStates; st++ {
		c := CellColor(st)
		if o, dup := seen[c]; dup {
			t.Errorf("%v and %v share colour %d", o, st, c)
		}
		seen[c] = st
	}
	for _, p := range []Palette{Dark(), Light()} {
		bg := p.RGBA(Background)
		fg := p.RGBA(Text)
		if d := int(fg.R) + int(fg.G) + int(fg.B) - int(bg.R) - int(bg.G) - int(bg.B); d*d < 500*500 {
			t.Errorf("text/background contrast too low: %v on %v", fg, bg)
		}
	}
}

func TestHighlight(t *testing.T) {
	var s Scene
	s.Reset(100, 100)
	s.Rect("cell", 3, 10, 10, 5, 5, Green, Ref{Kind: RefCells})
	h, _ := s.HitTest(12, 12)
	s.Highlight(&h.Item)
	last := s.Items[len(s.Items)-1]
	if last.ID != "hover" || last.Fill != None || last.Stroke != Cursor || last.X != 9 || last.W != 7 {
		t.Fatalf("highlight %+v", last)
	}
	// The outline is decoration: hovering again still finds the cell.
	if h2, _ := s.HitTest(12, 12); h2.Item.ID != "cell" {
		t.Fatalf("hit %s after highlighting", h2.Item.ID)
	}
}
