//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lessonStops are the DMA lesson's scenarios in order.
var lessonStops = []string{"demo", "etr", "sg-sync", "trbe-aux", "smmu-bypass"}

// atStop waits until the page shows stop n of the DMA lesson: the URL
// carries it, the card says "Stop n of 5", and the runs shown are its
// scenario's.
func atStop(t *testing.T, b *browser, n int) {
	t.Helper()
	b.waitFor(t, fmt.Sprintf("stop %d (%s)", n, lessonStops[n-1]), fmt.Sprintf(
		`location.search.includes("lesson=dma&stop=%d") && document.getElementById("lesson-pos").textContent === "Stop %d of 5" && `+
			`dmaviz.resultsData() && JSON.parse(dmaviz.resultsData()).Scenario === %q && !dmaviz.runState().running`,
		n, n, lessonStops[n-1]))
}

const (
	questionShows = `!!document.getElementById("lesson-question") && !document.getElementById("lesson-answer")`
	answerShows   = `!document.getElementById("lesson-question") && !!document.getElementById("lesson-answer")`
)

// openLesson opens query (a lesson stop) in a w x h window and waits for
// its card, its results and the stage's first frame.
func openLesson(t *testing.T, b *browser, w, h int64, query string) {
	t.Helper()
	b.do(t, fmt.Sprintf("a %dx%d window", w, h), chromedp.EmulateViewport(w, h))
	b.do(t, "opening "+query, chromedp.Navigate(siteURL+query))
	b.waitFor(t, "the card, results and stage", `window.dmaviz && dmaviz.resultsReadyAt > 0 && dmaviz.stageReadyAt > 0 && document.getElementById("lesson-pos")`)
}

func click(t *testing.T, b *browser, id string) {
	t.Helper()
	// A script's click: chromedp.Click would scroll the panel to the button.
	b.do(t, "clicking "+id, chromedp.Evaluate[chromedp.Void](`document.getElementById(`+jsString(id)+`).click()`))
}

// The lesson path steps through its five stops: each opens its scenario
// (the runs shown change), asks its question before the reveal shows the
// answer, and the URL carries the stop; the buttons and a clicker's
// PageDown/PageUp move between them.
func TestLessonPathStepsThroughItsStops(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?lesson=dma")
	atStop(t, b, 1)
	assert.True(t, eval[bool](t, b, questionShows), "stop 1 asks its question first")
	assert.Contains(t, eval[string](t, b, `document.getElementById("lesson-question").textContent`), "Which copy is faster")
	click(t, b, "lesson-reveal")
	b.waitFor(t, "the answer", answerShows)
	assert.Contains(t, eval[string](t, b, `document.getElementById("lesson-answer").textContent`), "4,096 bytes stale")
	assert.True(t, eval[bool](t, b, `document.getElementById("lesson-prev").disabled`), "no stop before the first")
	for n := 2; n <= 5; n++ {
		click(t, b, "lesson-next")
		atStop(t, b, n)
		assert.True(t, eval[bool](t, b, questionShows), "stop %d asks its question before the reveal", n)
	}
	assert.True(t, eval[bool](t, b, `document.getElementById("lesson-next").disabled`), "no stop after the last")

	// A clicker: PageUp goes back a stop from a question, PageDown shows
	// the answer, then the next stop.
	b.do(t, "focusing the page", chromedp.Evaluate[chromedp.Void](`document.activeElement && document.activeElement.blur()`))
	b.do(t, "PageUp", chromedp.KeyEvent(kb.PageUp))
	atStop(t, b, 4)
	b.do(t, "PageDown", chromedp.KeyEvent(kb.PageDown))
	b.waitFor(t, "stop 4's answer", answerShows)
	assert.Contains(t, eval[string](t, b, `location.search`), "stop=4", "the reveal stays at its stop")
	b.do(t, "PageDown", chromedp.KeyEvent(kb.PageDown))
	atStop(t, b, 5)
	assert.True(t, eval[bool](t, b, questionShows))
	click(t, b, "lesson-prev")
	atStop(t, b, 4)

	// The link a teacher shares opens that stop.
	openReady(t, b, "?lesson=dma&stop=3")
	atStop(t, b, 3)
	assert.True(t, eval[bool](t, b, questionShows))
}

