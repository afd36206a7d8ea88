//go:build e2e

package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// playing starts the player if it rests and waits until it plays.
func playing(t *testing.T, b *browser) {
	t.Helper()
	b.do(t, "playing", chromedp.Evaluate[chromedp.Void](
		`(p => p.textContent === "Play" && p.click())(document.getElementById("btn-play"))`))
	b.waitFor(t, "playback to start", `document.getElementById("btn-play").textContent === "Pause"`)
}

// presentedStage checks the stage the page draws (the scene's own text
// items) at two moments while it plays: its smallest text is 18 px or
// more and no narration line is cut; with the card open no narration row
// is drawn (the card stands in its place), folded one is.
func presentedStage(t *testing.T, b *browser, what string, narrated bool) {
	t.Helper()
	for i := range 2 {
		b.do(t, "letting frames pass", chromedp.Poll[chromedp.Void](`new Promise(r => setTimeout(() => r(true), 400))`))
		s := summary(t, b)
		if i == 0 {
			t.Logf("%s: smallest stage text %.1f px (%s)", what, s.LeastText, s.LeastID)
		}
		assert.GreaterOrEqual(t, s.LeastText, 17.99, "%s: %s %q", what, s.LeastID, s.LeastWords)
		assert.Empty(t, cutNarration(s), "%s: narration cut", what)
		n := s.IDs["a/narration"] + s.IDs["b/narration"]
		if narrated {
			assert.Positive(t, n, "%s: no narration row on the stage", what)
		} else {
			assert.Zero(t, n, "%s: a narration row under the card, which stands in its place", what)
		}
	}
}

// A lesson presented on a 720p projector keeps its stage text 18 px or
// more at every stop of the dma path, with the question and with the
// answer, read from the scene's own text boxes while it plays: the open
// card below the stage takes the place of the stage's narration row, so
// the stage keeps the presentation scale (it drew 14 px text with the
// narration row squeezed in above the card). Folded, the card's head goes
// up beside the transport and the stage has the whole window back, its
// narration row whole at 18 px or more.
func TestPresentedLessonKeepsStageTextAt18px(t *testing.T) {
	b := newBrowser(t)
	openLesson(t, b, 1280, 720, "?lesson=dma&stop=1&panel=collapsed")
	for stop := 1; stop <= 5; stop++ {
		if stop > 1 {
			click(t, b, "lesson-next") // as a teacher goes on
		}
		atStop(t, b, stop)
		playing(t, b)
		for _, phase := range []string{"question", "answer"} {
			if phase == "answer" {
				click(t, b, "lesson-reveal")
				b.waitFor(t, "the answer", answerShows)
			}
			what := fmt.Sprintf("stop %d %s", stop, phase)
			l := settledLayout(t, b, what)
			require.NotNil(t, l.Card, "%s: no card", what)
			scroll := eval[bool](t, b, `(c => c.scrollHeight > c.clientHeight + 1)(document.getElementById("lesson"))`)
			t.Logf("%s: stage %.0f px, card %.0f px, card scrolls: %v", what, l.Canvas.Height, l.Card.Height, scroll)
			assert.LessOrEqual(t, l.Canvas.Bottom, l.Card.Top+0.5, "%s: the card covers the stage", what)
			presentedStage(t, b, what, false)
			saveShot(t, b, fmt.Sprintf("lesson-stop%d-%s-present-1280x720", stop, phase))
			click(t, b, "lesson-fold")
			b.waitFor(t, what+" folded: the card's head up in the bar's row",
				`(c => c && c.classList.contains("up") && c.getBoundingClientRect().top === 0)(document.getElementById("lesson"))`)
			l = settledLayout(t, b, what+" folded")
			assert.InDelta(t, l.InnerHeight, l.Canvas.Height, 0.5, "%s folded: the stage does not fill the window", what)
			presentedStage(t, b, what+" folded", true)
			// The stage's text starts below the bar and the card's head.
			top := eval[float64](t, b, `Math.max(document.getElementById("lesson").getBoundingClientRect().bottom,
				document.getElementById("panel-mount").getBoundingClientRect().bottom)`)
			assert.GreaterOrEqual(t, summary(t, b).TextTop, top-0.5, "%s folded: stage text under the card's head", what)
			saveShot(t, b, fmt.Sprintf("lesson-stop%d-%s-present-1280x720-folded", stop, phase))
			click(t, b, "lesson-fold")
			b.waitFor(t, what+": the card back below the stage", `(c => c && !c.classList.contains("up") && !!c.querySelector(".lesson-body"))(document.getElementById("lesson"))`)
		}
	}
}
