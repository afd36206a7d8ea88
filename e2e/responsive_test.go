//go:build e2e

package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runDone is true once the run numbered above gen has ended.
func runDone(gen int) string {
	return fmt.Sprintf(`dmaviz.runState && dmaviz.runState().gen > %d && !dmaviz.runState().running`, gen)
}

// setParam types text into a parameter field and commits it.
func setParam(t *testing.T, b *browser, name, text string) {
	t.Helper()
	b.change(t, "setting "+name+"="+text, "param-"+name, text)
}

// sampleRuns starts a loop of page tasks (zero timers) that records the
// run's progress each time it sees a run computing: window.runSamples. A
// run that held the page's thread from start to end leaves no sample
// between its first and last slice of work.
const sampleRuns = `(() => {
  window.runSamples = [];
  if (!window.runSampling) {
    window.runSampling = true;
    const s = () => { const r = dmaviz.runState(); if (r.running) runSamples.push(r.done); setTimeout(s, 0); };
    s();
  }
  return true;
})()`

// TestChangingBAloneRerunsOnlyB: a new policy for B simulates B alone (the
// progress says so) and keeps A's figures; swapping A and B simulates
// nothing and swaps the figures.
func TestChangingBAloneRerunsOnlyB(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=etr")
	a0, b0 := metricCell(t, b, "sync_us", "a"), metricCell(t, b, "sync_us", "b")
	eval[bool](t, b, `window.progressTexts = []; new MutationObserver(() => { const e = document.getElementById("run-progress-text"); if (e) progressTexts.push(e.textContent) }).observe(document.body, {subtree: true, childList: true, characterData: true}); true`)
	gen := eval[int](t, b, `dmaviz.runState().gen`)
	b.change(t, "choosing cached-no-sync for B", "policy-b", "cached-no-sync")
	b.waitFor(t, "B's re-run", runDone(gen))
	assert.Equal(t, []bool{false, true}, eval[[]bool](t, b, `dmaviz.runState().sides`), "the sides simulated after a change to B")
	texts := eval[string](t, b, `progressTexts.join(" | ")`)
	assert.NotContains(t, texts, "Computing A", "the progress said A was simulated")
	assert.Equal(t, a0, metricCell(t, b, "sync_us", "a"), "A's figure changed")
	b1 := metricCell(t, b, "sync_us", "b")
	assert.NotEqual(t, b0, b1, "B's figure did not change with its policy")

	gen = eval[int](t, b, `dmaviz.runState().gen`)
	b.do(t, "swapping A and B", chromedp.Click(chromedp.ID("btn-swap")))
	b.waitFor(t, "the swap", runDone(gen))
	assert.Equal(t, []bool{false, false}, eval[[]bool](t, b, `dmaviz.runState().sides`), "the sides simulated after a swap")
	assert.Equal(t, b1, metricCell(t, b, "sync_us", "a"), "after the swap A shows B's figure")
	assert.Equal(t, a0, metricCell(t, b, "sync_us", "b"), "after the swap B shows A's figure")
}

// heavy is the kind of setting that once froze the page for about a
// minute (then with a 64 MiB list, now refused), here with the direct
// path (A and B differ) and a small list first, so that the page shows
// results to keep playing.
const heavy = "?scenario=sg-sync&entry=2KiB&cpu=writes&direction=bidirectional&iterations=100000&entry-offset=4095&speed=-4&total="

