//go:build e2e

package e2e

import (
	"image"
	"testing"

	"github.com/chromedp/chromedp"
)

// In the embed, where no panel shows the hover box, pointing at a cell
// outlines it and describes it beside the pointer, on the stage itself.
func TestHoverDescribesOnTheStageInTheEmbed(t *testing.T) {
	b := newBrowser(t)
	b.do(t, "opening the embed", chromedp.Navigate(siteURL+"?scenario=etr&embed=1&t=3ms"))
	b.waitFor(t, "the stage", `window.dmaviz && dmaviz.stageReadyAt > 0 && dmaviz.resultsReadyAt > 0 && dmaviz.frames > 1`)
	frames := func() {
		b.do(t, "letting frames pass", chromedp.Poll[chromedp.Void](`new Promise(r => { let n = 0; const f = () => ++n >= 6 ? r(true) : requestAnimationFrame(f); requestAnimationFrame(f) })`))
	}
	const x, y = 200, 140 // side A's ETR buffer grid
	b.do(t, "pointer elsewhere", chromedp.MouseEvent("mouseMoved", 1270, 790))
	frames()
	before := b.screenshot(t)
	b.do(t, "pointing at a cell", chromedp.MouseEvent("mouseMoved", x, y))
	frames()
	after := b.screenshot(t)
	tip := image.Rect(x+16, y+18, x+400, y+90)
	if n := countNear(after, tip, text, 40) - countNear(before, tip, text, 40); n < 300 {
		t.Errorf("no description beside the pointer (%d more text pixels than without hover)", n)
	}
	frame := image.Rect(x-30, y-30, x+30, y+30)
	if n := countNear(after, frame, rgb{0xff, 0xff, 0xff}, 8) - countNear(before, frame, rgb{0xff, 0xff, 0xff}, 8); n < 20 {
		t.Errorf("the hovered cell is not outlined (%d more outline pixels)", n)
	}
}
