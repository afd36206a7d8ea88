package render

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// crossings counts the pairs of lines that cross each other.
func crossings(lines []Item) int {
	side := func(ax, ay, bx, by, px, py float32) float32 { return (bx-ax)*(py-ay) - (by-ay)*(px-ax) }
	n := 0
	for i := range lines {
		for j := i + 1; j < len(lines); j++ {
			a, b := &lines[i], &lines[j]
			d1, d2 := side(a.X, a.Y, a.X2, a.Y2, b.X, b.Y), side(a.X, a.Y, a.X2, a.Y2, b.X2, b.Y2)
			d3, d4 := side(b.X, b.Y, b.X2, b.Y2, a.X, a.Y), side(b.X, b.Y, b.X2, b.Y2, a.X2, a.Y2)
			if d1*d2 < 0 && d3*d4 < 0 {
				n++
			}
		}
	}
	return n
}

// At the lesson size, order-0 pages are drawn so a class can read where
// each virtual page lives: the VA strip in numbered bins of colour, every
// physical frame marked with the colour of the bin its page is in, and a
// single line, from the page the trace unit writes (the page whose walk
// the walk view shows) to its frame, not 64 lines crossing in a star.
// PREFER_LARGE keeps a line per chunk. Checked for trbe-aux and spe-aux,
// on a 1440x900 page, a 960x600 embed and a 1280x720 presentation.
func TestOrder0LessonMapIsBinsNotAStar(t *testing.T) {
	wins := []mapWindow{{"page", 1440, 900, 340, 0, 0, false}, {"embed", 960, 600, 0, 0, 40, false}, {"present", 1280, 720, 0, 0, 0, true}}
	order0Frames(t, wins, []float64{0.3, 0.6, 0.9}, func(where string, s *Scene, a *scenario.Result, f *Frame) {
		links := find(s, "a/pm-link")
		assert.Equal(t, 1, len(links), "%s: order0 joins the page being written only", where)
		assert.Zero(t, crossings(links), where)
		checkFocusIsTheWalkedPage(t, s, a, f.A.Time, where)
		checkFramesCarryTheirBins(t, s, a, where)
		blinks := find(s, "b/pm-link")
		assert.NotEmpty(t, blinks, "%s: prefer-large joins its chunks", where)
		assert.LessOrEqual(t, len(blinks), maxPieceLinks, where)
		assert.LessOrEqual(t, crossings(blinks), 1, where)
		assert.Empty(t, find(s, "b/pm-mark"), "%s: prefer-large's few chunks are not binned", where)
	})
}

// mapWindow is a window a teacher opens an order-0 map in: its size, the
// panel's width (left), the bars over its top and bottom, and whether it
// is presentation mode.
type mapWindow struct {
	name                    string
	w, h, left, top, bottom float32
	narrate                 bool
}

// order0Frames builds the stage of trbe-aux and spe-aux at the lesson
// size, order0 (A) beside prefer-large (B), in each window at each
// fraction of the run, and checks each with check.
func order0Frames(t *testing.T, wins []mapWindow, fracs []float64, check func(where string, s *Scene, a *scenario.Result, f *Frame)) {
	for _, id := range []string{"trbe-aux", "spe-aux"} {
		a, b := lessonPair(t, id, "order0", "prefer-large")
		for _, win := range wins {
			for _, frac := range fracs {
				f := frameOf(a, b, frac, win.w, win.h, win.left, win.top, win.bottom, win.narrate)
				var s Scene
				NewStage().Build(&s, f)
				check(id+" "+win.name+" at "+strconv.FormatFloat(frac*100, 'f', 0, 64)+" %", &s, a, f)
			}
		}
	}
}

// pieceVA is the VA of the page a physical piece of side A shows first
// (at the lesson size each piece is one page).
func pieceVA(t *testing.T, tr *timeline.Translation, pa *Item) uint64 {
	t.Helper()
	switch pa.Ref.Kind {
	case RefChunk:
		return tr.Chunks[pa.Ref.Index].VA
	case RefMapping:
		return tr.Mappings[0].VA + uint64(pa.Ref.Index)*4096
	}
	t.Fatalf("a physical piece without a chunk or mapping: %+v", pa.Ref)
	return 0
}

