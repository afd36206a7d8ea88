//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/internal/embedpage"
	"github.com/dmaviz/dmaviz/lesson"
	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/site/firstview"
)

// preStage is the pre-rendered stage's SVG as the browser received it.
const preStage = `(async () => { const i = document.querySelector("#fv-stage img"); return i ? await (await fetch(i.src)).text() : ""; })()`

// preCardShows says the pre-rendered lesson card is on the page with its
// question and Reveal disabled.
const preCardShows = `!!document.querySelector(".first-card #first-lesson-question") && document.getElementById("first-lesson-reveal").disabled`

// renderStop is the stop's view as the site builder draws it from its
// URL (query) at the stage size w x h: the stop as the page opens it,
// before the reveal.
func renderStop(t *testing.T, query string, w, h int) string {
	t.Helper()
	v, err := firstview.Render(catalog.Registry(), platform.Parameters, strings.TrimPrefix(query, "?"), w, h)
	require.NoError(t, err, "rendering %s", query)
	return string(v.SVG)
}

// stageArea is the box the stage lays itself out in, as x,y,w,h: before the
// take-over the pre-rendered stage's; after it the live canvas less the
// panel beside it (a page) or the embed's bar under it (presentation
// mode's bar lies over the stage, which keeps clear of it as the
// pre-rendered figure does).
const stageArea = `(() => {
	const fv = document.getElementById("fv-stage");
	if (fv) { const r = fv.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }
	const c = document.querySelector("canvas").getBoundingClientRect();
	const p = document.getElementById("panel-mount").getBoundingClientRect();
	const cl = document.body.classList;
	if (cl.contains("embed")) return [c.x, c.y, c.width, p.top - c.y];
	if (cl.contains("collapsed")) return [c.x, c.y, c.width, c.height];
	return [p.right, c.y, c.right - p.right, c.height];
})()`

// checkSameBox checks that the stage's box after the take-over is the
// pre-rendered one's, within 2 px.
func checkSameBox(t *testing.T, b *browser, before []float64) {
	t.Helper()
	after := eval[[]float64](t, b, stageArea)
	t.Logf("stage box before %v, after %v", before, after)
	require.Len(t, after, 4)
	for i, name := range []string{"x", "y", "width", "height"} {
		assert.InDelta(t, before[i], after[i], 2, "the stage's %s moved at the take-over (before %v, after %v)", name, before, after)
	}
}

// checkPreLesson checks, before main.wasm is served, that the page shows
// stop n's pre-rendered view: its question and position in the lesson
// card over a drawn stage whose SVG is `dmaviz export` of the stop's URL
// (query) at w x h, with no answer figure (the counters' values "?"), in
// a box ending above the card. It returns that box.
func checkPreLesson(t *testing.T, b *browser, query string, n, w, h int) []float64 {
	t.Helper()
	p, err := lesson.Get("dma")
	require.NoError(t, err)
	stop := p.Stop(n)
	b.waitFor(t, fmt.Sprintf("stop %d's first view", n), `dmavizFirst.shownAt > 0 && `+preCardShows)
	require.Equal(t, 0.0, eval[float64](t, b, `dmaviz.wasmReadyAt`), "main.wasm was compiled before the first view")
	t.Logf("stop %d: first view %.0f ms after navigation", n, eval[float64](t, b, `dmavizFirst.shownAt`))
	assert.Equal(t, stop.Question, eval[string](t, b, `document.querySelector("#first-lesson-question p").textContent`), "the stop's question")
	assert.Equal(t, fmt.Sprintf("Stop %d of %d", n, len(p.Stops)), eval[string](t, b, `document.getElementById("first-lesson-pos").textContent`))
	assert.Equal(t, stop.Title, eval[string](t, b, `document.getElementById("first-lesson-title").textContent`))
	assert.False(t, eval[bool](t, b, `!!document.getElementById("first-lesson-answer")`), "the answer before the reveal")
	card := eval[[]float64](t, b, `(r => [r.width, r.height, r.top])(document.querySelector(".first-card").getBoundingClientRect())`)
	assert.True(t, card[0] > 300 && card[1] > 100, "the card is not laid out as the live one (%v)", card)
	assert.True(t, eval[bool](t, b, `(() => { const i = document.querySelector("#fv-stage img"); return i.complete && i.naturalWidth > 0; })()`), "the pre-rendered stage is not drawn")
	box := eval[[]float64](t, b, stageArea)
	assert.LessOrEqual(t, box[1]+box[3], card[2]+0.5, "the pre-rendered stage %v runs under the card (top %.0f)", box, card[2])
	b.screenshot(t)
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	svg, err := chromedp.Run(ctx, chromedp.Evaluate[string](preStage, chromedp.EvalAwaitPromise))
	require.NoError(t, err)
	assert.True(t, svg == renderStop(t, query, w, h), "stop %d: the pre-rendered stage (%d bytes) is not the stop drawn from %s", n, len(svg), query)
	assert.NotRegexp(t, `data-id="counters/values"[^>]*>[^?<][^<]*</text>`, svg, "stop %d: a counter's value before the reveal", n)
	return box
}

