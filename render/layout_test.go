package render

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// textBox is the box a text item covers, from its own size and alignment.
func textBox(it *Item) (x0, y0, x1, y1 float32) {
	x, w := it.textSpan()
	return x, it.Y - it.Size*0.8, x + w, it.Y + it.Size*0.25
}

// layoutProblems lists the text items of s that are too small, cut off by
// the stage's edges, or overlap another text.
func layoutProblems(s *Scene, left, w, h, minSize float32) []string {
	var out []string
	for i := range s.Items {
		it := &s.Items[i]
		if it.Kind != KindText || it.Text == "" {
			continue
		}
		x0, y0, x1, y1 := textBox(it)
		if it.Size < minSize {
			out = append(out, fmt.Sprintf("%s %q is %.0f px", it.ID, it.Text, it.Size))
		}
		if x0 < left-0.5 || x1 > w+0.5 || y0 < -0.5 || y1 > h+0.5 {
			out = append(out, fmt.Sprintf("%s %q [%.0f..%.0f]x[%.0f..%.0f] is cut off by the stage %.0f..%.0f x 0..%.0f", it.ID, it.Text, x0, x1, y0, y1, left, w, h))
		}
	}
	return append(out, textOverlaps(s)...)
}

func stateAt(r *scenario.Result, t sim.Time) *timeline.State {
	var st timeline.State
	r.Timeline.StateAt(r.Timeline.EventsUntil(t), &st)
	return &st
}

// At 1024x768 with the panel open (340 px), in presentation mode and in
// the 960x600 embed, every stage text is at least 14 px, inside the stage
// and clear of the others, for every scenario's default A beside each other
// policy, at start, middle and end.
func TestStageTextIsReadableAndUnclippedOnSmallScreens(t *testing.T) {
	for _, sc := range catalog.Registry().All() {
		spec := sc.Spec()
		a := runPolicy(t, sc, spec.DefaultA)
		var bs []string
		for _, p := range spec.Policies {
			if p.ID != spec.DefaultA {
				bs = append(bs, p.ID)
			}
		}
		for _, bp := range bs {
			b := runPolicy(t, sc, bp)
			end := max(a.End, b.End)
			for _, size := range []struct {
				left, w, h, top, bottom float32
				narrate                 bool
			}{
				{left: 340, w: 1024, h: 768},              // panel open
				{w: 1024, h: 768, top: 40, narrate: true}, // presentation
				{w: 960, h: 600, bottom: 40},              // embed
			} {
				for _, at := range []sim.Time{0, end / 2, end} {
					f := &Frame{A: Side{Result: a, State: stateAt(a, at), Time: min(at, a.End)}, B: Side{Result: b, State: stateAt(b, at), Time: min(at, b.End)},
						Cursor: at, Length: end, Left: size.left, W: size.w, H: size.h, Top: size.top, Bottom: size.bottom, Narrate: size.narrate}
					var s Scene
					NewStage().Build(&s, f)
					assert.Empty(t, layoutProblems(&s, size.left, size.w, size.h-size.bottom, 14),
						"%s %s/%s %.0fx%.0f left %.0f narrate %v at %v", spec.ID, spec.DefaultA, bp, size.w, size.h, size.left, size.narrate, at)
					if size.narrate {
						assert.NotEmpty(t, find(&s, "a/narration"), "%s at %v: presentation mode shows no narration text on the stage", spec.ID, at)
					}
				}
			}
		}
	}
}

func TestLayoutProblemsFindsOverlapAndClipping(t *testing.T) {
	var s Scene
	s.Reset(200, 100)
	s.Text("a", 10, 20, "hello", 14, Text, AlignStart)
	s.Text("b", 20, 22, "world", 14, Text, AlignStart)
	s.Text("c", 195, 50, "cut", 14, Text, AlignStart)
	s.Text("d", 10, 90, "tiny", 11, Text, AlignStart)
	assert.Len(t, layoutProblems(&s, 0, 200, 100, 14), 3)
}

// The panel's charts (316x190) and a document's (640x360): title, legend,
// axis labels and ticks stay inside and clear of each other.
func TestChartTextDoesNotOverlap(t *testing.T) {
	for _, sc := range catalog.Registry().All() {
		r := runPolicy(t, sc, sc.Spec().DefaultA)
		for i := range r.Charts {
			for _, size := range [][2]float32{{316, 190}, {640, 360}} {
				var s Scene
				ChartScene(&s, &r.Charts[i], size[0], size[1])
				assert.Empty(t, layoutProblems(&s, 0, size[0], size[1], 10), "%s chart %s at %.0fx%.0f", sc.Spec().ID, r.Charts[i].ID, size[0], size[1])
			}
		}
	}
}

// shortened lists the texts of s with one of ids that Fit cut short.
func shortened(s *Scene, ids ...string) []string {
	var out []string
	for i := range s.Items {
		it := &s.Items[i]
		if it.Kind != KindText || !strings.HasSuffix(it.Text, "…") {
			continue
		}
		for _, id := range ids {
			if it.ID == id {
				out = append(out, it.ID+" "+strconv.Quote(it.Text))
			}
		}
	}
	return out
}