// Bad lesson= and stop= values get a brief message naming the key and
// the allowed values, and the page goes on (the first stop, or no lesson).
func TestLessonBadValuesSaySo(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?lesson=dma&stop=9")
	atStop(t, b, 1)
	assert.Contains(t, eval[string](t, b, `document.getElementById("messages").textContent`), `stop: "9" is not allowed; allowed 1..5; using 1`)
	openReady(t, b, "?lesson=chemistry")
	assert.Contains(t, eval[string](t, b, `document.getElementById("messages").textContent`), `lesson: "chemistry" is not allowed; allowed dma`)
	assert.False(t, eval[bool](t, b, `!!document.getElementById("lesson")`), "no lesson card")
}

// smallestLessonText is the smallest font size (CSS px) of any visible
// text in the lesson card, with the teacher's note open.
const smallestLessonText = `(() => {
  const note = document.getElementById("lesson-note"); if (note) note.open = true;
  let min = 1e9;
  for (const e of document.querySelectorAll("#lesson *")) {
    const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    const r = e.getBoundingClientRect();
    if (!own || r.width === 0 || r.height === 0) continue;
    min = Math.min(min, parseFloat(getComputedStyle(e).fontSize));
  }
  return min;
})()`

// cardFits reports whether the lesson card lies inside the window and
// leaves at least half of it to the stage.
const cardFits = `(() => { const r = document.getElementById("lesson").getBoundingClientRect();
  return r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5 && r.height <= innerHeight / 2 + 1 && r.height > 40; })()`

// In presentation mode at 1280x720 the lesson's text is 18 px or more
// and the card leaves the stage most of the window; as a 960x600 embed
// the card shows and steps too.
func TestLessonInPresentationAndEmbed(t *testing.T) {
	b := newBrowser(t)
	openLesson(t, b, 1280, 720, "?lesson=dma&stop=2&panel=collapsed")
	atStop(t, b, 2)
	for _, phase := range []string{"question", "answer"} {
		assert.GreaterOrEqual(t, eval[float64](t, b, smallestLessonText), 18.0, "presentation, %s: lesson text under 18 px", phase)
		assert.True(t, eval[bool](t, b, cardFits), "presentation, %s: the card is off screen or covers more than half the stage", phase)
		click(t, b, "lesson-reveal")
	}
	click(t, b, "lesson-fold")
	b.waitFor(t, "the folded card", `!document.querySelector("#lesson .lesson-body") && document.getElementById("lesson").getBoundingClientRect().height < 80`)

	openLesson(t, b, 960, 600, "?lesson=dma&stop=3&embed=1&autoplay=1")
	atStop(t, b, 3)
	require.True(t, eval[bool](t, b, cardFits), "embed: the card is off screen or covers more than half the stage")
	assert.GreaterOrEqual(t, eval[float64](t, b, smallestLessonText), 18.0, "embed: lesson text under 18 px")
	click(t, b, "lesson-next")
	atStop(t, b, 4)
	assert.Contains(t, eval[string](t, b, `location.search`), "embed=1", "the embed stays an embed")
}

// stageBox is the stage canvas's box, the card's (or null) and whether
// the layout has settled: the style sheet's --lesson-h is the card's
// height (0 while it is folded up into presentation mode's bar row) and
// Ebiten has sized the canvas's pixels to its box.
const stageBox = `(() => {
  const canvas = document.querySelector("canvas"), c = canvas.getBoundingClientRect();
  const card = document.getElementById("lesson"), l = card && card.getBoundingClientRect();
  const below = l && !card.classList.contains("up");
  const lessonH = parseFloat(getComputedStyle(document.body).getPropertyValue("--lesson-h")) || 0;
  const settled = Math.abs(lessonH - (below ? l.height : 0)) <= 1 && Math.abs(canvas.height - Math.round(c.height * devicePixelRatio)) <= 1;
  const box = r => r && {left: r.left, top: r.top, right: r.right, bottom: r.bottom, height: r.height};
  return JSON.stringify({canvas: box(c), card: box(l), settled, innerHeight});
})()`

type rect struct{ Left, Top, Right, Bottom, Height float64 }

