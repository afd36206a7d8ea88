//go:build e2e

package e2e

import (
	"image"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
)

// In the embed, where no panel shows the hover box, pointing at a cell
// outlines it and describes it beside the pointer, on the stage itself.
func TestHoverDescribesOnTheStageInTheEmbed(t *testing.T) {
	b := newBrowser(t)
	b.do(t, "opening the embed", chromedp.Navigate(siteURL+"?scenario=etr&embed=1&t=3ms&autoplay=1"))
	b.waitFor(t, "the stage", `window.dmaviz && dmaviz.stageReadyAt > 0 && dmaviz.resultsReadyAt > 0 && dmaviz.frames > 1`)
	frames := func() {
		b.do(t, "letting frames pass", chromedp.Poll[chromedp.Void](someFrames))
	}
	const x, y = 200, 140 // side A's ETR buffer grid
	b.do(t, "pointer elsewhere", chromedp.MouseEvent("mouseMoved", 1270, 790))
	frames()
	before := b.screenshot(t)
	b.do(t, "pointing at a cell", chromedp.MouseEvent("mouseMoved", x, y))
	frames()
	after := b.screenshot(t)
	tip := image.Rect(x+16, y+18, x+400, y+90)
	assert.GreaterOrEqual(t, countNear(after, tip, text, 40)-countNear(before, tip, text, 40), 300,
		"no description beside the pointer (text pixels more than without hover)")
	frame := image.Rect(x-30, y-30, x+30, y+30)
	assert.GreaterOrEqual(t, countNear(after, frame, rgb{0xff, 0xff, 0xff}, 8)-countNear(before, frame, rgb{0xff, 0xff, 0xff}, 8), 20,
		"the hovered cell is not outlined (outline pixels more than without hover)")
}
