//go:build e2e

package e2e

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// liveReady waits until the live simulator has taken over a full page.
func liveReady(t *testing.T, b *browser) {
	t.Helper()
	b.waitFor(t, "the live simulator", `window.dmaviz && dmaviz.resultsReadyAt > 0 && dmaviz.stageReadyAt > 0 && window.dmavizFirst && dmavizFirst.liveAt > 0 && document.getElementById("scrub")`)
}

// A first visit advances the cursor without input; a reader who asked for
// reduced motion gets a still page with a large play control on the
// stage, which plays.
func TestFirstVisitAdvancesTheCursorWithoutInput(t *testing.T) {
	b := newBrowser(t)
	b.setMotion(t, true)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(1440, 900)))
	b.do(t, "opening the page", chromedp.Navigate(siteURL))
	liveReady(t, b)
	b.waitFor(t, "the cursor to move with no input", `+document.getElementById("scrub").value > 0`)
	assert.Equal(t, "Pause", eval[string](t, b, `document.getElementById("btn-play").textContent`), "the play button while playing")
	assert.False(t, eval[bool](t, b, `!!document.getElementById("stage-play")`), "the large play control shows while playing")
	first := eval[float64](t, b, `+document.getElementById("scrub").value`)
	b.waitFor(t, "the cursor to move on", `+document.getElementById("scrub").value > `+jsNumber(first))

	// A link to a moment opens still, at that moment.
	b.do(t, "opening a link with a time", chromedp.Navigate(siteURL+"?scenario=demo&t=0"))
	liveReady(t, b)
	time.Sleep(time.Second)
	assert.Equal(t, "0", eval[string](t, b, `document.getElementById("scrub").value`), "a link with t=0 moved the cursor")

	b.setMotion(t, false)
	b.do(t, "opening the page with reduced motion", chromedp.Navigate(siteURL))
	liveReady(t, b)
	b.waitFor(t, "the large play control", `!!document.getElementById("stage-play")`)
	time.Sleep(time.Second)
	assert.Equal(t, "0", eval[string](t, b, `document.getElementById("scrub").value`), "with reduced motion the cursor moved without input")
	box := eval[[]float64](t, b, `(r => [r.x, r.y, r.width, r.height])(document.getElementById("stage-play").getBoundingClientRect())`)
	stage := stageRect(t, b)
	assert.GreaterOrEqual(t, box[0], float64(stage.Min.X), "the large play control is left of the stage")
	assert.GreaterOrEqual(t, box[2], 120.0, "the large play control's width")
	b.do(t, "clicking the large play control", chromedp.Click(chromedp.ID("stage-play")))
	b.waitFor(t, "the cursor to move", `+document.getElementById("scrub").value > 0`)
	b.waitFor(t, "the large play control to go", `!document.getElementById("stage-play")`)
	assert.Empty(t, b.consoleErrors(), "console errors")
}

// The panel's first screen is scenario, A/B, the player and the
// narration, parameters below: at 1440x900 and 1024x768 the play button
// and both sides' captions are on screen without scrolling the panel, and
// every narration step, stepped through, fits its caption.
func TestFirstScreenShowsPlayAndNarration(t *testing.T) {
	b := newBrowser(t)
	for _, size := range [][2]int64{{1440, 900}, {1024, 768}} {
		require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(size[0], size[1])))
		for _, q := range []string{"", "?scenario=sg-sync", "?scenario=smmu-bypass"} {
			what := fmt.Sprintf("%dx%d %q", size[0], size[1], q)
			b.do(t, "opening "+what, chromedp.Navigate(siteURL+q))
			liveReady(t, b)
			// y of each box's top and bottom, in the order the first screen shows them.
			boxes := eval[map[string][]float64](t, b, firstScreenBoxes)
			t.Logf("%s: %v", what, boxes)
			for _, k := range []string{"scenario", "policy-b", "play", "caption-A", "caption-B", "params"} {
				require.Len(t, boxes[k], 2, "%s: no %s", what, k)
			}
			h := float64(size[1])
			assert.Zero(t, boxes["scroll"][0], "%s: the panel opens scrolled", what)
			for _, k := range []string{"play", "caption-A", "caption-B"} {
				assert.LessOrEqual(t, boxes[k][1], h, "%s: %s ends below the window (y of its bottom)", what, k)
			}
			order := []string{"scenario", "policy-b", "play", "caption-A", "caption-B", "params"}
			for i := 1; i < len(order); i++ {
				assert.Less(t, boxes[order[i-1]][0], boxes[order[i]][0], "%s: %s is not above %s", what, order[i-1], order[i])
			}
			// Every step of either side, stepped to, shows whole in its caption.
			for i := 0; i < 12; i++ {
				cut := eval[[]string](t, b, `[...document.querySelectorAll("#panel-mount .narration .step.current")].filter(s => {
  const r = s.getBoundingClientRect(), box = s.parentElement.getBoundingClientRect();
  return r.bottom > box.bottom + 1 || r.bottom > innerHeight;
}).map(s => s.closest(".caption").id + ": " + s.querySelector("b").textContent)`)
				assert.Empty(t, cut, "%s: steps cut off (after %d steps forward)", what, i)
				if eval[bool](t, b, `document.getElementById("scrub").value === "1000"`) {
					break
				}
				b.do(t, "next step", chromedp.Evaluate[chromedp.Void](`document.getElementById("btn-next-step").click()`))
				time.Sleep(150 * time.Millisecond)
			}
		}
	}
}

const firstScreenBoxes = `(() => {
  const out = {};
  const box = (name, e) => { if (e) { const r = e.getBoundingClientRect(); out[name] = [r.top, r.bottom]; } };
  box("scenario", document.getElementById("scenario"));
  box("policy-b", document.getElementById("policy-b"));
  box("play", document.getElementById("btn-play"));
  box("caption-A", document.getElementById("caption-A"));
  box("caption-B", document.getElementById("caption-B"));
  box("params", document.querySelector("#panel-mount details.params"));
  out.scroll = [document.querySelector("#panel-mount .panel").scrollTop, innerHeight];
  return out;
})()`

func jsNumber(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
