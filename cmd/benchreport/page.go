//go:build !js

package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dmaviz/dmaviz/cmd/internal/sitesrv"
	"github.com/dmaviz/dmaviz/internal/chrome"
)

// Start-up budgets: medians since navigation. The first view is the
// site builder's pre-rendered stage and panel (results included); the live
// simulator's stage and results are reported beside them.
const (
	budgetFirstViewMs    = 500
	budgetFirstResultsMs = 500
)

// startup writes the page's start-up and playback figures.
func startup(d *doc, dist string, loads int) error {
	t, play, err := pageTimes(dist, loads)
	if err != nil {
		return err
	}
	dcl := t.dcl
	d.h2("Page start-up and playback")
	d.para("How: the built site served from localhost (`main.wasm` sent precompressed, %.2f MiB on the wire), %d loads, "+
		"each in a fresh headless Chromium (empty profile: nothing cached, no compiled code kept) at 1280x800 with "+
		"the browser tests' flags (WebGL2 in SwiftShader, so the GPU's work is done in software); medians of the times "+
		"since navigation the page reports, against its DOMContentLoaded in the same loads. Then in one browser the "+
		"default scenario (`%s`) is played slowly for 4 s, against the same page paused.", mib(play.wire), loads, play.scenario)
	x := func(v float64) string { return fmt.Sprintf("%.1fx", v/dcl) }
	row := func(what string, v float64, budget string) []string {
		return []string{what, fmt.Sprintf("%.0f", v), x(v), budget}
	}
	d.table([]string{"since navigation (median)", "ms", "x DOMContentLoaded", "budget"}, [][]string{
		row("DOMContentLoaded (baseline)", dcl, ""),
		row("first view: pre-rendered stage and panel (mark dmaviz:first-view)", t.firstView, fmt.Sprintf("%d ms: %s", budgetFirstViewMs, verdict(t.firstView <= budgetFirstViewMs))),
		row("results visible (pre-rendered)", t.firstResults, fmt.Sprintf("%d ms: %s", budgetFirstResultsMs, verdict(t.firstResults <= budgetFirstResultsMs))),
		row("live panel's first render", t.panel, ""),
		row("live stage's first frame", t.stage, ""),
		row("live A/B results", t.results, ""),
		row("live simulator has taken over (mark dmaviz:live)", t.live, "reported"),
	})
	d.para("Load average (1 min) before each load: %s.", strings.Join(t.loads, ", "))
	d.budget("first view within 0.5 s of navigation", fmt.Sprintf("%.0f ms", t.firstView), t.firstView <= budgetFirstViewMs)
	d.budget("results visible within 0.5 s of navigation", fmt.Sprintf("%.0f ms", t.firstResults), t.firstResults <= budgetFirstResultsMs)
	d.table([]string{"while playing", "", "baseline"}, [][]string{
		{"stage frames/s", fmt.Sprintf("%.1f", play.fps), fmt.Sprintf("%.1f animation frames/s of the paused page (%.2f of it)", play.idleRAF, play.fps/play.idleRAF)},
		{"Go time per frame (build and submit)", fmt.Sprintf("%.1f ms", play.drawMs), ""},
		{"Go allocations per frame", fmt.Sprintf("%.1f", play.mallocsPerFrame), ""},
		{"Go heap after - before", fmt.Sprintf("%+.2f MiB over %d frames", play.heapGrowth/(1<<20), play.frames), ""},
	})
	return nil
}

// playback is what the stage does while playing the default scenario.
type playback struct {
	scenario        string
	fps, rafFPS     float64
	frames          int
	mallocsPerFrame float64
	heapGrowth      float64
	drawMs          float64 // Go time per frame building and submitting the scene
	idleRAF         float64 // animation frames/s of the same page, paused
	wire            int64   // bytes main.wasm took on the wire (the encoding served)
}

// playScript plays the default scenario slowly for 4 s, counting stage
// frames, the browser's animation frames (the ceiling) and Go allocations.
const playScript = `new Promise(resolve => {
  let raf = 0, run = true;
  const tick = () => { raf++; if (run) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  const m0 = dmaviz.goMem(), f0 = dmaviz.frames, d0 = dmaviz.drawMs, t0 = performance.now();
  setTimeout(() => {
    run = false;
    const m1 = dmaviz.goMem(), f1 = dmaviz.frames, d1 = dmaviz.drawMs, s = (performance.now() - t0) / 1000;
    resolve([(f1 - f0) / s, raf / s, f1 - f0, m1.mallocs - m0.mallocs, m1.heapAlloc - m0.heapAlloc, (d1 - d0) / Math.max(f1 - f0, 1)]);
  }, 4000);
})`

