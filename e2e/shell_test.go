//go:build e2e

package e2e

import (
	"fmt"
	"image"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stale is the stage's colour for stale cells (render.Dark Red).
var stale = rgb{0xff, 0x4d, 0x4d}

func TestURLParametersShowInThePanel(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=demo&buffer=64KiB&b=cacheable-no-sync&speed=2")
	assert.Equal(t, "64KiB", eval[string](t, b, `document.getElementById("param-buffer").value`), "buffer field")
	assert.Equal(t, "cacheable-no-sync", eval[string](t, b, `document.getElementById("policy-b").value`), "policy B")
	assert.Contains(t, eval[string](t, b, `document.getElementById("speed-text").textContent`), "×4", "speed")
	assert.Zero(t, eval[int](t, b, `document.querySelectorAll("#messages p").length`), "messages for a good URL")
}

func TestBadURLValueShowsAMessageAndFallsBack(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=demo&buffer=zzz&a=nope")
	msgs := eval[string](t, b, `document.getElementById("messages").textContent`)
	for _, want := range []string{"buffer", "4KiB..4MiB", "a: policy"} {
		require.Contains(t, msgs, want, "messages do not name the bad keys and allowed values")
	}
	assert.Equal(t, "16KiB", eval[string](t, b, `document.getElementById("param-buffer").value`), "buffer did not fall back to the default")
	q := eval[string](t, b, `location.search`)
	assert.NotContains(t, q, "zzz", "the URL still carries the bad values")
	assert.NotContains(t, q, "nope", "the URL still carries the bad values")
}

// TestALinkWithManyBadKeysGetsOneShortMessage: 1,400 unknown keys and a
// 100 KB value are said once and briefly (once 1,401 messages in an
// alert box 74,786 px tall).
func TestALinkWithManyBadKeysGetsOneShortMessage(t *testing.T) {
	b := newBrowser(t)
	var q strings.Builder
	q.WriteString("?scenario=demo&buffer=" + strings.Repeat("9", 100_000))
	for i := range 1400 {
		fmt.Fprintf(&q, "&k%d=1", i)
	}
	openReady(t, b, q.String())
	texts := eval[[]string](t, b, `[...document.querySelectorAll("#messages p")].map(p => p.textContent)`)
	require.Len(t, texts, 2, "messages: %.300q", texts)
	assert.Contains(t, texts[0], `buffer: "`+strings.Repeat("9", 64)+`"… (100000 characters) is not a size`)
	assert.True(t, strings.HasPrefix(texts[1], "1,400 unknown keys for scenario demo: k0, k1, k10, …"), texts[1])
	h := eval[float64](t, b, `document.getElementById("messages").getBoundingClientRect().height`)
	assert.Less(t, h, 300.0, "the messages box is %v px tall", h)
}

// TestAnEmbedSaysItRefusedAValue: an embed whose link has a bad value shows
// a one-line notice in its bar (not a silent fallback), with every message
// in its tooltip.
func TestAnEmbedSaysItRefusedAValue(t *testing.T) {
	b := newBrowser(t)
	openEmbed := func(q string) {
		b.do(t, "opening "+q, chromedp.Navigate(siteURL+q))
		b.waitFor(t, "the embed's results", `window.dmaviz && dmaviz.resultsReadyAt > 0 && document.getElementById("open-full")`)
	}
	openEmbed("?scenario=demo&embed=1&autoplay=1")
	assert.Zero(t, eval[int](t, b, `document.querySelectorAll("#embed-notice").length`), "a notice for a good link")
	openEmbed("?scenario=demo&embed=1&autoplay=1&buffer=zzz&a=nope")
	text := eval[string](t, b, `document.getElementById("embed-notice").textContent`)
	assert.True(t, strings.HasPrefix(text, "⚠ a: policy \"nope\" is not allowed"), text)
	assert.Contains(t, text, "(+1 more)")
	assert.Contains(t, eval[string](t, b, `document.getElementById("embed-notice").title`), "buffer: \"zzz\" is not a size")
	r := eval[[]float64](t, b, `(() => { const r = document.getElementById("embed-notice").getBoundingClientRect(); return [r.width, r.height, r.right, innerWidth]; })()`)
	assert.Positive(t, r[0], "the notice is not visible")
	assert.Less(t, r[1], 30.0, "the notice is %v px tall: more than one line", r[1])
	assert.LessOrEqual(t, r[2], r[3], "the notice runs off the window")
}

func TestControlChangesURLAndStage(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=demo")
	// The buffer grids sit in the upper part of each side; the legend and
	// the timeline below use the same colour for other things.
	area := stageRect(t, b)
	area.Min.Y, area.Max.Y = 60, 290
	b.do(t, "jumping to the end", chromedp.Click(chromedp.ID("btn-end")))
	b.waitFor(t, "the end", `document.getElementById("scrub").value === "1000"`)
	require.Zero(t, countNear(b.screenshot(t), area, stale, 20), "stale-coloured pixels with two correct policies")
	b.change(t, "choosing the no-sync bug for B", "policy-b", "cacheable-no-sync")
	b.waitFor(t, "the URL to follow", `location.search.includes("b=cacheable-no-sync") && document.getElementById("hazards").textContent.includes("stale")`)
	b.do(t, "jumping to the end", chromedp.Click(chromedp.ID("btn-end")))
	b.waitFor(t, "the end", `document.getElementById("scrub").value === "1000"`)
	img := b.screenshot(t)
	right := image.Rect(area.Min.X+area.Dx()/2, area.Min.Y, area.Max.X, area.Max.Y)
	require.GreaterOrEqual(t, countNear(img, right, stale, 20), 50, "stale-coloured pixels on side B after switching to the no-sync bug")
}

func TestKeyboardStepsBackAndForward(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=demo")
	b.do(t, "focusing the page", chromedp.Evaluate[chromedp.Void](`document.activeElement && document.activeElement.blur()`),
		chromedp.KeyEvent(kb.End))
	b.waitFor(t, "End to reach the end", `document.getElementById("scrub").value === "1000"`)
	end := eval[string](t, b, `document.getElementById("cursor-text").textContent`)
	b.do(t, "stepping back", chromedp.KeyEvent(kb.ArrowLeft))
	b.waitFor(t, "the cursor to step back", `document.getElementById("cursor-text").textContent !== `+jsString(end))
	back := eval[string](t, b, `document.getElementById("cursor-text").textContent`)
	b.do(t, "stepping forward", chromedp.KeyEvent(kb.ArrowRight))
	b.waitFor(t, "the cursor to return", `document.getElementById("cursor-text").textContent === `+jsString(end))
	require.NotEqual(t, end, back, "step back did not move the cursor")
	// Typing in a field must not move the player.
	b.do(t, "typing Home in a field", chromedp.Focus(chromedp.ID("param-buffer")), chromedp.KeyEvent(kb.Home))
	assert.Equal(t, "1000", eval[string](t, b, `document.getElementById("scrub").value`), "a key typed into a field moved the cursor")
}

func TestEmbedModeShowsAFullWidthStageAndAMinimalOverlay(t *testing.T) {
	b := newBrowser(t)
	b.do(t, "opening the embed URL", chromedp.Navigate(siteURL+"?scenario=demo&embed=1&autoplay=1"))
	b.waitFor(t, "the stage", `window.dmaviz && dmaviz.stageReadyAt > 0 && dmaviz.frames > 1 && document.getElementById("open-full")`)
	w := eval[int](t, b, `Math.ceil(document.getElementById("panel-mount").getBoundingClientRect().width)`)
	h := eval[int](t, b, `Math.ceil(document.getElementById("panel-mount").getBoundingClientRect().height)`)
	assert.LessOrEqual(t, w, 400, "embed overlay width (want a small bar)")
	assert.LessOrEqual(t, h, 80, "embed overlay height (want a small bar)")
	assert.Zero(t, eval[int](t, b, `document.querySelectorAll("#metrics, #param-buffer").length`), "full-panel controls in embed mode")
	href := eval[string](t, b, `document.getElementById("open-full").href`)
	assert.Contains(t, href, "scenario=demo", "open-full link")
	assert.NotContains(t, href, "embed", "open-full link")
	img := b.screenshot(t)
	below := image.Rect(0, 0, 400, 800-h-10) // above the overlay, where the panel would be
	assert.GreaterOrEqual(t, below.Dx()*below.Dy()-countNear(img, below, background, 6), 2000,
		"the stage does not use the left of the window in embed mode (drawn pixels)")
}

func TestHoverDescribesACell(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=demo")
	area := stageRect(t, b)
	// Sweep the upper part of side A until the hover names an address.
	for y := 60; y < 300; y += 12 {
		b.do(t, "moving the mouse", chromedp.MouseEvent("mouseMoved", float64(area.Min.X+40), float64(y)))
		b.do(t, "letting a frame pass", chromedp.Poll[chromedp.Void](`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`))
		if text := eval[string](t, b, `document.getElementById("hover").textContent`); strings.Contains(text, "0x") {
			return
		}
	}
	require.Failf(t, "hovering over side A never described a cell", "hover shows %q", eval[string](t, b, `document.getElementById("hover").textContent`))
}

func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

func TestTabLeavesTheStage(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=demo")
	area := stageRect(t, b)
	b.do(t, "clicking the stage", chromedp.MouseClickXY(float64(area.Max.X-20), float64(area.Max.Y-20)))
	b.waitFor(t, "the canvas to take focus", `document.activeElement && document.activeElement.tagName === "CANVAS"`)
	b.do(t, "pressing Tab", chromedp.KeyEvent(kb.Tab))
	require.NotEqual(t, "CANVAS", eval[string](t, b, `document.activeElement ? document.activeElement.tagName : ""`), "Tab left the focus on the stage")
}

func TestCollapsedPanelGivesTheStageTheWindow(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=demo")
	wide := eval[int](t, b, `Math.ceil(document.getElementById("panel-mount").getBoundingClientRect().width)`)
	frames := eval[int](t, b, `dmaviz.frames`)
	b.do(t, "collapsing the panel", chromedp.Click(chromedp.ID("btn-collapse")))
	b.waitFor(t, "the collapsed bar and URL", `document.getElementById("btn-expand") && location.search.includes("panel=collapsed")`)
	b.waitFor(t, "the stage to redraw", `dmaviz.frames > `+jsInt(frames))
	narrow := eval[int](t, b, `Math.ceil(document.getElementById("panel-mount").getBoundingClientRect().width)`)
	require.LessOrEqual(t, narrow, wide*2/3, "collapsed panel width (px) against two thirds of the open panel's %d", wide)
	img := b.screenshot(t)
	strip := image.Rect(narrow+10, 100, wide, 700) // where the open panel was
	assert.GreaterOrEqual(t, strip.Dx()*strip.Dy()-countNear(img, strip, background, 6), strip.Dx()*strip.Dy()/20,
		"the stage did not move into the panel's place (drawn pixels)")
	b.do(t, "expanding it again", chromedp.Click(chromedp.ID("btn-expand")))
	b.waitFor(t, "the full panel", `document.getElementById("metrics") && !location.search.includes("panel=collapsed")`)
}

func jsInt(n int) string { return strconv.Itoa(n) }