// TestHeavyRunKeepsThePageResponsive: while the heaviest setting computes,
// the page answers, the stage plays the previous results, the progress
// shows and Cancel stops the run; a newer change supersedes a run. How
// long the page's tasks are meanwhile is measured by make bench.
func TestHeavyRunKeepsThePageResponsive(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, heavy+"64KiB")
	before := metricCell(t, b, "entries", "a")
	b.do(t, "playing", chromedp.Click(chromedp.ID("btn-play")))
	eval[bool](t, b, sampleRuns)
	setParam(t, b, "total", "14MiB") // about the largest allowed with these settings
	b.waitFor(t, "the heavy run to start", `dmaviz.runState().running && document.getElementById("run-progress") !== null`)
	frames0 := eval[float64](t, b, `dmaviz.frames`)
	cursor0 := eval[string](t, b, `document.getElementById("cursor-text").textContent`)
	done0 := eval[float64](t, b, `dmaviz.runState().done`)

	// The page answers while the model works, judged by the order of
	// events, not by the clock (how long a task takes is make bench's to
	// measure): tasks of the page run between slices of the run's work,
	// and a click on Pause is answered before the run ends. A run that
	// held the thread to its end fails both (checked with the runner not
	// giving way).
	b.waitFor(t, "page tasks between three slices of the run",
		`new Set(runSamples.filter(d => d > 0 && d < 1)).size >= 3 || !dmaviz.runState().running`)
	samples := eval[[]float64](t, b, `runSamples.filter(d => d > 0 && d < 1)`)
	require.True(t, eval[bool](t, b, `dmaviz.runState().running`), "the heavy run ended before the page ran a task in three of its slices: %v", samples)
	b.do(t, "pausing", chromedp.Click(chromedp.ID("btn-play")))
	b.waitFor(t, "the pause to show, or the run to end", `document.getElementById("btn-play").textContent === "Play" || !dmaviz.runState().running`)
	require.True(t, eval[bool](t, b, `dmaviz.runState().running`), "the click on Pause was answered only after the run ended")
	b.do(t, "playing", chromedp.Click(chromedp.ID("btn-play")))
	b.waitFor(t, "the stage to draw five frames, or the run to end", fmt.Sprintf(`dmaviz.frames > %v + 5 || !dmaviz.runState().running`, frames0))
	require.True(t, eval[bool](t, b, `dmaviz.runState().running`), "the heavy run ended before the stage drew five frames")
	f := eval[float64](t, b, `dmaviz.frames`)
	assert.Greater(t, f, frames0+5, "the stage drew %v frames during the run (want it playing)", f-frames0)
	c := eval[string](t, b, `document.getElementById("cursor-text").textContent`)
	assert.NotEqual(t, cursor0, c, "the cursor did not move while the run computed (%q)", c)
	d := eval[float64](t, b, `dmaviz.runState().done`)
	assert.Greater(t, d, done0, "run progress did not advance: %v then %v", done0, d)
	bar := eval[float64](t, b, `+document.getElementById("run-progress").value`)
	text := eval[string](t, b, `document.getElementById("run-progress-text").textContent`)
	assert.Positive(t, bar, "progress shown: bar %v, text %q", bar, text)
	assert.Contains(t, text, "Computing", "progress shown: bar %v, text %q", bar, text)
	progressBarReadsItsValue(t, b)

	// Cancel stops it; the previous results stay.
	b.do(t, "canceling", chromedp.Click(chromedp.ID("btn-cancel-run")))
	b.waitFor(t, "the run to stop", `!dmaviz.runState().running`)
	assert.True(t, eval[bool](t, b, `dmaviz.runState().canceled`), "the run is not marked canceled")
	assert.Less(t, eval[float64](t, b, `dmaviz.runState().done`), 1.0, "the run went on to its end after Cancel")
	assert.Equal(t, 1, eval[int](t, b, `document.querySelectorAll("#run-canceled").length`), "the panel does not say the run was canceled")
	after := metricCell(t, b, "entries", "a")
	assert.Equal(t, before, after, "entries %v after Cancel, want the previous %v", after, before)

	// A newer change supersedes a run in progress.
	gen := eval[int](t, b, `dmaviz.runState().gen`)
	setParam(t, b, "total", "12MiB")
	b.waitFor(t, "the second heavy run", fmt.Sprintf(`dmaviz.runState().gen > %d && dmaviz.runState().running`, gen))
	time.Sleep(300 * time.Millisecond)
	setParam(t, b, "total", "128KiB")
	b.waitFor(t, "the superseding run", runDone(gen+1))
	got := metricCell(t, b, "entries", "a")
	assert.Equal(t, 64.0, got, "entries %v after the superseding 128 KiB run, want 64", got)
	assert.Empty(t, b.consoleErrors(), "console errors")
}

// progressBarReadsItsValue checks on a screenshot that the run's progress
// bar is dark where it is not filled and blue where it is: the browser's
// default bar has a light track, which on the dark page read as full at
// 0 %. The fill only grows, so the bar's far end, unfilled when the value
// read before the screenshot is under 0.9, must be dark.
func progressBarReadsItsValue(t *testing.T, b *browser) {
	t.Helper()
	r := eval[[]float64](t, b, `(() => { const e = document.getElementById("run-progress"); const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height, +e.value]; })()`)
	img := b.screenshot(t)
	y := int(r[1] + r[3]/2)
	if r[4] < 0.9 {
		end := at(img, int(r[0]+r[2])-3, y)
		assert.Less(t, int(end.R)+int(end.G)+int(end.B), 3*80, "the progress bar's unfilled end is %v at value %.2f: it reads as filled", end, r[4])
	}
	if r[4] > 0.05 {
		start := at(img, int(r[0])+3, y)
		assert.Greater(t, int(start.B), int(start.R)+40, "the progress bar's filled start is %v at value %.2f: want the blue fill", start, r[4])
	}
}
