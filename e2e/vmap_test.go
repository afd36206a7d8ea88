//go:build e2e

package e2e

import (
	"image"
	"testing"

	"github.com/chromedp/chromedp"
)

// The page-mapping view's 2 MiB block colour (render.LeafColor, Dark
// palette Orange) and its 4 KiB page colour (Sky).
var (
	blockColour = rgb{0xe6, 0x9f, 0x00}
	pageColour  = rgb{0x56, 0xb4, 0xe9}
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
				openReady(t, b, "?scenario=vmap")
				if a, bv := metricCell(t, b, "trace_walks", "a"), metricCell(t, b, "trace_walks", "b"); a != 2048 || bv != 4 {
					t.Errorf("trace_walks A %v B %v, want 2048 (one per 4 KiB page) and 4 (one per 2 MiB block)", a, bv)
				}
				if a, bv := metricCell(t, b, "dtlb_walk", "a"), metricCell(t, b, "dtlb_walk", "b"); a != 0 || bv != 0 {
					t.Errorf("dtlb_walk A %v B %v: a trace unit's walks are never dtlb_walk", a, bv)
				}
			}
			b.do(t, "letting frames pass", chromedp.Poll[chromedp.Void](`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`))
			img := b.screenshot(t)
			ra, rb := sideColumns(t, b, c.embed)
			aBlocks, bBlocks := countNear(img, ra, blockColour, 12), countNear(img, rb, blockColour, 12)
			aPages := countNear(img, ra, pageColour, 12)
			if bBlocks < 3000 {
				t.Errorf("side B shows %d pixels of 2 MiB block colour; want the large mappings drawn", bBlocks)
			}
			if aBlocks > 50 {
				t.Errorf("side A shows %d pixels of 2 MiB block colour; it maps 4 KiB pages only", aBlocks)
			}
			if aPages < 3000 {
				t.Errorf("side A shows %d pixels of 4 KiB page colour", aPages)
			}
			if errs := b.consoleErrors(); len(errs) > 0 {
				t.Errorf("console errors: %v", errs)
			}
		})
	}
}