type stageLayout struct {
	Canvas      rect
	Card        *rect
	Settled     bool
	InnerHeight float64
}

func settledLayout(t *testing.T, b *browser, what string) stageLayout {
	t.Helper()
	b.waitFor(t, what+": the stage sized to the room the card leaves", `JSON.parse(`+stageBox+`).settled`)
	var l stageLayout
	require.NoError(t, json.Unmarshal([]byte(eval[string](t, b, stageBox)), &l))
	return l
}

// The lesson card never covers the stage: at 1440x900, 1024x768, in
// presentation mode at 1280x720 and as a 960x600 embed, with the question
// and with the (longer) answer, the card's box and the stage canvas's do
// not meet, the stage keeps at least half the window's height, and the
// card's text stays 18 px or more; folding the card gives the stage the
// room back (in presentation mode the whole window: the card's head goes
// up beside the transport), and closing it the whole window.
func TestLessonCardLeavesTheStage(t *testing.T) {
	b := newBrowser(t)
	for _, c := range []struct {
		w, h  int64
		query string
	}{
		{1440, 900, "?lesson=dma&stop=3"},
		{1024, 768, "?lesson=dma&stop=5"}, // the longest answer
		{1280, 720, "?lesson=dma&stop=2&panel=collapsed"},
		{960, 600, "?lesson=dma&stop=4&embed=1&autoplay=1"},
	} {
		size := fmt.Sprintf("%dx%d", c.w, c.h)
		openLesson(t, b, c.w, c.h, c.query)
		for _, phase := range []string{"question", "answer"} {
			if phase == "answer" {
				click(t, b, "lesson-reveal")
				b.waitFor(t, "the answer", answerShows)
			}
			l := settledLayout(t, b, size+" "+phase)
			require.NotNil(t, l.Card, "%s %s: no card", size, phase)
			k := *l.Card
			apart := l.Canvas.Bottom <= k.Top+0.5 || k.Bottom <= l.Canvas.Top+0.5 || l.Canvas.Right <= k.Left+0.5 || k.Right <= l.Canvas.Left+0.5
			assert.True(t, apart, "%s %s: the card %+v covers the stage %+v", size, phase, k, l.Canvas)
			assert.GreaterOrEqual(t, l.Canvas.Height, l.InnerHeight/2, "%s %s: the stage keeps %.0f px of %.0f", size, phase, l.Canvas.Height, l.InnerHeight)
			assert.GreaterOrEqual(t, eval[float64](t, b, smallestLessonText), 18.0, "%s %s: lesson text under 18 px", size, phase)
			t.Logf("%s %s: stage %.0f px high, card %.0f px", size, phase, l.Canvas.Height, k.Height)
			b.do(t, "closing the note", chromedp.Evaluate[chromedp.Void](`document.getElementById("lesson-note").open = false`))
		}
		click(t, b, "lesson-fold")
		b.waitFor(t, "the folded card", `!document.querySelector("#lesson .lesson-body")`)
		l := settledLayout(t, b, size+" folded")
		require.NotNil(t, l.Card)
		if strings.Contains(c.query, "panel=collapsed") {
			// Presentation mode: the head goes up beside the transport
			// and the stage has the whole window.
			bar := eval[float64](t, b, `document.getElementById("panel-mount").getBoundingClientRect().right`)
			assert.Zero(t, l.Card.Top, "%s folded: the card's head is not in the bar's row", size)
			assert.GreaterOrEqual(t, l.Card.Left, bar-0.5, "%s folded: the card's head covers the transport", size)
			assert.InDelta(t, l.InnerHeight, l.Canvas.Height, 0.5, "%s folded: the stage does not fill the window", size)
		} else {
			assert.InDelta(t, l.InnerHeight-l.Card.Height, l.Canvas.Height, 1.5, "%s folded: the stage does not take the room back", size)
		}
		assert.Less(t, l.Card.Height, 80.0, "%s folded: the card keeps more than its head line", size)
		click(t, b, "lesson-close")
		b.waitFor(t, "no card", `!document.getElementById("lesson")`)
		l = settledLayout(t, b, size+" closed")
		assert.InDelta(t, l.InnerHeight, l.Canvas.Height, 0.5, "%s closed: the stage does not fill the window", size)
	}
}
