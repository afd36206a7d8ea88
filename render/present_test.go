package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// cellBox is the box a cell of the stage covers (a grid's square, a cache
// way, an arc of a ring), false for an item that is not a cell.
func cellBox(it *Item) (x0, y0, x1, y1 float32, ok bool) {
	if it.Ref.Kind != RefCells && it.Ref.Kind != RefCacheWay {
		return 0, 0, 0, 0, false
	}
	switch it.Kind {
	case KindRect:
		if it.Fill == None {
			return 0, 0, 0, 0, false
		}
		return it.X, it.Y, it.X + it.W, it.Y + it.H, true
	case KindLine:
		t := it.StrokeWidth / 2
		return min(it.X, it.X2) - t, min(it.Y, it.Y2) - t, max(it.X, it.X2) + t, max(it.Y, it.Y2) + t, true
	}
	return 0, 0, 0, 0, false
}

// labelOverCells lists the texts of s drawn over or under a cell (a grid
// square, a cache way, a ring's arc).
func labelOverCells(s *Scene) []string {
	var out []string
	for i := range s.Items {
		t := &s.Items[i]
		if t.Kind != KindText || t.Text == "" {
			continue
		}
		tx0, ty0, tx1, ty1 := textBox(t)
		for j := range s.Items {
			c := &s.Items[j]
			cx0, cy0, cx1, cy1, ok := cellBox(c)
			if ok && tx0 < cx1-1 && cx0 < tx1-1 && ty0 < cy1-1 && cy0 < ty1-1 {
				out = append(out, fmt.Sprintf("%s %q [%.0f..%.0f]x[%.0f..%.0f] over %s %d [%.0f..%.0f]x[%.0f..%.0f]",
					t.ID, t.Text, tx0, tx1, ty0, ty1, c.ID, c.Index, cx0, cx1, cy0, cy1))
				break
			}
		}
	}
	return out
}

// lessonRun runs scenario id's policy at size.
func sizedRun(t *testing.T, id, policy string, size scenario.Size) *scenario.Result {
	t.Helper()
	sc, err := catalog.Registry().Get(id)
	require.NoError(t, err)
	p, err := sc.Spec().SizeParams(size)
	require.NoError(t, err)
	r, err := sc.Run(t.Context(), p, policy, nil)
	require.NoError(t, err)
	return r
}

// stepTimes are the start, the end and each narration step of either side.
func stepTimes(a, b *scenario.Result) []sim.Time {
	times := []sim.Time{0, max(a.End, b.End)}
	for _, r := range []*scenario.Result{a, b} {
		for _, st := range r.Narration {
			times = append(times, st.T)
		}
	}
	return times
}

// cursorFrame is the stage's frame of a and b at cursor at.
func cursorFrame(a, b *scenario.Result, at sim.Time) Frame {
	return Frame{A: Side{Result: a, State: stateAt(a, at), Time: min(at, a.End)}, B: Side{Result: b, State: stateAt(b, at), Time: min(at, b.End)},
		Cursor: at, Length: max(a.End, b.End)}
}

// teacherSizes are the windows a teacher opens the stage in: 1440x900 and
// 1024x768 beside the panel, presentation mode on a 720p projector, and
// the 960x600 embed.
var teacherSizes = []struct {
	name                    string
	left, w, h, top, bottom float32
	narrate                 bool
}{
	{name: "1440x900", left: 340, w: 1440, h: 900},
	{name: "1024x768", left: 340, w: 1024, h: 768},
	{name: "1280x720 presentation", w: 1280, h: 720, top: 40, narrate: true},
	{name: "960x600 embed", w: 960, h: 600, bottom: 40},
}

// No label (a pointer's or a ring's name, a flag, a cache window's
// label, any text of the stage) is drawn over or under a cell, nor over
// another label, in any scenario's default pair at the lesson size (what
// a bare link opens) and the paper size, at each narration step.
func TestLabelsStayOffCells(t *testing.T) {
	total := 0
	for _, sc := range catalog.Registry().All() {
		spec := sc.Spec()
		for _, size := range []scenario.Size{scenario.SizeLesson, scenario.SizePaper} {
			a, b := sizedRun(t, spec.ID, spec.DefaultA, size), sizedRun(t, spec.ID, spec.DefaultB, size)
			for _, sz := range teacherSizes {
				for _, at := range stepTimes(a, b) {
					f := cursorFrame(a, b, at)
					f.Left, f.W, f.H, f.Top, f.Bottom, f.Narrate = sz.left, sz.w, sz.h, sz.top, sz.bottom, sz.narrate
					var s Scene
					NewStage().Build(&s, &f)
					over := labelOverCells(&s)
					over = append(over, textOverlaps(&s)...)
					total += len(over)
					if len(over) > 0 {
						t.Errorf("%s %s %s at %v: %d labels over cells or labels, first %s", spec.ID, size, sz.name, at, len(over), over[0])
					}
				}
			}
		}
	}
	t.Logf("overlaps: %d", total)
}

