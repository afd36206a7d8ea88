//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// observeLongTasks starts recording the page's long tasks (over 50 ms) into
// window.longTasks.
const observeLongTasks = `(() => {
  window.longTasks = [];
  window.longFrames = [];
  if (!window.longObserved) {
    window.longObserved = true;
    new PerformanceObserver(list => { for (const e of list.getEntries()) longTasks.push(e.duration); })
      .observe({type: "longtask"});
    new PerformanceObserver(list => { for (const e of list.getEntries()) longFrames.push(e.duration); })
      .observe({type: "long-animation-frame"});
  }
  return true;
})()`

// runDone is true once the run numbered above gen has ended.
func runDone(gen int) string {
	return fmt.Sprintf(`dmaviz.runState && dmaviz.runState().gen > %d && !dmaviz.runState().running`, gen)
}

// setParam types text into a parameter field and commits it.
func setParam(t *testing.T, b *browser, name, text string) {
	t.Helper()
	b.do(t, "setting "+name+"="+text, chromedp.SetValue(chromedp.ID("param-"+name), text),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("param-`+name+`").dispatchEvent(new Event("change", {bubbles: true}))`))
}

// TestReRunHasNoLongTask: a default re-run of every scenario (A and B
// swapped, the same setting) keeps every main-thread task under 100 ms.
func TestReRunHasNoLongTask(t *testing.T) {
	b := newBrowser(t)
	// What is measured is the page's own work in each task: a long
	// animation frame's duration (scripts, then style and layout), which
	// ends before the browser commits the frame. The long task around it
	// also holds that commit, and headless Chromium composites in
	// software: committing a changed WebGL canvas reads it back, which
	// waits for SwiftShader to draw the frame (60-100 ms for the frame
	// that shows new results here, traced as ANGLE's finish inside
	// ReadPixels), a wait a GPU-composited browser does not have. Both are
	// logged. A page that blocks fails either way (checked with the
	// runner's slice raised from 10 ms to 1 s). Each scenario re-runs up
	// to five times and passes when one re-run has no frame over 100 ms.
	for _, sc := range []string{"etr", "sg-sync", "demo", "smmu-bypass", "vmap", "trbe-aux", "spe-aux"} {
		openReady(t, b, "?scenario="+sc+"&size=paper") // the published settings: the heaviest default runs
		best := math.Inf(1)
		for try := 1; try <= 5 && best > 100; try++ {
			gen := eval[int](t, b, `dmaviz.runState().gen`)
			eval[bool](t, b, observeLongTasks)
			b.do(t, "swapping A and B", chromedp.Click(chromedp.ID("btn-swap")))
			b.waitFor(t, sc+" re-run", runDone(gen))
			// Entries arrive asynchronously: let the tasks around the
			// run's end be reported before reading them.
			b.do(t, "letting the observer report", chromedp.Poll[chromedp.Void](`new Promise(r => setTimeout(() => requestAnimationFrame(() => setTimeout(() => r(true), 100)), 0))`))
			frame := eval[float64](t, b, `Math.max(0, ...longFrames)`)
			task := eval[float64](t, b, `Math.max(0, ...longTasks)`)
			ms := eval[float64](t, b, `dmaviz.runState().ms`)
			t.Logf("%s re-run %d: %.0f ms, showing the results %.0f ms, longest frame (page work) %.0f ms, longest task (with the commit) %.0f ms (%d over 50 ms)", sc, try, ms,
				eval[float64](t, b, `dmaviz.runState().deliverMs`), frame, task, eval[int](t, b, `longTasks.length`))
			best = min(best, frame)
		}
		assert.LessOrEqual(t, best, 100.0, "%s: a frame of %.0f ms or more of the page's work in each of five re-runs (want a re-run with none over 100 ms)", sc, best)
	}
}

// heavy is the kind of setting that once froze the page for about a
// minute (then with a 64 MiB list, now refused), here with the direct
// path (A and B differ) and a small list first, so that the page shows
// results to keep playing.
const heavy = "?scenario=sg-sync&entry=2KiB&cpu=writes&direction=bidirectional&iterations=100000&entry-offset=4095&speed=-4&total="

// TestHeavyRunKeepsThePageResponsive: while the heaviest setting computes,
// the page answers, the stage plays the previous results, the progress
// shows and Cancel stops the run; a newer change supersedes a run.
func TestHeavyRunKeepsThePageResponsive(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, heavy+"64KiB")
	before := metricCell(t, b, "entries", "a")
	b.do(t, "playing", chromedp.Click(chromedp.ID("btn-play")))
	gen := eval[int](t, b, `dmaviz.runState().gen`)
	eval[bool](t, b, observeLongTasks)
	setParam(t, b, "total", "14MiB") // about the largest allowed with these settings
	b.waitFor(t, "the heavy run to start", `dmaviz.runState().running && document.getElementById("run-progress") !== null`)

	// The page answers while the model works: a window of eight evaluated
	// expressions, 100 ms apart, has none slower than 200 ms. A page that
	// blocks for longer fails every window (checked with the runner's
	// slice raised to 1 s). Headless Chromium composites in software: the
	// task that commits a changed WebGL canvas waits for SwiftShader to
	// draw it, 100-240 ms here while the frames' own work stays under 80
	// (both logged), and a probe that lands behind one waits too; so a
	// second or third window is tried while the run still computes.
	var frames0, done0 float64
	var cursor0 string
	best := time.Duration(math.MaxInt64)
	for window := 1; window <= 3 && best > 200*time.Millisecond; window++ {
		if window > 1 && !eval[bool](t, b, `dmaviz.runState().running`) {
			break // a window after the run would say nothing
		}
		worst := time.Duration(0)
		timed := func(f func()) {
			start := time.Now()
			f()
			worst = max(worst, time.Since(start))
		}
		if window == 1 { // the state the checks below compare with
			timed(func() { frames0 = eval[float64](t, b, `dmaviz.frames`) })
			timed(func() { cursor0 = eval[string](t, b, `document.getElementById("cursor-text").textContent`) })
			timed(func() { done0 = eval[float64](t, b, `dmaviz.runState().done`) })
		}
		for i := 0; i < 8; i++ {
			timed(func() { eval[int](t, b, `1 + 1`) })
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("window %d: slowest evaluated expression %v; long tasks so far %s, long frames %s", window, worst,
			eval[string](t, b, `JSON.stringify(longTasks)`), eval[string](t, b, `JSON.stringify(longFrames)`))
		best = min(best, worst)
	}
	assert.LessOrEqual(t, best, 200*time.Millisecond, "an evaluated expression took %v or more in every window while the run computed (want under 200 ms)", best)
	require.True(t, eval[bool](t, b, `dmaviz.runState().running`), "the heavy run ended within a window of probes: nothing left to check")
	f := eval[float64](t, b, `dmaviz.frames`)
	assert.Greater(t, f, frames0+5, "the stage drew %v frames in a second of the run (want it playing)", f-frames0)
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
	ctx, cancel := context.WithTimeout(b.ctx, 2*time.Second)
	_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](`!dmaviz.runState().running && dmaviz.runState().canceled`))
	cancel()
	require.NoError(t, err, "the run did not stop within 2 s of Cancel")
	assert.Equal(t, 1, eval[int](t, b, `document.querySelectorAll("#run-canceled").length`), "the panel does not say the run was canceled")
	after := metricCell(t, b, "entries", "a")
	assert.Equal(t, before, after, "entries %v after Cancel, want the previous %v", after, before)

	// A newer change supersedes a run in progress.
	gen = eval[int](t, b, `dmaviz.runState().gen`)
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
