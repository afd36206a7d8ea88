//go:build !js

// Command benchreport prints dmaviz's page budgets beside baselines measured
// in the same run, so the figures stay comparable on a shared, noisy machine:
//
//   - main.wasm raw, gzip and Brotli size (the copies sitebuild wrote, which
//     `dmaviz serve` sends), against a bare "hello" js/wasm program compressed
//     the same way;
//   - cold build time of main.wasm (empty build cache), against the cold build
//     of that bare program;
//   - time from navigation to the panel's first render, the stage's first
//     frame and the first A/B results (median of 5 loads, each in a fresh
//     headless Chromium with an empty profile), against the same page's
//     DOMContentLoaded.
//
// Run it with `make bench` after `make site`.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/chromedp/chromedp"

	"github.com/dmaviz/dmaviz/cmd/internal/sitesrv"
	"github.com/dmaviz/dmaviz/internal/chrome"
)

// Budgets (issue 12): main.wasm compressed, and the start-up medians.
const (
	budgetGzip    = 3 << 20
	budgetBrotli  = 23 << 20 / 10 // 2.3 MiB
	budgetStageMs = 1000
	budgetFirstMs = 1500
)

func main() {
	dist := flag.String("dist", "dist", "built site")
	loads := flag.Int("loads", 5, "page loads (each in a fresh browser profile) to take the median of")
	cold := flag.Bool("cold", true, "measure cold build times")
	worst := flag.String("worst", "", "file of \"scenario query\" lines (cmd/corners -worst) to time in the page")
	flag.Parse()
	if err := report(*dist, *loads, *cold, *worst); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
}

func report(dist string, loads int, cold bool, worst string) error {
	tmp, err := os.MkdirTemp("", "dmaviz-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	hello := filepath.Join(tmp, "hello")
	if err := os.MkdirAll(hello, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(hello, "main.go"), []byte("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\") }\n"), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(hello, "go.mod"), []byte("module hello\n\ngo 1.26\n"), 0o644); err != nil {
		return err
	}

	wasm := filepath.Join(dist, "main.wasm")
	wasmRaw, err := fileSize(wasm)
	if err != nil {
		return fmt.Errorf("%w (run make site first)", err)
	}
	wasmGz, err := fileSize(wasm + ".gz")
	if err != nil {
		return fmt.Errorf("%w (run make site first)", err)
	}
	wasmBr, err := fileSize(wasm + ".br")
	if err != nil {
		return fmt.Errorf("%w (run make site first)", err)
	}
	helloWasm := filepath.Join(tmp, "hello.wasm")
	helloCold, err := build(hello, ".", helloWasm, filepath.Join(tmp, "cache-hello"), cold)
	if err != nil {
		return err
	}
	helloRaw, helloGz, helloBr, err := sizes(helloWasm)
	if err != nil {
		return err
	}
	wd, _ := os.Getwd()
	appCold, err := build(wd, "./wasm", filepath.Join(tmp, "main.wasm"), filepath.Join(tmp, "cache-app"), cold)
	if err != nil {
		return err
	}

	fmt.Println("dmaviz page budgets (baseline measured in this run)")
	fmt.Printf("  main.wasm raw            %8.2f MiB   bare hello.wasm %6.2f MiB   ratio %.1fx\n", mib(wasmRaw), mib(helloRaw), float64(wasmRaw)/float64(helloRaw))
	fmt.Printf("  main.wasm gzip -9        %8.2f MiB   bare hello.wasm %6.2f MiB   ratio %.1fx   budget %.1f MiB: %s\n", mib(wasmGz), mib(helloGz), float64(wasmGz)/float64(helloGz), mib(budgetGzip), verdict(wasmGz <= budgetGzip))
	fmt.Printf("  main.wasm Brotli q11     %8.2f MiB   bare hello.wasm %6.2f MiB   ratio %.1fx   budget %.1f MiB: %s   (%.0f%% of gzip)\n", mib(wasmBr), mib(helloBr), float64(wasmBr)/float64(helloBr), mib(budgetBrotli), verdict(wasmBr <= budgetBrotli), 100*float64(wasmBr)/float64(wasmGz))
	if cold {
		fmt.Printf("  cold build (js/wasm)     %8.1f s     bare hello      %6.1f s     ratio %.1fx\n", appCold.Seconds(), helloCold.Seconds(), appCold.Seconds()/helloCold.Seconds())
	}

	panel, stage, results, dcl, play, err := pageTimes(dist, loads)
	if err != nil {
		return err
	}
	fmt.Printf("  main.wasm as Chromium fetched it: %.2f MiB on the wire\n", mib(play.wire))
	fmt.Printf("  fresh profile per load, median of %d\n", loads)
	fmt.Printf("  navigation -> DOMContentLoaded (baseline)   median %6.0f ms\n", dcl)
	fmt.Printf("  navigation -> panel first render            median %6.0f ms   (%.1fx baseline)\n", panel, panel/dcl)
	fmt.Printf("  navigation -> stage first frame             median %6.0f ms   (%.1fx baseline)   budget %d ms: %s\n", stage, stage/dcl, budgetStageMs, verdict(stage <= budgetStageMs))
	fmt.Printf("  navigation -> first A/B results (%s)          median %6.0f ms   (%.1fx baseline)   budget %d ms: %s\n", play.scenario, results, results/dcl, budgetFirstMs, verdict(results <= budgetFirstMs))
	fmt.Printf("  stage frames/s while playing (%s)   %5.1f   animation frames/s of the paused page %5.1f (baseline)   ratio %.2f\n", play.scenario, play.fps, play.idleRAF, play.fps/play.idleRAF)
	fmt.Printf("  Go time per stage frame (build + submit; WebGL runs in SwiftShader here)  %6.1f ms\n", play.drawMs)
	fmt.Printf("  Go allocations per stage frame while playing  %8.1f   Go heap after - before %+.2f MiB over %d frames\n", play.mallocsPerFrame, play.heapGrowth/(1<<20), play.frames)
	if worst != "" {
		return worstInPage(dist, worst)
	}
	return nil
}

func verdict(ok bool) string {
	if ok {
		return "within"
	}
	return "OVER"
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }

func fileSize(path string) (int64, error) {
	st, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

// sizes compresses the file at path as sitebuild does (gzip -9, Brotli
// quality 11 with a 16 MiB window).
func sizes(path string) (raw, gz, br int64, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, 0, err
	}
	var zbuf, bbuf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&zbuf, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	bw := brotli.NewWriterOptions(&bbuf, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: 24})
	bw.Write(b)
	bw.Close()
	return int64(len(b)), int64(zbuf.Len()), int64(bbuf.Len()), nil
}

// build compiles pkg in dir for js/wasm with a fresh build cache and returns
// how long it took.
func build(dir, pkg, out, cache string, cold bool) (time.Duration, error) {
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, pkg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if cold {
		cmd.Env = append(cmd.Env, "GOCACHE="+cache)
	}
	start := time.Now()
	if b, err := cmd.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("building %s: %v\n%s", pkg, err, b)
	}
	return time.Since(start), nil
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