// gridPitch is the distance between the rows of squares side's grid
// items are drawn in (the smallest, in screen pixels), 0 for fewer than
// two rows.
func gridPitch(s *Scene, id string) float32 {
	ys := map[float32]bool{}
	for _, it := range find(s, id) {
		ys[it.Y] = true
	}
	pitch := float32(0)
	for a := range ys {
		for b := range ys {
			if d := b - a; d > 0.5 && (pitch == 0 || d < pitch) {
				pitch = d
			}
		}
	}
	return pitch
}

// presented builds the stage of a and b at cursor at in presentation mode
// on a 720p projector (the bar over its top 40 px).
func presented(a, b *scenario.Result, at sim.Time) *Scene {
	f := cursorFrame(a, b, at)
	f.W, f.H, f.Top, f.Narrate = 1280, 720, 40, true
	var s Scene
	NewStage().Build(&s, &f)
	return &s
}

// In presentation mode at 1280x720, etr at the lesson size and at the
// paper size keeps its mechanism at every narration step: the buffer grid
// in rows of squares at least 10 px apart on both sides, B's stale copies
// drawn on it once the ETR has written the buffer, the ring dials with
// their pointers and the cache windows; and every narration step whole,
// no line cut with an ellipsis.
func TestPresentedETRKeepsGridAndWholeNarration(t *testing.T) {
	for _, size := range []scenario.Size{scenario.SizeLesson, scenario.SizePaper} {
		a, b := sizedRun(t, "etr", "coherent", size), sizedRun(t, "etr", "cached-sync-whole-when-full", size)
		staleSeen := false
		for _, at := range stepTimes(a, b) {
			s := presented(a, b, at)
			name := fmt.Sprintf("etr %s at %v", size, at)
			for _, side := range []string{"a/", "b/"} {
				assert.GreaterOrEqual(t, gridPitch(s, side+"grid"), float32(10), "%s: %sgrid's squares", name, side)
				assert.GreaterOrEqual(t, len(find(s, side+"ring-pointer")), 4, "%s: %s ring dials' pointers", name, side)
				assert.NotEmpty(t, find(s, side+"cache"), "%s: %s cache windows", name, side)
			}
			for _, it := range find(s, "b/grid") {
				staleSeen = staleSeen || it.Fill == CellColor(timeline.CellStaleCopy)
			}
			assert.NotEmpty(t, find(s, "a/narration"), "%s: no narration", name)
			assert.Empty(t, shortened(s, "a/narration", "b/narration", "a/caption", "b/caption"), name)
		}
		assert.True(t, staleSeen, "etr %s: B's stale copies are never drawn on the presented grid", size)
	}
}

// Every scenario at the lesson size (what a bare link opens), presented at
// 1280x720, shows its narration whole at every step of either side: no
// line is cut with an ellipsis, and each side's step at least by its
// caption (smmu-bypass's A begins its long steps 70 ns before B: in that
// moment B's step, shown whole until then, is its caption).
func TestPresentedNarrationIsWholeAt720p(t *testing.T) {
	for _, sc := range catalog.Registry().All() {
		spec := sc.Spec()
		a, b := sizedRun(t, spec.ID, spec.DefaultA, scenario.SizeLesson), sizedRun(t, spec.ID, spec.DefaultB, scenario.SizeLesson)
		for _, at := range stepTimes(a, b) {
			s := presented(a, b, at)
			require.NotEmpty(t, append(find(s, "a/narration"), find(s, "b/narration")...), "%s at %v: no narration", spec.ID, at)
			assert.Empty(t, shortened(s, "a/narration", "b/narration", "a/caption", "b/caption"), "%s at %v", spec.ID, at)
			captions := joinTexts(s, "a/caption") + joinTexts(s, "b/caption")
			if at < min(a.End, b.End) && !strings.Contains(captions, "A and B · ") {
				assert.Contains(t, captions, "A · ", "%s at %v: A's step has no caption", spec.ID, at)
				assert.Contains(t, captions, "B · ", "%s at %v: B's step has no caption", spec.ID, at)
			}
		}
	}
}
