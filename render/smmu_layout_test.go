package render

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// itemBox is the box an item covers: a text's from its size, a line's
// from its ends.
func itemBox(it *Item) (x0, y0, x1, y1 float32) {
	switch it.Kind {
	case KindText:
		return textBox(it)
	case KindLine:
		return min(it.X, it.X2), min(it.Y, it.Y2), max(it.X, it.X2), max(it.Y, it.Y2)
	}
	return it.X, it.Y, it.X + it.W, it.Y + it.H
}

// outsideItsView lists the items of the stage's last frame drawn outside
// the rectangle their view was given (a TLB window's cells run into the
// legend under its column), and the views whose rectangles overlap.
func outsideItsView(st *Stage, s *Scene) []string {
	var out []string
	for i, p := range st.placed {
		switch p.v.(type) {
		case *headerView, *narrationView, *messageView:
			continue // the header is the column itself
		}
		for j := p.first; j < p.end; j++ {
			it := &s.Items[j]
			x0, y0, x1, y1 := itemBox(it)
			if x0 < p.r.X-2 || y0 < p.r.Y-2 || x1 > p.r.X+p.r.W+2 || y1 > p.r.Y+p.r.H+2 { // 2 px: a descender
				out = append(out, fmt.Sprintf("%s %q [%.0f..%.0f]x[%.0f..%.0f] outside its %T %+v", it.ID, it.Text, x0, x1, y0, y1, p.v, p.r))
				break
			}
		}
		for _, q := range st.placed[i+1:] {
			a, b := p.r, q.r
			if a.W > 0 && a.H > 0 && b.W > 0 && b.H > 0 && a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H {
				if _, hdr := q.v.(*headerView); !hdr {
					out = append(out, fmt.Sprintf("%T %+v overlaps %T %+v", p.v, a, q.v, b))
				}
			}
		}
	}
	return out
}

// The SMMU stage of a lesson's last stop, under its card (1024x768 with
// the panel: 436 px with the answer revealed; the 960x600 embed: 421 px
// with the question, 370 with the answer, its bar over the bottom 40),
// and any stage from 400 px up: no label over
// another, nothing drawn outside its view (the TBU TLB's cells over the
// legend), the TLB's cells at least 8 px tall, and, on a stage of 400 px
// or more, the latency averages shown once revealed, in the histogram or,
// when its plot gives way, on its title line.
func TestSMMUStageFitsShortStages(t *testing.T) {
	a := sizedRun(t, "smmu-bypass", "smtnmb-tlben-off", scenario.SizeLesson)
	b := sizedRun(t, "smmu-bypass", "smtnmb-tlben-on", scenario.SizeLesson)
	type size struct{ left, w, h, bottom float32 }
	sizes := []size{{340, 1024, 436, 0}, {0, 960, 421, 40}, {0, 960, 370, 40}}
	for h := float32(400); h <= 560; h += 20 {
		sizes = append(sizes, size{340, 1024, h, 0}, size{0, 960, h + 40, 40})
	}
	total := 0
	for _, sz := range sizes {
		for _, masked := range []bool{false, true} {
			for _, at := range stepTimes(a, b) {
				f := cursorFrame(a, b, at)
				f.Left, f.W, f.H, f.Bottom, f.Masked = sz.left, sz.w, sz.h, sz.bottom, masked
				st := NewStage()
				var s Scene
				st.Build(&s, &f)
				name := fmt.Sprintf("%.0fx%.0f (bar %.0f) masked %v at %v", sz.w, sz.h, sz.bottom, masked, at)
				over := append(append(labelOverCells(&s), textOverlaps(&s)...), outsideItsView(st, &s)...)
				total += len(over)
				assert.Empty(t, over, name)
				for _, id := range []string{"a/smmu-tlb", "b/smmu-tlb"} {
					cells := find(&s, id)
					if assert.NotEmpty(t, cells, "%s: %s draws no cells", name, id) {
						assert.GreaterOrEqual(t, cells[0].H, float32(8), "%s: %s's cells", name, id)
					}
				}
				if !masked && sz.h-sz.bottom >= 400 {
					var keys string
					for _, it := range find(&s, "smmu-hist/key") {
						keys += it.Text + " "
					}
					assert.Contains(t, keys, "A average 140", "%s: the histogram's averages", name)
				}
			}
		}
	}
	t.Logf("overlaps: %d", total)
}
