//go:build !js

package main

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dmaviz/dmaviz/cmd/internal/sitesrv"
	"github.com/dmaviz/dmaviz/internal/chrome"
)

// Start-up budgets: medians since navigation.
const (
	budgetStageMs = 1000
	budgetFirstMs = 1500
)

// startup writes the page's start-up and playback figures.
func startup(d *doc, dist string, loads int) error {
	panel, stage, results, dcl, play, err := pageTimes(dist, loads)
	if err != nil {
		return err
	}
	d.h2("Page start-up and playback")
	d.para("How: the built site served from localhost (`main.wasm` sent precompressed, %.2f MiB on the wire), %d loads, "+
		"each in a fresh headless Chromium (empty profile: nothing cached, no compiled code kept) at 1280x800 with "+
		"the browser tests' flags (WebGL2 in SwiftShader, so the GPU's work is done in software); medians of the times "+
		"since navigation the page reports, against its DOMContentLoaded in the same loads. Then in one browser the "+
		"default scenario (`%s`) is played slowly for 4 s, against the same page paused.", mib(play.wire), loads, play.scenario)
	x := func(v float64) string { return fmt.Sprintf("%.1fx", v/dcl) }
	d.table([]string{"since navigation (median)", "ms", "x DOMContentLoaded", "budget"}, [][]string{
		{"DOMContentLoaded (baseline)", fmt.Sprintf("%.0f", dcl), "1.0x", ""},
		{"panel's first render", fmt.Sprintf("%.0f", panel), x(panel), ""},
		{"stage's first frame", fmt.Sprintf("%.0f", stage), x(stage), fmt.Sprintf("%d ms: %s", budgetStageMs, verdict(stage <= budgetStageMs))},
		{"first A/B results", fmt.Sprintf("%.0f", results), x(results), fmt.Sprintf("%d ms: %s", budgetFirstMs, verdict(results <= budgetFirstMs))},
	})
	d.budget("stage's first frame within 1 s of navigation", fmt.Sprintf("%.0f ms", stage), stage <= budgetStageMs)
	d.budget("first A/B results within 1.5 s of navigation", fmt.Sprintf("%.0f ms", results), results <= budgetFirstMs)
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

// pageTimes loads the page several times in headless Chromium and returns
// the medians (ms since navigation) of the panel's first render, the stage's
// first frame and DOMContentLoaded, then measures playback.
func pageTimes(dist string, loads int) (panel, stage, results, dcl float64, pb playback, err error) {
	bin, err := chrome.Find()
	if err != nil {
		return 0, 0, 0, 0, pb, err
	}
	url, stopSrv, err := sitesrv.Start(dist)
	if err != nil {
		return 0, 0, 0, 0, pb, err
	}
	defer stopSrv()

	var ps, ss, rs, ds []float64
	for i := 0; i < loads; i++ {
		v, err := freshLoad(bin, url)
		if err != nil {
			return 0, 0, 0, 0, pb, fmt.Errorf("load %d: %w", i+1, err)
		}
		ps, ss, ds, rs = append(ps, v[0]), append(ss, v[1]), append(ds, v[2]), append(rs, v[3])
		pb.wire = int64(v[4])
	}

	ctx, stop, err := chrome.Fresh(bin, 1280, 800)
	if err != nil {
		return 0, 0, 0, 0, pb, err
	}
	defer stop()
	pctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	err = chromedp.Do(pctx, chromedp.Navigate(url+"?speed=-6"),
		chromedp.Poll[chromedp.Void](`window.dmaviz && dmaviz.resultsReadyAt > 0`))
	if err != nil {
		return 0, 0, 0, 0, pb, fmt.Errorf("playback: %w", err)
	}
	idle, err := chromedp.Run(pctx, chromedp.Evaluate[[]float64](playScript, chromedp.EvalAwaitPromise))
	if err != nil || len(idle) != 6 {
		return 0, 0, 0, 0, pb, fmt.Errorf("paused page: %v", err)
	}
	pb.idleRAF = idle[1]
	if err := chromedp.Do(pctx, chromedp.Click(chromedp.ID("btn-play"))); err != nil {
		return 0, 0, 0, 0, pb, fmt.Errorf("playback: %w", err)
	}
	r, err := chromedp.Run(pctx, chromedp.Evaluate[[]float64](playScript, chromedp.EvalAwaitPromise))
	if err != nil || len(r) != 6 {
		return 0, 0, 0, 0, pb, fmt.Errorf("playback: %v", err)
	}
	pb.scenario, _ = chromedp.Run(pctx, chromedp.Evaluate[string](`new URLSearchParams(location.search).get("scenario")`))
	pb.fps, pb.rafFPS, pb.frames, pb.heapGrowth, pb.drawMs = r[0], r[1], int(r[2]), r[4], r[5]
	if r[2] > 0 {
		pb.mallocsPerFrame = r[3] / r[2]
	}
	return median(ps), median(ss), median(rs), median(ds), pb, nil
}

// startScript waits for the first A/B results and returns the start-up
// times (ms since navigation): panel, stage, DOMContentLoaded, results,
// and the bytes main.wasm took on the wire.
const startScript = `window.dmaviz && dmaviz.resultsReadyAt > 0 && [dmaviz.panelReadyAt, dmaviz.stageReadyAt, performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd, dmaviz.resultsReadyAt,
  (performance.getEntriesByName(new URL("main.wasm", location.href).href)[0] || {}).encodedBodySize || 0]`

// freshLoad starts a browser with an empty profile (nothing cached, no
// compiled code kept), loads url once and returns startScript's figures.
func freshLoad(bin, url string) ([]float64, error) {
	var v []float64
	err := onFreshPage(bin, url, 60*time.Second, func(ctx context.Context) (err error) {
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