// startTimes are the start-up medians (ms since navigation), and the load
// average before each load.
type startTimes struct {
	panel, stage, results, dcl    float64 // live
	firstView, firstResults, live float64
	loads                         []string
}

// pageTimes loads the page several times in headless Chromium and returns
// the medians (ms since navigation) of the first view, the live panel's
// first render, stage's first frame and results, the take-over and
// DOMContentLoaded, then measures playback.
func pageTimes(dist string, loads int) (t startTimes, pb playback, err error) {
	bin, err := chrome.Find()
	if err != nil {
		return t, pb, err
	}
	url, stopSrv, err := sitesrv.Start(dist)
	if err != nil {
		return t, pb, err
	}
	defer stopSrv()

	cols := make([][]float64, 8)
	for i := 0; i < loads; i++ {
		t.loads = append(t.loads, loadAvg())
		v, err := freshLoad(bin, url)
		if err != nil {
			return t, pb, fmt.Errorf("load %d: %w", i+1, err)
		}
		for j := range cols {
			cols[j] = append(cols[j], v[j])
		}
		pb.wire = int64(v[4])
	}
	t.panel, t.stage, t.dcl, t.results = median(cols[0]), median(cols[1]), median(cols[2]), median(cols[3])
	t.firstView, t.firstResults, t.live = median(cols[5]), median(cols[6]), median(cols[7])

	ctx, stop, err := chrome.Fresh(bin, 1280, 800)
	if err != nil {
		return t, pb, err
	}
	defer stop()
	pctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	err = chromedp.Do(pctx, chromedp.Navigate(url+"?speed=-6&t=0"), // t=: opens still (a first visit plays)
		chromedp.Poll[chromedp.Void](`window.dmaviz && dmaviz.resultsReadyAt > 0`))
	if err != nil {
		return t, pb, fmt.Errorf("playback: %w", err)
	}
	idle, err := chromedp.Run(pctx, chromedp.Evaluate[[]float64](playScript, chromedp.EvalAwaitPromise))
	if err != nil || len(idle) != 6 {
		return t, pb, fmt.Errorf("paused page: %v", err)
	}
	pb.idleRAF = idle[1]
	if err := chromedp.Do(pctx, chromedp.Click(chromedp.ID("btn-play"))); err != nil {
		return t, pb, fmt.Errorf("playback: %w", err)
	}
	r, err := chromedp.Run(pctx, chromedp.Evaluate[[]float64](playScript, chromedp.EvalAwaitPromise))
	if err != nil || len(r) != 6 {
		return t, pb, fmt.Errorf("playback: %v", err)
	}
	pb.scenario, _ = chromedp.Run(pctx, chromedp.Evaluate[string](`new URLSearchParams(location.search).get("scenario")`))
	pb.fps, pb.rafFPS, pb.frames, pb.heapGrowth, pb.drawMs = r[0], r[1], int(r[2]), r[4], r[5]
	if r[2] > 0 {
		pb.mallocsPerFrame = r[3] / r[2]
	}
	return t, pb, nil
}

// startScript waits for the live simulator to take over and returns the
// start-up times (ms since navigation): panel, stage, DOMContentLoaded,
// results, the bytes main.wasm took on the wire, the first view, its
// results and the take-over.
const startScript = `window.dmaviz && dmaviz.resultsReadyAt > 0 && dmavizFirst.liveAt > 0 && [dmaviz.panelReadyAt, dmaviz.stageReadyAt, performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd, dmaviz.resultsReadyAt,
  (performance.getEntriesByName(new URL("main.wasm", location.href).href)[0] || {}).encodedBodySize || 0,
  performance.getEntriesByName("dmaviz:first-view")[0].startTime, dmavizFirst.resultsAt, performance.getEntriesByName("dmaviz:live")[0].startTime]`

// freshLoad starts a browser with an empty profile (nothing cached, no
// compiled code kept), loads url once and returns startScript's figures.
func freshLoad(bin, url string) ([]float64, error) {
	var v []float64
	err := onFreshPage(bin, url, 120*time.Second, func(ctx context.Context) (err error) {
		v, err = chromedp.Run(ctx, chromedp.Poll[[]float64](startScript))
		return err
	})
	return v, err
}

// onFreshPage starts a browser with an empty profile in a 1280x800
// window, navigates to url and calls fn, all within timeout.
func onFreshPage(bin, url string, timeout time.Duration, fn func(context.Context) error) error {
	ctx, stop, err := chrome.Fresh(bin, 1280, 800)
	if err != nil {
		return err
	}
	defer stop()
	lctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := chromedp.Do(lctx, chromedp.Navigate(url)); err != nil {
		return err
	}
	return fn(lctx)
}

func median(v []float64) float64 {
	sort.Float64s(v)
	return v[len(v)/2]
}
