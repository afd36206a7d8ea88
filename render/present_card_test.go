package render

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/lesson"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// cardStages are the stages a presented lesson's open card leaves, in CSS
// pixels: at 1280x720 the card capped by style.css (444), stop 4's answer
// (449), stop 5's (501), stops 1-3's (527) and a question (557); at
// 1920x1080 the cap (666) and a question; at 1024x768 the cap (45 % of
// the height: 422) and a question.
var cardStages = [][2]float32{{1280, 444}, {1280, 449}, {1280, 501}, {1280, 527}, {1280, 557},
	{1920, 666}, {1920, 917}, {1024, 422}, {1024, 605}}

// givesWay are the items a presented stage with its card open may leave
// out of the full window's: the narration (the card stands in its place)
// and the timeline and counters' row, which the stage shows when there is
// room (and which keep their values back before the reveal anyway).
var givesWay = []string{"narration", "caption", "timeline", "counters/"}

func givenWay(id string) bool {
	for _, v := range givesWay {
		if strings.Contains(id, v) {
			return true
		}
	}
	return false
}

// lostFrom lists the ids of whole's items that s does not draw, but for
// those givenWay.
func lostFrom(whole, s *Scene) []string {
	have := map[string]bool{}
	for _, it := range s.Items {
		have[it.ID] = true
	}
	var lost []string
	for _, it := range whole.Items {
		if !have[it.ID] && !givenWay(it.ID) {
			have[it.ID] = true
			lost = append(lost, it.ID)
		}
	}
	sort.Strings(lost)
	return lost
}

// A lesson presented with its card open under the stage (Frame.Card)
// draws no narration row (the card takes its place) and is drawn at the
// presentation scale of the window's width: at every stop of the dma path,
// with the question and with the answer, at the start, the end and each
// narration step, every stage text is at least 18 px at 1280 wide (and
// 1920), as large as the full window's at 1024, inside the stage and clear
// of the others and of the cells, with the same mechanism as the full
// window's stage. Folded (the stage has the whole window back), the
// narration row is drawn, whole, at 18 px or more.
func TestPresentedLessonWithCardOpen(t *testing.T) {
	p, err := lesson.Get("dma")
	require.NoError(t, err)
	for n, stop := range p.Stops {
		a, b := sizedRun(t, stop.Scenario, stop.A, scenario.SizeLesson), sizedRun(t, stop.Scenario, stop.B, scenario.SizeLesson)
		for _, at := range stepTimes(a, b) {
			whole := presented(a, b, at)
			name := fmt.Sprintf("stop %d (%s) at %v", n+1, stop.Scenario, at)
			require.NotEmpty(t, append(find(whole, "a/narration"), find(whole, "b/narration")...), "%s folded: no narration", name)
			assert.Empty(t, shortened(whole, "a/narration", "b/narration", "a/caption", "b/caption"), "%s folded", name)
			assert.Empty(t, layoutProblems(whole, 0, 1280, 720, presentSz), "%s folded", name)
			for _, size := range cardStages {
				for _, masked := range []bool{true, false} {
					f := cursorFrame(a, b, at)
					f.W, f.H, f.Top, f.Narrate, f.Card, f.Masked = size[0], size[1], 40, true, true, masked
					var s Scene
					NewStage().Build(&s, &f)
					at := fmt.Sprintf("%s %.0fx%.0f masked=%v", name, size[0], size[1], masked)
					assert.Empty(t, append(find(&s, "a/narration"), find(&s, "b/narration")...), "%s: a narration row under the card", at)
					least := presentSz * min(1, size[0]/presentW)
					assert.Empty(t, layoutProblems(&s, 0, size[0], size[1], least-0.01), at)
					assert.Empty(t, labelOverCells(&s), at)
					assert.Empty(t, lostFrom(whole, &s), "%s: mechanism left out", at)
				}
			}
		}
	}
}

// The scale of a presented stage with its card open is the width's as long
// as the stage keeps presentCardLayoutH of it, and no larger than the
// full window's: the card's cap in style.css (100vh - 34.7vw) leaves it
// that much.
func TestPresentScaleWithCardOpen(t *testing.T) {
	for _, c := range []struct {
		w, h, k float32
	}{
		{1280, 720, presentMinScale},
		{1280, 444, presentMinScale},
		{1280, 400, 400.0 / presentCardLayoutH},
		{1920, 666, 1920 / presentLayoutW},
		{1024, 422, 1024 / presentLayoutW},
		{800, 300, 1},
	} {
		f := Frame{W: c.w, H: c.h, Narrate: true, Card: true}
		assert.InDelta(t, c.k, presentScale(&f), 1e-4, "%.0fx%.0f", c.w, c.h)
		f.Card = false
		assert.LessOrEqual(t, presentScale(&f), c.k+1e-4, "%.0fx%.0f: the card made it smaller", c.w, c.h)
	}
	// style.css caps the card at 100vh - 34.7vw: the stage keeps at
	// least 0.347 of its width, at least presentCardLayoutH units at the
	// width's scale.
	assert.GreaterOrEqual(t, float32(0.347), presentCardLayoutH/presentLayoutW)
}
