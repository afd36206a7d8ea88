//go:build e2e

package e2e

import (
	"image"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stageDiff counts pixels of r that differ between two screenshots.
func stageDiff(a, b image.Image, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if at(a, x, y) != at(b, x, y) {
				n++
			}
		}
	}
	return n
}

// rerunAndCompare makes a change in the panel, waits for its new run to be
// in the panel and a few frames to pass, and reports how many stage pixels
// changed. The cursor is never touched.
func rerunAndCompare(t *testing.T, b *browser, what, action string) {
	t.Helper()
	area := stageRect(t, b)
	before := b.screenshot(t)
	status := eval[string](t, b, `document.getElementById("run-status").textContent`)
	frames := eval[int](t, b, `dmaviz.frames`)
	b.do(t, what, chromedp.Evaluate[chromedp.Void](action))
	b.waitFor(t, "the panel to show the new run", `(s => s.startsWith("simulated") && s !== `+jsString(status)+`)(document.getElementById("run-status").textContent)`)
	b.do(t, "letting frames pass", chromedp.Poll[chromedp.Void](someFrames))
	assert.Greater(t, eval[int](t, b, `dmaviz.frames`), frames, "%s: the panel shows a new run but the stage drew no frame (frames after vs before)", what)
	assert.GreaterOrEqual(t, stageDiff(before, b.screenshot(t), area), 500, "%s: stage pixels changed with the new run", what)
}

func TestStageRedrawsNewResultsWithoutACursorMove(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=etr")
	rerunAndCompare(t, b, "choosing cached-no-sync for B",
		changeJS("policy-b", "cached-no-sync"))
	rerunAndCompare(t, b, "swapping A and B", `document.getElementById("btn-swap").click()`)
	rerunAndCompare(t, b, "switching to sg-sync",
		changeJS("scenario", "sg-sync"))
}

// vermillion is render.Dark Red, the stage's colour for a failure.
var vermillion = rgb{0xff, 0x4d, 0x4d}

func TestARunErrorIsShownBesideTheFieldAndOnTheStage(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=sg-sync&total=24MiB")
	area := stageRect(t, b)
	top := image.Rect(area.Min.X, 0, area.Max.X, 120)
	require.LessOrEqual(t, countNear(b.screenshot(t), top, vermillion, 16), 20, "failure-coloured pixels before the failing run")
	// 24 MiB in 512-byte entries is more entries than sg-sync allows: a
	// combination the field alone cannot refuse, so the run fails.
	b.change(t, "setting 512 B entries", "param-entry", "512")
	b.waitFor(t, "the run to fail", `document.getElementById("run-status").textContent.includes("run failed")`)
	b.do(t, "letting frames pass", chromedp.Poll[chromedp.Void](someFrames))
	msg := eval[string](t, b, `(document.querySelector('.field[data-param="entry"] .msg')||{}).textContent || ""`)
	assert.Contains(t, msg, "entries", "the entry field does not show the run's error")
	assert.Contains(t, msg, "at most", "the entry field does not show the run's error")
	assert.Zero(t, eval[int](t, b, `document.querySelectorAll("#metrics tbody tr").length`), "rows of an earlier run still in the metrics table")
	assert.Contains(t, eval[string](t, b, `document.getElementById("hazards").textContent`), "No current run", "hazards beside a failed run")
	assert.GreaterOrEqual(t, countNear(b.screenshot(t), top, vermillion, 16), 100, "the stage does not say the run failed (failure-coloured pixels at its top)")
}
