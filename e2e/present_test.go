//go:build e2e

package e2e

import (
	"image"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// text is the stage's primary text colour (render.Dark Text).
var text = rgb{0xf2, 0xf2, 0xf2}

// Presentation mode (panel=collapsed) keeps the narration: each side's step
// is large on the stage, in the row under the columns, the stage starts at the window's left edge (no
// empty column where the panel was), and the bar steps by narration step.
func TestPresentationModeShowsTheNarrationOnTheStage(t *testing.T) {
	b := newBrowser(t)
	b.do(t, "opening presentation mode", chromedp.Navigate(siteURL+"?scenario=etr&panel=collapsed"))
	b.waitFor(t, "stage and results", `window.dmaviz && dmaviz.stageReadyAt > 0 && dmaviz.resultsReadyAt > 0 && dmaviz.frames > 1 && document.getElementById("btn-next")`)
	b.do(t, "letting frames pass", chromedp.Poll[chromedp.Void](someFrames))
	img := b.screenshot(t)
	bar := eval[int](t, b, `Math.ceil(document.getElementById("panel-mount").getBoundingClientRect().height)`)
	// Under the bar, at the window's left edge, the stage draws.
	strip := image.Rect(0, bar+10, 40, 700)
	assert.GreaterOrEqual(t, strip.Dx()*strip.Dy()-countNear(img, strip, background, 6), 400,
		"the left edge under the presentation bar is empty (drawn pixels): the stage leaves a column")
	// The narration row, large, under the columns.
	top := int(summary(t, b).NarrationTop)
	require.Positive(t, top, "no narration on the stage")
	narr := image.Rect(10, top, 1200, top+170)
	assert.GreaterOrEqual(t, countNear(img, narr, text, 40), 3000, "text pixels where side A's narration belongs")
	before := eval[string](t, b, `location.search`)
	b.do(t, "next narration step", chromedp.Click(chromedp.ID("btn-next")))
	b.waitFor(t, "the cursor to move", `location.search !== `+jsString(before))
	b.do(t, "letting frames pass", chromedp.Poll[chromedp.Void](someFrames))
	assert.GreaterOrEqual(t, stageDiff(img, b.screenshot(t), narr), 1000, "pixels of the narration the next narration step changed")
}

func TestQuestionMarkShowsTheKeyMap(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=demo")
	b.do(t, "focusing the page", chromedp.Evaluate[chromedp.Void](`document.activeElement && document.activeElement.blur()`),
		chromedp.KeyEvent("?"))
	b.waitFor(t, "the key map", `(e => e && !e.classList.contains("hidden") && e.getBoundingClientRect().width > 200)(document.getElementById("keymap"))`)
	km := eval[string](t, b, `document.getElementById("keymap").textContent`)
	for _, want := range []string{"narration step", "Shift", "model event", "Home"} {
		assert.Contains(t, km, want, "key map")
	}
	b.do(t, "closing it", chromedp.KeyEvent(kb.Escape))
	b.waitFor(t, "the key map to close", `document.getElementById("keymap").classList.contains("hidden")`)
}
