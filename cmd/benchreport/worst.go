//go:build !js

package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dmaviz/dmaviz/cmd/internal/sitesrv"
	"github.com/dmaviz/dmaviz/internal/chrome"
)

// Page budgets for a scenario's worst setting (issue 12).
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

// worstInPage opens each worst setting (cmd/corners -worst) in a fresh
// browser and reports the run's time in the page, the WebAssembly memory
// after it (its peak: the memory only grows) and the longest task.
func worstInPage(dist, file string) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	bin, err := chrome.Find()
	if err != nil {
		return err
	}
	site, stopSrv, err := sitesrv.Start(dist)
	if err != nil {
		return err
	}
	defer stopSrv()
	fmt.Printf("  worst settings in the page (from %s), budget %v and %d MiB of WebAssembly memory:\n", file, budgetWorstPage, budgetWasmMem>>20)
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		id, query, _ := strings.Cut(strings.TrimSpace(line), " ")
		if id == "" {
			continue
		}
		url := site + "?scenario=" + id
		if query != "" {
			url += "&" + query
		}
		v, err := pageRun(bin, url)
		if err != nil {
			fmt.Printf("    %-8s could not be timed: %v\n", id, err)
			continue
		}
		ms, mem, long, shown := v[0].(float64), v[1].(float64), v[2].(float64), v[3].(float64)
		ok := time.Duration(ms)*time.Millisecond <= budgetWorstPage && mem <= budgetWasmMem && shown == 1
		fmt.Printf("    %-8s run %6.2f s   wasm memory %6.0f MiB   longest task since navigation %4.0f ms   %s\n", id, ms/1000, mem/(1<<20), long, verdict(ok))
		if shown != 1 {
			fmt.Printf("             no results: %s\n", v[4])
		}
	}
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