// checkCardHanded checks that the live lesson card replaced the
// pre-rendered one as soon as it rendered, before the take-over, and is
// the only card on the page.
func checkCardHanded(t *testing.T, b *browser) {
	t.Helper()
	assert.Equal(t, 1, eval[int](t, b, `document.querySelectorAll("#lesson").length`), "one lesson card")
	handed := eval[[]float64](t, b, `[dmavizFirst.cardAt, dmavizFirst.liveAt]`)
	assert.True(t, handed[0] > 0 && handed[0] <= handed[1], "the live card did not replace the pre-rendered one before the take-over (at %.0f ms, live at %.0f ms)", handed[0], handed[1])
}

// A lesson page, and a lesson in presentation mode on a 720p projector,
// shows the stop's question and stage before main.wasm arrives, and the
// live lesson card and stage take over: the card asks the same question
// at the same place and Reveal works.
func TestLessonPageFirstViewBeforeWasm(t *testing.T) {
	for _, c := range []struct {
		name, query string
		stop, w, h  int
		stageW      int // the pre-rendered stage's size
		stageH      int
	}{
		{"page", "?lesson=dma&stop=3", 3, 1440, 900, 1100, 745},
		{"presentation", "?lesson=dma&stop=4&panel=collapsed", 4, 1280, 720, 1280, 557},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := newGatedSite(t)
			b := newBrowser(t)
			require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(int64(c.w), int64(c.h))))
			b.do(t, "opening a lesson stop", chromedp.Navigate(g.url+c.query))
			box := checkPreLesson(t, b, c.query, c.stop, c.stageW, c.stageH)
			assert.True(t, eval[bool](t, b, `!!document.querySelector("#fv-panel .first-card")`), "the card comes with the pre-rendered panel")
			before := eval[string](t, b, `(r => [r.x, r.y, r.width].map(Math.round).join(","))(document.querySelector(".first-card").getBoundingClientRect())`)
			question := eval[string](t, b, `document.querySelector("#first-lesson-question p").textContent`)

			g.open()
			b.waitFor(t, "the live simulator", `dmavizFirst.liveAt > 0 && !!document.getElementById("lesson-question")`)
			assert.Zero(t, eval[int](t, b, `document.querySelectorAll(".first-card, #fv-stage, #fv-panel").length`), "the pre-rendered view is still on the page")
			checkCardHanded(t, b)
			checkSameBox(t, b, box)
			assert.Equal(t, question, eval[string](t, b, `document.querySelector("#lesson-question p").textContent`), "the live card's question")
			assert.Equal(t, before, eval[string](t, b, `(r => [r.x, r.y, r.width].map(Math.round).join(","))(document.getElementById("lesson").getBoundingClientRect())`), "the card moved when the live one took over (x,y,w)")
			click(t, b, "lesson-reveal")
			b.waitFor(t, "the answer", answerShows)
			assert.Empty(t, b.consoleErrors(), "console errors")
		})
	}
}

