//go:build !js

package main

import (
	"context"
	"fmt"
	"strings"
	"time"

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

// worstScript waits for the page's first run to end and returns its wall
// time (ms), the WebAssembly memory (bytes), the longest task seen during
// it (ms), whether it was shown, and the run status text.
const worstScript = `window.dmaviz && dmaviz.runState && dmaviz.runState().gen > 0 && !dmaviz.runState().running &&
  [dmaviz.runState().ms, dmaviz.wasmBytes(), Math.max(0, ...(window.benchLongTasks || [])), dmaviz.resultsReadyAt > 0 ? 1 : 0,
   (document.getElementById("run-status") || {}).textContent || ""]`

// observeScript records long tasks from the start of the page.
const observeScript = `window.benchLongTasks = []; new PerformanceObserver(l => { for (const e of l.getEntries()) benchLongTasks.push(e.duration); }).observe({type: "longtask", buffered: true}); true`

// worstInPage opens each worst setting (cmd/corners) in a fresh browser
// and writes the run's time in the page, the WebAssembly memory after it
// (its peak: the memory only grows) and the longest task.
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
		v, err := pageRun(bin, url)
		if err != nil {
			allOK = false
			rows = append(rows, []string{"`" + w.Scenario + "`", "could not be timed: " + strings.ReplaceAll(err.Error(), "|", "/"), "", "", ""})
			continue
		}
		ms, mem, long, shown := v[0].(float64), v[1].(float64), v[2].(float64), v[3].(float64)
		ok := time.Duration(ms)*time.Millisecond <= budgetWorstPage && mem <= budgetWasmMem && shown == 1
		allOK, slowest = allOK && ok, max(slowest, ms)
		run := fmt.Sprintf("%.2f s", ms/1000)
		if shown != 1 {
			run = fmt.Sprintf("no results: %v", v[4])
		}
		rows = append(rows, []string{"`" + w.Scenario + "`", run, fmt.Sprintf("%.0f MiB", mem/(1<<20)), fmt.Sprintf("%.0f ms", long), verdict(ok)})
	}
	d.h2("Worst settings in the page")
	d.para("How: each scenario's worst native setting opened in a fresh headless Chromium (empty profile, 1280x800): the "+
		"run's wall time as the page reports it, the WebAssembly memory after it (its peak: the memory only grows) and "+
		"the longest main-thread task since navigation (start-up included). Budgets: %v per run (A and B), %d MiB of "+
		"WebAssembly memory.", budgetWorstPage, budgetWasmMem>>20)
	d.table([]string{"scenario", "run", "WebAssembly memory", "longest task", "verdict"}, rows)
	d.budget(fmt.Sprintf("worst settings in the page within %v and %d MiB", budgetWorstPage, budgetWasmMem>>20), fmt.Sprintf("slowest %.2f s", slowest/1000), allOK)
	return nil
}

func pageRun(bin, url string) ([]any, error) {
	var v []any
	err := onFreshPage(bin, url, 3*time.Minute, func(ctx context.Context) (err error) {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](observeScript)); err != nil {
			return err
		}
		v, err = chromedp.Run(ctx, chromedp.Poll[[]any](worstScript, chromedp.WithPollingTimeout(3*time.Minute)))
		return err
	})
	return v, err
}
