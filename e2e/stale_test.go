//go:build e2e

package e2e

import (
	"image"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/urlstate"
)

// rose is a stale copy's colour on the stage (render.Dark Rose) and
// yellow a cached line's (render.Dark Yellow).
var (
	rose   = rgb{0xff, 0xc2, 0xc2}
	yellow = rgb{0xf0, 0xe4, 0x42}
)

// runAt runs scenario id's policies a and b at size, as the page does.
func runAt(t *testing.T, id string, size scenario.Size, a, b string) (*scenario.Result, *scenario.Result) {
	t.Helper()
	sc, err := catalog.Registry().Get(id)
	require.NoError(t, err)
	p, err := sc.Spec().SizeParams(size)
	require.NoError(t, err)
	ra, rb, err := scenario.RunPair(t.Context(), sc, p, a, b, nil, nil)
	require.NoError(t, err)
	return ra, rb
}

// stillAt opens query with the cursor at t (a link with t= opens still)
// and returns a screenshot and the stage's part of it (right of the
// panel).
func stillAt(t *testing.T, b *browser, query string, at sim.Time) (image.Image, image.Rectangle) {
	t.Helper()
	b.do(t, "opening "+query, chromedp.Navigate(siteURL+query+"&t="+urlstate.FormatTime(at)))
	b.waitFor(t, "the live stage", `window.dmaviz && dmaviz.stageReadyAt > 0 && dmaviz.resultsReadyAt > 0 && dmaviz.frames > 1`)
	b.do(t, "letting frames pass", chromedp.Poll[chromedp.Void](someFrames))
	left := eval[int](t, b, `Math.ceil(document.getElementById("panel-mount").getBoundingClientRect().right)`)
	img := b.screenshot(t)
	return img, image.Rect(left, 0, img.Bounds().Dx(), img.Bounds().Dy())
}

// Stale is drawn when it happens: at the etr lesson size, the lines the
// previous session left in the CPU's caches are drawn as stale copies
// (rose) right after the ETR's DMA overwrote the buffer, before the
// driver or the copy reads any of them; before the DMA none is.
func TestStaleCopyIsDrawnBeforeAnyRead(t *testing.T) {
	const pol = "cached-no-sync"
	_, rb := runAt(t, "etr", scenario.SizeLesson, "coherent", pol)
	var dma, read sim.Time
	for _, p := range rb.Timeline.Phases {
		if p.Kind == "dma-write" && dma == 0 {
			dma = p.End
		}
		if p.Kind == "copy" && read == 0 {
			read = p.Start
		}
	}
	require.Positive(t, dma, "B has no DMA phase")
	require.Greater(t, read, dma, "B's copy starts before its DMA ends")
	b := newBrowser(t)
	q := "?scenario=etr&size=lesson&a=coherent&b=" + pol
	img, stage := stillAt(t, b, q, 0)
	before := countNear(img, stage, rose, 12)
	img, stage = stillAt(t, b, q, dma+(read-dma)/2)
	after := countNear(img, stage, rose, 12)
	t.Logf("stale-copy (rose) pixels: %d at the start, %d between the DMA and the first read", before, after)
	assert.GreaterOrEqual(t, after-before, 5000,
		"stale-copy (rose) pixels on the stage between the DMA's end and the first read: %d, at the start %d", after, before)
}

// No blank stage: at 10 % of sg-sync's paper run the CPU is still warming
// its caches with the buffer (as the narration says), and the stage
// draws those lines cached (yellow) instead of empty grids (the time
// line's bars and the legends alone are under 3,000 yellow pixels).
func TestSGSyncStageIsNotBlankAtATenthOfTheRun(t *testing.T) {
	sc, err := catalog.Registry().Get("sg-sync")
	require.NoError(t, err)
	spec := sc.Spec()
	ra, rb := runAt(t, "sg-sync", scenario.SizePaper, spec.DefaultA, spec.DefaultB)
	b := newBrowser(t)
	img, stage := stillAt(t, b, "?scenario=sg-sync&size=paper", max(ra.End, rb.End)/10)
	n := countNear(img, stage, yellow, 12)
	t.Logf("cached (yellow) pixels at 10 %% of the run: %d", n)
	assert.GreaterOrEqual(t, n, 20000, "cached (yellow) pixels on the stage at 10 %% of the run")
}
