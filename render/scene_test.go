package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/timeline"
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
	type hit struct {
		OK    bool
		ID    string
		Index int32
		Info  string
	}
	h, ok := s.HitTest(15, 15)
	require.Equal(t, hit{true, "over", 7, "info"}, hit{ok, h.Item.ID, h.Item.Index, h.Info}, "HitTest(15,15)")
	h, ok = s.HitTest(40, 40)
	require.True(t, ok, "HitTest(40,40) missed")
	require.Equal(t, "under", h.Item.ID, "HitTest(40,40)")
	_, ok = s.HitTest(70, 70)
	require.False(t, ok, "HitTest(70,70) hit decoration")
	s.Add(Item{Kind: KindRect, ID: "outline", X: 0, Y: 0, W: 50, H: 50, Fill: None, Stroke: Text, Ref: Ref{Kind: RefSpan}})
	h, _ = s.HitTest(40, 40)
	require.Equal(t, "under", h.Item.ID, "inside an outline: want the cell under it")
	h, _ = s.HitTest(1, 20)
	require.Equal(t, "outline", h.Item.ID, "on an outline")
}

func TestHitTestArrow(t *testing.T) {
	var s Scene
	s.Reset(100, 100)
	s.Arrow("rwp", 0, 0, 100, 0, Text, 2, Ref{Kind: RefValue, Obj: 3})
	h, ok := s.HitTest(50, 3)
	require.True(t, ok, "near arrow: missed")
	require.Equal(t, int32(3), h.Item.Ref.Obj, "near arrow: hit %+v", h)
	_, ok = s.HitTest(50, 10)
	require.False(t, ok, "10px from the arrow should miss")
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
	require.Zero(t, allocs, "rebuild allocations")
	require.Equal(t, c, cap(s.Items), "rebuild changed the capacity")
}

func TestEveryCellStateHasDistinctColour(t *testing.T) {
	seen := map[Color]timeline.CellState{}
	for st := timeline.CellState(0); st < timeline.NumCellStates; st++ {
		c := CellColor(st)
		o, dup := seen[c]
		assert.False(t, dup, "%v and %v share colour %d", o, st, c)
		seen[c] = st
	}
	for _, p := range []Palette{Dark(), Light()} {
		bg := p.RGBA(Background)
		fg := p.RGBA(Text)
		d := int(fg.R) + int(fg.G) + int(fg.B) - int(bg.R) - int(bg.G) - int(bg.B)
		assert.GreaterOrEqual(t, d*d, 500*500, "text/background contrast too low: %v on %v", fg, bg)
	}
}

func TestHighlight(t *testing.T) {
	var s Scene
	s.Reset(100, 100)
	s.Rect("cell", 3, 10, 10, 5, 5, Green, Ref{Kind: RefCells})
	h, _ := s.HitTest(12, 12)
	s.Highlight(&h.Item)
	last := s.Items[len(s.Items)-1]
	type outline struct {
		ID           string
		Fill, Stroke Color
		X, W         float32
	}
	require.Equal(t, outline{"hover", None, Cursor, 9, 7}, outline{last.ID, last.Fill, last.Stroke, last.X, last.W}, "highlight %+v", last)
	// The outline is decoration: hovering again still finds the cell.
	h2, _ := s.HitTest(12, 12)
	require.Equal(t, "cell", h2.Item.ID, "hit after highlighting")
}