// checkFramesCarryTheirBins: the VA strip shows its bins in BinColor
// order, and each physical frame of side A carries the colour of the bin
// its page is in, computed from the chunk's VA.
func checkFramesCarryTheirBins(t *testing.T, s *Scene, r *scenario.Result, where string) {
	t.Helper()
	tr := r.Timeline.Translation
	bins := find(s, "a/pm-bin")
	require.NotEmpty(t, bins, where)
	for i, b := range bins {
		assert.Equal(t, BinColor(i), b.Fill, where)
	}
	base, end := tr.Mappings[0].VA, uint64(0)
	for _, m := range tr.Mappings {
		end = max(end, m.VA+m.Bytes)
	}
	pages := (end - base) / 4096
	marks := map[int32]Color{}
	for _, m := range find(s, "a/pm-mark") {
		marks[m.Index] = m.Fill
	}
	pas := find(s, "a/pm-pa")
	require.Len(t, pas, int(pages), "%s: one frame a page", where)
	for _, pa := range pas {
		page := (pieceVA(t, tr, &pa) - base) / 4096
		want := BinColor(int(page * uint64(len(bins)) / pages))
		got, ok := marks[pa.Index]
		if assert.True(t, ok, "%s: frame of page %d has no bin mark", where, page) {
			assert.Equal(t, want, got, "%s: frame of page %d", where, page)
		}
	}
}

// checkFocusIsTheWalkedPage: side A's one line starts at the page the walk
// view shows (when the trace unit walked last) or the trace unit's
// pointer is on, and ends on that page's frame.
func checkFocusIsTheWalkedPage(t *testing.T, s *Scene, r *scenario.Result, at sim.Time, where string) {
	t.Helper()
	tr := r.Timeline.Translation
	links := find(s, "a/pm-link")
	if len(links) != 1 {
		return
	}
	va, ok := tr.PointerAt(0, at)
	require.True(t, ok, where)
	if steps, _ := tr.WalkAt(at); len(steps) > 0 && steps[0].Agent == tr.Pointers[0].Agent {
		va = steps[0].VA
	}
	base := tr.Mappings[0].VA
	page := int32((va - base) / 4096)
	assert.Equal(t, page, links[0].Ref.Index, "%s: the line is for the page at %#x", where, va)
	for _, pa := range find(s, "a/pm-pa") {
		if pieceVA(t, tr, &pa) == va&^4095 {
			assert.True(t, links[0].X2 >= pa.X && links[0].X2 <= pa.X+pa.W, "%s: the line ends on the frame of %#x (%.1f not in %.1f..%.1f)",
				where, va, links[0].X2, pa.X, pa.X+pa.W)
			return
		}
	}
	t.Errorf("%s: no frame for the page at %#x", where, va)
}

// A VA bin's number fits its band wherever a teacher opens an order-0
// map: on the page beside the panel, under a lesson's card (1024x768:
// 436 px; the 960x600 embed: 421 px), in the embed and in presentation
// mode (1280x720; 557 px under a lesson's card). Each bin's band is at
// least smallSz px tall, scaled as the stage is, and carries its number
// inside it (a digit's height, 0.72 of the text size, above its
// baseline); the room it takes puts no label over another.
func TestBinNumbersFitTheirBands(t *testing.T) {
	wins := []mapWindow{{"page", 1440, 900, 340, 0, 0, false}, {"lesson page", 1024, 436, 340, 0, 0, false}, {"embed", 960, 600, 0, 0, 40, false},
		{"lesson embed", 960, 421, 0, 0, 40, false}, {"present", 1280, 720, 0, 40, 0, true}, {"lesson present", 1280, 557, 0, 40, 0, true}}
	order0Frames(t, wins, []float64{0, 0.5, 1}, func(where string, s *Scene, _ *scenario.Result, _ *Frame) {
		assert.Empty(t, append(textOverlaps(s), labelOverCells(s)...), where)
		bins, labels := find(s, "a/pm-bin"), find(s, "a/pm-bin-label")
		require.NotEmpty(t, bins, "%s: no VA bins", where)
		assert.Len(t, labels, len(bins), "%s: bins without their number", where)
		for i, bin := range bins {
			assert.GreaterOrEqual(t, bin.H, smallSz*s.Scale, "%s: bin %d's band", where, i+1)
			if i < len(labels) {
				y0, y1 := labels[i].Y-labels[i].Size*0.72, labels[i].Y
				assert.True(t, y0 >= bin.Y-1 && y1 <= bin.Y+bin.H+1, "%s: bin %d's number [%.0f..%.0f] is not inside its band [%.0f..%.0f]", where, i+1, y0, y1, bin.Y, bin.Y+bin.H)
			}
		}
	})
}
