//go:build e2e

package e2e

import (
	"context"
	"image"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// background is the stage's clear colour (render.Dark Background).
var background = rgb{0x11, 0x14, 0x18}

// stageRect is the part of the 1280x800 viewport right of the panel.
func stageRect(t *testing.T, b *browser) image.Rectangle {
	t.Helper()
	w := eval[int](t, b, `Math.ceil(document.getElementById("panel-mount").getBoundingClientRect().width)`)
	require.GreaterOrEqual(t, w, 0, "panel width")
	require.LessOrEqual(t, w, 640, "panel width")
	return image.Rect(w+1, 0, 1280, 800)
}

// openReady opens the page at query and waits for panel, stage and the
// first results.
func openReady(t *testing.T, b *browser, query string) {
	t.Helper()
	b.do(t, "opening the page", chromedp.Navigate(siteURL+query))
	b.waitFor(t, "panel, stage and results", `window.dmaviz && dmaviz.panelReadyAt > 0 && dmaviz.stageReadyAt > 0 && document.querySelectorAll("#metrics tbody tr").length > 0`)
}

func TestPageLoadsWithPanelStageAndNoErrors(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "")
	assert.True(t, eval[bool](t, b, `document.getElementById("loading") === null`), "the download progress bar is still on the page")
	// The loading box stays over the page's start-up (a second or more
	// after the download on a slow machine) until the stage or the panel
	// shows, so the page is never blank.
	gone := eval[[]float64](t, b, `[dmaviz.loadingRemovedAt, dmaviz.wasmReadyAt, Math.min(dmaviz.stageReadyAt, dmaviz.panelReadyAt)]`)
	assert.GreaterOrEqual(t, gone[0], gone[2], "the loading box went at %.0f ms, before the stage or panel showed (%.0f ms; main.wasm ready at %.0f ms)", gone[0], gone[2], gone[1])
	assert.Empty(t, eval[string](t, b, `document.getElementById("notice").textContent`), "unexpected notice")
	foreign := eval[[]string](t, b, `performance.getEntriesByType("resource").map(e => e.name).filter(n => !n.startsWith(location.origin))`)
	assert.Empty(t, foreign, "page loaded resources from outside its origin")
	img := b.screenshot(t)
	area := stageRect(t, b)
	drawn := area.Dx()*area.Dy() - countNear(img, area, background, 6)
	assert.GreaterOrEqual(t, drawn, area.Dx()*area.Dy()/10, "stage pixels that differ from the background (a tenth of the stage or the scenario was not drawn)")
	assert.Empty(t, b.consoleErrors(), "console errors")
}

func TestWithoutWebGL2PanelStillWorks(t *testing.T) {
	b := newBrowser(t, chromedp.Flag("disable-3d-apis", true))
	b.do(t, "opening the page", chromedp.Navigate(siteURL))
	b.waitFor(t, "the panel and results", `window.dmaviz && dmaviz.panelReadyAt > 0 && document.querySelectorAll("#metrics tbody tr").length > 0`)
	notice := eval[string](t, b, `document.getElementById("notice").textContent`)
	require.Contains(t, notice, "WebGL2 is not available", "notice")
	require.Contains(t, notice, "controls and the numbers still work", "notice")
	n := eval[int](t, b, `[...document.querySelectorAll("canvas")].filter(c => c.getBoundingClientRect().width > 0).length`)
	assert.Zero(t, n, "visible canvases on the page without WebGL2")
	// A bad value is refused with a message naming the field and range.
	field := eval[string](t, b, `document.querySelector(".field[data-param] input").id`)
	b.change(t, "typing a bad value", field, "not-a-size")
	b.waitFor(t, "the validation message", `(document.querySelector(".field .msg")||{}).textContent`)
	msg := eval[string](t, b, `document.querySelector(".field .msg").textContent`)
	name := strings.TrimPrefix(field, "param-")
	require.Contains(t, msg, name, "the validation message does not name the field")
	require.Contains(t, msg, "allowed", "the validation message does not name the allowed range")
	// The player still runs without a stage.
	b.do(t, "jumping to the end", chromedp.Click(chromedp.ID("btn-end")))
	b.waitFor(t, "the cursor to move", `document.getElementById("scrub").value === "1000"`)
}

func TestWithoutWebAssemblySaysSo(t *testing.T) {
	b := newBrowser(t)
	b.do(t, "opening the page without WebAssembly",
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: "delete window.WebAssembly"})
			return err
		}),
		chromedp.Navigate(siteURL))
	b.waitFor(t, "the notice", `document.getElementById("notice").textContent.length > 0`)
	notice := eval[string](t, b, `document.getElementById("notice").textContent`)
	require.Contains(t, notice, "needs WebAssembly", "notice, want the WebAssembly message")
}

// The stage's first frame comes before the panel's first render; it must
// already leave the panel's room. When it did not, the first frame covered
// the whole window and was drawn again, shifted right, once the panel had
// rendered (a visible jump, and a second readback of the canvas while the
// first run computes).
func TestFirstFrameLeavesThePanelsRoom(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=demo")
	panel := eval[int](t, b, `Math.ceil(document.querySelector(".panel").getBoundingClientRect().width)`)
	require.Greater(t, panel, 200, "the panel's width (px)")
	assert.Equal(t, panel, eval[int](t, b, `dmaviz.firstFrameLeft`), "the first frame's left edge (px), want the panel's width")

	b.do(t, "opening the embed", chromedp.Navigate(siteURL+"?scenario=demo&embed=1&autoplay=1"))
	b.waitFor(t, "the embed's stage", `window.dmaviz && dmaviz.stageReadyAt > 0`)
	assert.Zero(t, eval[int](t, b, `dmaviz.firstFrameLeft`), "the embed's first frame's left edge (px), want the whole width")
}
