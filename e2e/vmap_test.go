//go:build e2e

package e2e

import (
	"image"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The page-mapping view's 2 MiB block colour (render.LeafColor, Dark
// palette Block2M) and its 4 KiB page colour (Page4K).
var (
	blockColour = rgb{0x7f, 0xdd, 0xe6} // render.Dark()[render.Block2M]
	pageColour  = rgb{0x2e, 0x66, 0x70} // render.Dark()[render.Page4K]
)

// sideColumns are the two side columns of the stage at the current
// window size: right of the panel (left edge in embed mode), above the
// legend and the timeline (the upper 58 % of the window).
func sideColumns(t *testing.T, b *browser, embed bool) (a, bside image.Rectangle) {
	t.Helper()
	w := eval[int](t, b, `window.innerWidth`)
	h := eval[int](t, b, `window.innerHeight`)
	left := 0
	if !embed {
		left = eval[int](t, b, `Math.ceil(document.getElementById("panel-mount").getBoundingClientRect().width)`)
	}
	mid := left + (w-left)/2
	bottom := h * 58 / 100
	return image.Rect(left+1, 0, mid-8, bottom), image.Rect(mid+8, 0, w, bottom)
}

// The vmap scenario opened by URL: side B (large mappings) shows 2 MiB
// blocks in the page-mapping view and side A (4 KiB PTEs) none, at the
// desktop, small-laptop and embedded sizes; the table says why (one walk
// per page on A, one per block on B).
func TestVmapPageMappingShowsLargeMappingsOnBOnly(t *testing.T) {
	b := newBrowser(t)
	for _, c := range []struct {
		name  string
		w, h  int64
		embed bool
	}{{"1440x900", 1440, 900, false}, {"1024x768", 1024, 768, false}, {"embed-960x600", 960, 600, true}} {
		t.Run(c.name, func(t *testing.T) {
			b.do(t, "sizing the window", chromedp.EmulateViewport(c.w, c.h))
			if c.embed {
				b.do(t, "opening the embed URL", chromedp.Navigate(siteURL+"?scenario=vmap&embed=1"))
				b.waitFor(t, "the stage", `window.dmaviz && dmaviz.stageReadyAt > 0 && dmaviz.frames > 1 && document.getElementById("open-full")`)
			} else {
				openReady(t, b, "?scenario=vmap&size=paper")
				assert.Equal(t, [2]float64{2048, 4}, [2]float64{metricCell(t, b, "trace_walks", "a"), metricCell(t, b, "trace_walks", "b")},
					"trace_walks A, B: want one per 4 KiB page on A and one per 2 MiB block on B")
				assert.Equal(t, [2]float64{0, 0}, [2]float64{metricCell(t, b, "dtlb_walk", "a"), metricCell(t, b, "dtlb_walk", "b")},
					"dtlb_walk A, B: a trace unit's walks are never dtlb_walk")
			}
			b.do(t, "letting frames pass", chromedp.Poll[chromedp.Void](`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`))
			img := b.screenshot(t)
			ra, rb := sideColumns(t, b, c.embed)
			aBlocks, bBlocks := countNear(img, ra, blockColour, 12), countNear(img, rb, blockColour, 12)
			aPages := countNear(img, ra, pageColour, 12)
			assert.GreaterOrEqual(t, bBlocks, 3000, "side B's pixels of 2 MiB block colour; want the large mappings drawn")
			assert.LessOrEqual(t, aBlocks, 50, "side A's pixels of 2 MiB block colour; it maps 4 KiB pages only")
			assert.GreaterOrEqual(t, aPages, 3000, "side A's pixels of 4 KiB page colour")
			if c.name == "1440x900" {
				hoverAndZoomMapping(t, b, rb)
			}
			assert.Empty(t, b.consoleErrors(), "console errors")
		})
	}
}

// hoverAndZoomMapping points at side B's VA strip (the first coloured row
// of the mapping view, found in the screenshot): the hover names a 2 MiB
// block; the wheel zooms the buffer (the URL gets a zoom window).
func hoverAndZoomMapping(t *testing.T, b *browser, rb image.Rectangle) {
	t.Helper()
	img := b.screenshot(t)
	x := (rb.Min.X + rb.Max.X) / 2
	y := -1
	for yy := rb.Min.Y; yy < rb.Max.Y; yy++ {
		if p := at(img, x, yy); absDiff(p.R, blockColour.R) <= 12 && absDiff(p.G, blockColour.G) <= 12 && absDiff(p.B, blockColour.B) <= 12 {
			y = yy + 6
			break
		}
	}
	require.GreaterOrEqual(t, y, 0, "no 2 MiB block colour in side B's column at x=%d", x)
	frame := chromedp.Poll[chromedp.Void](`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
	b.do(t, "hovering the mapping strip", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, float64(x), float64(y)), frame)
	assert.Contains(t, eval[string](t, b, `document.getElementById("hover").textContent`), "2M block", "hovering side B's VA strip; want the 2M block named")
	b.do(t, "wheel over the mapping strip", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseWheel, float64(x), float64(y), func(p *input.DispatchMouseEventParams) {
		p.DeltaX, p.DeltaY = 0.001, -120 // CDP needs both; a zero deltaX is dropped from the message
	}), frame)
	b.waitFor(t, "a zoom window in the URL", `location.search.includes("zoom=")`)
}