// A lesson embed as a docs author pastes it (no autoplay=1) shows the
// stop's question and stage and fetches no main.wasm; "Run live" hands
// over to the live card and stage.
func TestLessonEmbedFirstViewUntilRunLive(t *testing.T) {
	g := newGatedSite(t)
	b := newBrowser(t)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(960, 600)))
	b.do(t, "opening a lesson embed", chromedp.Navigate(g.url+"?lesson=dma&stop=2&embed=1"))
	box := checkPreLesson(t, b, "?lesson=dma&stop=2&embed=1", 2, 960, 381)
	assert.True(t, eval[bool](t, b, `!!document.getElementById("run-live")`), "no Run live button")
	assert.False(t, eval[bool](t, b, `!!document.querySelector(".first-placeholder")`), "the generic placeholder")
	time.Sleep(500 * time.Millisecond)
	assert.Zero(t, g.Wasm.Load(), "a lesson embed fetched main.wasm before a click")

	g.open()
	b.do(t, "clicking Run live", chromedp.Click(chromedp.ID("run-live")))
	b.waitFor(t, "the live simulator", `dmavizFirst.liveAt > 0 && dmaviz.resultsReadyAt > 0 && !!document.getElementById("lesson-question")`)
	assert.Equal(t, int32(1), g.Wasm.Load(), "main.wasm requests after the click")
	assert.Zero(t, eval[int](t, b, `document.querySelectorAll(".first-card, #fv-stage, #fv-card, #fv-bar").length`), "the pre-rendered view is still on the page")
	checkCardHanded(t, b)
	checkSameBox(t, b, box)
	assert.Equal(t, "Stop 2 of 5", eval[string](t, b, `document.getElementById("lesson-pos").textContent`))
	click(t, b, "lesson-reveal")
	b.waitFor(t, "the answer", answerShows)
	assert.Empty(t, b.consoleErrors(), "console errors")
}

// A docs page embedding the lesson's five stops transfers well under
// 1 MiB and fetches no main.wasm before a click, each embed showing its
// stop's question.
func TestFiveLessonEmbedsLoadNothingUntilClicked(t *testing.T) {
	var queries []string
	for n := 1; n <= 5; n++ {
		queries = append(queries, fmt.Sprintf("lesson=dma&stop=%d&embed=1", n))
	}
	g := newGatedSiteOf(t, queries)
	g.open()
	b := newBrowser(t)
	b.do(t, "opening five lesson embeds", chromedp.Navigate(g.url+strings.TrimPrefix(embedpage.Path, "/")))
	b.waitFor(t, "five first views", `[...document.querySelectorAll("iframe")].filter(f => f.contentWindow.dmavizFirst && f.contentWindow.dmavizFirst.shownAt > 0 && f.contentDocument.getElementById("first-lesson-question")).length === 5`)
	time.Sleep(time.Second) // anything late would show now
	before := g.Sent.Load()
	assert.Zero(t, g.Wasm.Load(), "an embed fetched main.wasm before a click")
	assert.Less(t, before, int64(1<<20)/2, "bytes transferred before a click")
	t.Logf("five lesson embeds: %d bytes before a click", before)
	pos := eval[[]string](t, b, `[...document.querySelectorAll("iframe")].map(f => f.contentDocument.getElementById("first-lesson-pos").textContent)`)
	assert.Equal(t, []string{"Stop 1 of 5", "Stop 2 of 5", "Stop 3 of 5", "Stop 4 of 5", "Stop 5 of 5"}, pos)
}

// A lesson embed with no pre-rendered view (the teacher's own B) names its
// stop in the placeholder, not the default scenario.
func TestLessonEmbedPlaceholderNamesTheStop(t *testing.T) {
	g := newGatedSite(t)
	g.open()
	b := newBrowser(t)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(960, 600)))
	b.do(t, "opening a lesson embed with no view", chromedp.Navigate(g.url+"?lesson=dma&stop=2&b=coherent&embed=1"))
	b.waitFor(t, "its placeholder", `document.querySelector(".first-placeholder .first-title")`)
	assert.Equal(t, "Stop 2 of 5: Uncached is safe, and slow", eval[string](t, b, `document.querySelector(".first-placeholder .first-title").textContent`))
	time.Sleep(500 * time.Millisecond)
	assert.Zero(t, g.Wasm.Load(), "an embed fetched main.wasm before a click")
}
