//go:build !js

package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"

	"github.com/dmaviz/dmaviz/cmd/internal/corners"
	"github.com/dmaviz/dmaviz/cmd/internal/sitesrv"
	"github.com/dmaviz/dmaviz/internal/chrome"
)

// Page budgets for a scenario's worst setting.
const (
	budgetWorstPage = 6 * time.Second
	budgetWasmMem   = 512 << 20
)

// stateScript returns the page's first run's state once it has started:
// [running (0 or 1), its wall time so far (ms), the WebAssembly memory
// (bytes), the longest task since navigation (ms), whether results show,
// the run status text]; null before the run starts.
const stateScript = `window.dmaviz && dmaviz.runState && dmaviz.runState().gen > 0 ?
  [dmaviz.runState().running ? 1 : 0, dmaviz.runState().ms, dmaviz.wasmBytes(), Math.max(0, ...(window.benchLongTasks || [])),
   dmaviz.resultsReadyAt > 0 ? 1 : 0, (document.getElementById("run-status") || {}).textContent || ""] : null`

// observeScript records long tasks from the start of the page.
const observeScript = `window.benchLongTasks = []; new PerformanceObserver(l => { for (const e of l.getEntries()) benchLongTasks.push(e.duration); }).observe({type: "longtask", buffered: true}); true`

// worstInPage opens each worst setting (cmd/corners) in a fresh browser
// and writes the run's CPU time on the page's thread and its wall time,
// the WebAssembly memory after it (its peak: the memory only grows) and
// the longest task.
func worstInPage(d *doc, dist string, ws []corners.Worst) error {
	bin, err := chrome.Find()
	if err != nil {
		return err
	}
	site, stopSrv, err := sitesrv.Start(dist)
	if err != nil {
		return err
	}
	defer stopSrv()
	var rows [][]string
	allOK, slowest := true, 0.0
	for _, w := range ws {
		url := site + "?scenario=" + w.Scenario
		if w.Query != "" {
			url += "&" + w.Query
		}
		r, err := pageRun(bin, url)
		if err != nil {
			allOK = false
			rows = append(rows, []string{"`" + w.Scenario + "`", "could not be timed: " + strings.ReplaceAll(err.Error(), "|", "/"), "", "", "", ""})
			continue
		}
		ok := r.cpu <= budgetWorstPage && r.mem <= budgetWasmMem && r.shown
		allOK, slowest = allOK && ok, max(slowest, r.cpu.Seconds())
		cpu := fmt.Sprintf("%.2f s", r.cpu.Seconds())
		if !r.shown {
			cpu = "no results: " + strings.ReplaceAll(r.status, "|", "/")
		}
		rows = append(rows, []string{"`" + w.Scenario + "`", cpu, fmt.Sprintf("%.2f s", r.wall.Seconds()),
			fmt.Sprintf("%.0f MiB", float64(r.mem)/(1<<20)), fmt.Sprintf("%.0f ms", r.longest.Seconds()*1000), verdict(ok)})
	}
	d.h2("Worst settings in the page")
	d.para("How: each scenario's worst native setting opened in a fresh headless Chromium (empty profile, 1280x800). "+
		"The run (A then B) is judged by the CPU time of the page's thread while it runs (Chrome's `Performance.getMetrics` "+
		"`ThreadTime`, read every 100 ms from the run's start to its end), where the model, the collector and the stage's "+
		"frames all run; its wall time as the page reports it is beside it, and also counts the pauses in which the run "+
		"gives the thread to the page and time the machine spends elsewhere. Then the WebAssembly memory after it (its "+
		"peak: the memory only grows) and the longest main-thread task since navigation (start-up included). Budgets: "+
		"%.0f s of CPU time per run, %d MiB of WebAssembly memory.", budgetWorstPage.Seconds(), budgetWasmMem>>20)
	d.table([]string{"scenario", "CPU (page's thread)", "wall", "WebAssembly memory", "longest task", "verdict"}, rows)
	d.budget(fmt.Sprintf("worst settings in the page within %.0f s of CPU time and %d MiB", budgetWorstPage.Seconds(), budgetWasmMem>>20), fmt.Sprintf("slowest %.2f s", slowest), allOK)
	return nil
}

// pageRun is the page's first run as worstInPage reports it.
type pageRunResult struct {
	cpu, wall, longest time.Duration
	mem                int64
	shown              bool
	status             string
}

// pageRun opens url in a fresh browser and follows its first run to the
// end, reading the page thread's CPU time as the run starts and ends.
func pageRun(bin, url string) (pageRunResult, error) {
	var r pageRunResult
	err := onFreshPage(bin, url, 3*time.Minute, func(ctx context.Context) error {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](observeScript)); err != nil {
			return err
		}
		if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, performance.Enable, performance.EnableParams{TimeDomain: performance.EnableTimeDomainThreadTicks})
			return err
		})); err != nil {
			return err
		}
		start := time.Duration(-1)
		for {
			v, err := chromedp.Run(ctx, chromedp.Evaluate[[]any](stateScript))
			if err != nil {
				return err
			}
			cpu, err := threadTime(ctx)
			if err != nil {
				return err
			}
			if len(v) == 6 {
				running := v[0].(float64) == 1
				if start < 0 && running {
					start = cpu
				}
				if !running {
					r.cpu, r.wall = cpu-start, time.Duration(v[1].(float64)*float64(time.Millisecond))
					if start < 0 { // it ended before a poll saw it running
						r.cpu = r.wall
					}
					r.mem, r.longest = int64(v[2].(float64)), time.Duration(v[3].(float64)*float64(time.Millisecond))
					r.shown, r.status = v[4].(float64) == 1, fmt.Sprint(v[5])
					return nil
				}
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	return r, err
}

// threadTime is the CPU time of the page's main thread so far.
func threadTime(ctx context.Context) (time.Duration, error) {
	m, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (performance.GetMetricsResult, error) {
		return cdp.Call(ctx, tg, performance.GetMetrics, cdp.Empty{})
	})
	if err != nil {
		return 0, err
	}
	for _, x := range m.Metrics {
		if x.Name == "ThreadTime" {
			return time.Duration(x.Value * float64(time.Second)), nil
		}
	}
	return 0, fmt.Errorf("Performance.getMetrics has no ThreadTime")
}
