//go:build e2e

package e2e

import (
	"context"
	"image"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

var (
	blue   = rgb{0x00, 0x72, 0xb2}
	orange = rgb{0xe6, 0x9f, 0x00}
)

// stageRect is the part of the 1280x800 viewport right of the panel.
func stageRect(b *browser, t *testing.T) image.Rectangle {
	w := eval[int](t, b, `Math.ceil(document.getElementById("panel-mount").getBoundingClientRect().width)`)
	if w <= 0 || w > 640 {
		t.Fatalf("panel width %d", w)
	}
	return image.Rect(w+1, 0, 1280, 800)
}

func TestPageLoadsAndPanelDrivesStage(t *testing.T) {
	b := newBrowser(t)
	b.do(t, "opening the page", chromedp.Navigate(siteURL))
	b.waitFor(t, "panel and stage", `window.dmaviz && dmaviz.panelReadyAt > 0 && dmaviz.stageReadyAt > 0`)

	if gone := eval[bool](t, b, `document.getElementById("loading") === null`); !gone {
		t.Errorf("the download progress bar is still on the page")
	}
	if notice := eval[string](t, b, `document.getElementById("notice").textContent`); notice != "" {
		t.Errorf("unexpected notice: %q", notice)
	}
	foreign := eval[[]string](t, b, `performance.getEntriesByType("resource").map(e => e.name).filter(n => !n.startsWith(location.origin))`)
	if len(foreign) > 0 {
		t.Errorf("page loaded resources from outside its origin: %v", foreign)
	}

	area := stageRect(b, t)
	img := b.screenshot(t)
	nBlue, nOrange := countNear(img, area, blue, 24), countNear(img, area, orange, 24)
	if nBlue < area.Dx()*area.Dy()/4 || nOrange > 0 {
		t.Fatalf("before: %d blue and %d orange stage pixels, want mostly blue", nBlue, nOrange)
	}

	frames := eval[int](t, b, `dmaviz.frames`)
	b.do(t, "choosing orange", chromedp.SetValue(chromedp.CSS("#colour"), "orange"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("colour").dispatchEvent(new Event("change", {bubbles: true}))`))
	b.waitFor(t, "the stage to redraw", `dmaviz.frames > `+strconv.Itoa(frames)+` && document.getElementById("stage-status").textContent.includes("orange")`)
	img = b.screenshot(t)
	nBlue, nOrange = countNear(img, area, blue, 24), countNear(img, area, orange, 24)
	if nOrange < area.Dx()*area.Dy()/4 || nBlue > 0 {
		t.Fatalf("after: %d blue and %d orange stage pixels, want mostly orange", nBlue, nOrange)
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}

func TestWithoutWebGL2PanelStillWorks(t *testing.T) {
	b := newBrowser(t, chromedp.Flag("disable-3d-apis", true))
	b.do(t, "opening the page", chromedp.Navigate(siteURL))
	b.waitFor(t, "the panel", `window.dmaviz && dmaviz.panelReadyAt > 0`)
	notice := eval[string](t, b, `document.getElementById("notice").textContent`)
	if !strings.Contains(notice, "WebGL2 is not available") || !strings.Contains(notice, "controls and the numbers still work") {
		t.Fatalf("notice = %q, want the WebGL2 message", notice)
	}
	if n := eval[int](t, b, `[...document.querySelectorAll("canvas")].filter(c => c.getBoundingClientRect().width > 0).length`); n != 0 {
		t.Errorf("%d visible canvases on the page without WebGL2, want 0", n)
	}
	b.do(t, "typing a bad cell count", chromedp.SetValue(chromedp.CSS("#cells"), "99999"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("cells").dispatchEvent(new Event("change", {bubbles: true}))`))
	b.waitFor(t, "the validation message", `(document.querySelector(".panel .msg")||{}).textContent`)
	msg := eval[string](t, b, `document.querySelector(".panel .msg").textContent`)
	if !strings.Contains(msg, "cells") || !strings.Contains(msg, "1..4096") {
		t.Fatalf("validation message %q does not name the field and range", msg)
	}
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
	if !strings.Contains(notice, "needs WebAssembly") {
		t.Fatalf("notice = %q, want the WebAssembly message", notice)
	}
}