// At 1024x768 with the panel open the counters' names, the rings' labels and
// flags and the cache windows' labels are whole words, not cut with an
// ellipsis (etr's tmc_update_etr_buffer parts and pmu events, "ETR buffer
// ring", "no STS.FULL", "L1D 0..15 of 128"), and so are the page map's
// label and notes, for every scenario's defaults.
func TestStageNamesStayWholeAt1024(t *testing.T) {
	for _, sc := range catalog.Registry().All() {
		spec := sc.Spec()
		a, b := runPolicy(t, sc, spec.DefaultA), runPolicy(t, sc, spec.DefaultB)
		end := max(a.End, b.End)
		for _, at := range []sim.Time{0, end} {
			f := &Frame{A: Side{Result: a, State: stateAt(a, at), Time: min(at, a.End)}, B: Side{Result: b, State: stateAt(b, at), Time: min(at, b.End)},
				Cursor: at, Length: end, Left: 340, W: 1024, H: 768}
			var s Scene
			NewStage().Build(&s, f)
			assert.Empty(t, shortened(&s, "counters/name", "a/ring-label", "b/ring-label", "a/cache-label", "b/cache-label",
				"a/pm-label", "b/pm-label", "a/pm-note", "b/pm-note"), "%s at %v", spec.ID, at)
		}
	}
}

// In presentation mode at 1024x768 (the panel, with the full text, closed)
// every default narration step is shown whole on the stage, at 14 px or
// more, without a cut last line: a long step takes more of its column.
func TestPresentedNarrationIsWholeAt1024(t *testing.T) {
	for _, sc := range catalog.Registry().All() {
		spec := sc.Spec()
		a, b := runPolicy(t, sc, spec.DefaultA), runPolicy(t, sc, spec.DefaultB)
		end := max(a.End, b.End)
		for _, res := range []*scenario.Result{a, b} {
			for _, step := range res.Narration {
				at := step.T
				f := &Frame{A: Side{Result: a, State: stateAt(a, at), Time: min(at, a.End)}, B: Side{Result: b, State: stateAt(b, at), Time: min(at, b.End)},
					Cursor: at, Length: end, W: 1024, H: 768, Top: 40, Narrate: true}
				var s Scene
				NewStage().Build(&s, f)
				assert.Empty(t, shortened(&s, "a/narration", "b/narration"), "%s at %q (%v)", spec.ID, step.Title, at)
				assert.Empty(t, layoutProblems(&s, 0, 1024, 768, 14), "%s at %q (%v)", spec.ID, step.Title, at)
			}
		}
	}
}

// Presentation mode reads from the back of a room: on a 720p projector
// (1280x720, the bar over the top 40 px) and a 1080p one, every text of
// every scenario's stage, read from the scene's own text items, is at
// least 18 px, inside the window and clear of the others, for the default
// pair at the start, the end and each narration step of either side.
func TestPresentedStageTextIsAtLeast18px(t *testing.T) {
	for _, sc := range catalog.Registry().All() {
		spec := sc.Spec()
		a, b := runPolicy(t, sc, spec.DefaultA), runPolicy(t, sc, spec.DefaultB)
		end := max(a.End, b.End)
		times := []sim.Time{0, end}
		for _, res := range []*scenario.Result{a, b} {
			for _, step := range res.Narration {
				times = append(times, step.T)
			}
		}
		for _, size := range [][2]float32{{1280, 720}, {1920, 1080}} {
			for _, at := range times {
				f := &Frame{A: Side{Result: a, State: stateAt(a, at), Time: min(at, a.End)}, B: Side{Result: b, State: stateAt(b, at), Time: min(at, b.End)},
					Cursor: at, Length: end, W: size[0], H: size[1], Top: 40, Narrate: true}
				var s Scene
				NewStage().Build(&s, f)
				require.NotEmpty(t, append(find(&s, "a/narration"), find(&s, "b/narration")...), "%s at %v: no narration on the stage", spec.ID, at)
				assert.Empty(t, layoutProblems(&s, 0, size[0], size[1], presentSz), "%s %.0fx%.0f at %v", spec.ID, size[0], size[1], at)
			}
		}
	}
}

// textOverlaps lists the pairs of texts of s that overlap.
func textOverlaps(s *Scene) []string {
	var out []string
	var texts []*Item
	for i := range s.Items {
		if it := &s.Items[i]; it.Kind == KindText && it.Text != "" {
			texts = append(texts, it)
		}
	}
	for i, a := range texts {
		ax0, ay0, ax1, ay1 := textBox(a)
		for _, b := range texts[i+1:] {
			bx0, by0, bx1, by1 := textBox(b)
			if ax0 < bx1-1 && bx0 < ax1-1 && ay0 < by1-1 && by0 < ay1-1 {
				out = append(out, fmt.Sprintf("%s %q overlaps %s %q", a.ID, a.Text, b.ID, b.Text))
			}
		}
	}
	return out
}
