//go:build !js

// Command benchreport measures dmaviz against its budgets, each figure
// beside a baseline measured in the same run so that figures stay
// comparable on a shared, noisy machine, and writes the result as
// Markdown (docs/PERFORMANCE.md; make bench runs it after make site):
//
//   - main.wasm raw, gzip and Brotli size and its cold build time, against
//     a bare "hello" js/wasm program;
//   - the model's benchmarks natively and as WebAssembly under Node, each
//     with its own plain-Go baseline;
//   - every scenario's worst setting natively (cmd/corners, judged by CPU
//     time) and the same settings in the page;
//   - the page's start-up in fresh headless Chromium profiles (the
//     pre-rendered first view, its results and the live simulator's
//     take-over) and its playback, against DOMContentLoaded and the paused
//     page;
//   - the bytes a page with the embeds of docs/embeds.txt, and one with
//     the DMA lesson's five stops embedded, transfer before and after a
//     click on one.
//
// It exits 1 when a step fails or a worst setting is past its native bound
// (after writing what it measured).
//
//	go run ./cmd/benchreport [-out docs/PERFORMANCE.md] [-model=false] [-corners=false]
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/dmaviz/dmaviz/internal/chrome"
)

func main() {
	var o options
	flag.StringVar(&o.dist, "dist", "dist", "built site")
	flag.StringVar(&o.out, "out", "", "write the report here as well as to stdout (make bench: docs/PERFORMANCE.md)")
	flag.StringVar(&o.goBin, "go", "go", "go command")
	flag.IntVar(&o.loads, "loads", 5, "page loads (each in a fresh browser profile) to take the median of")
	flag.BoolVar(&o.cold, "cold", true, "measure cold build times")
	flag.BoolVar(&o.model, "model", true, "run the model's benchmarks natively and as WebAssembly")
	flag.BoolVar(&o.corners, "corners", true, "find each scenario's worst setting (cmd/corners) and time it in the page")
	flag.Parse()
	failed, err := report(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
	if failed {
		os.Exit(1)
	}
}

type options struct {
	dist, out, goBin     string
	loads                int
	cold, model, corners bool
}

// report measures everything and writes the document; failed is true when
// a worst setting is past its native bound.
func report(o options) (failed bool, err error) {
	tmp, err := os.MkdirTemp("", "dmaviz-bench")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(tmp)
	start, load0 := time.Now(), loadAvg()
	var d doc
	if _, _, err := wasmSize(&d, o.dist, tmp, o.cold); err != nil {
		return false, err
	}
	if o.model {
		if err := modelSpeed(&d, o.goBin); err != nil {
			return false, err
		}
	}
	if o.corners {
		ws, over, err := runCorners(&d, o.goBin, tmp)
		if err != nil {
			return false, err
		}
		failed = over
		if err := worstInPage(&d, o.dist, ws); err != nil {
			return failed, err
		}
	}
	if err := startup(&d, o.dist, o.loads); err != nil {
		return failed, err
	}
	if err := embeds(&d, o.dist, "docs/embeds.txt"); err != nil {
		return failed, err
	}
	var out strings.Builder
	out.WriteString("# dmaviz performance\n\n")
	out.WriteString("Written by `make bench` (`cmd/benchreport`) from one run; do not edit by hand. " +
		"Each figure sits beside a baseline measured in the same run, so that figures taken on a busy machine still compare.\n\n")
	fmt.Fprintf(&out, "- Taken: %s; the run took %.0f min.\n- Machine: %s.\n- Load average (1 min): %s at the start, %s at the end.\n",
		start.UTC().Format("2006-01-02"), time.Since(start).Minutes(), machine(o.goBin), load0, loadAvg())
	if !o.model || !o.corners {
		out.WriteString("\nThis run skipped " + skipped(o) + ".\n")
	}
	out.WriteString("\n## Budgets\n\n")
	var sum doc
	sum.table([]string{"budget", "measured", "verdict"}, d.budgets)
	out.WriteString(sum.String())
	out.WriteString(d.String())
	fmt.Print(out.String())
	if o.out != "" {
		if err := os.WriteFile(o.out, []byte(out.String()), 0o644); err != nil {
			return failed, err
		}
	}
	return failed, nil
}

func skipped(o options) string {
	var s []string
	if !o.model {
		s = append(s, "the model's benchmarks")
	}
	if !o.corners {
		s = append(s, "the worst settings")
	}
	return strings.Join(s, " and ")
}

// machine describes the CPU, the core count and the tools' versions.
func machine(goBin string) string {
	cpu := "an unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	ver := func(name string, args ...string) string {
		b, err := exec.Command(name, args...).Output()
		if err != nil {
			return name + " (not found)"
		}
		return strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0])
	}
	browser := "Chromium (not found)"
	if bin, err := chrome.Find(); err == nil {
		browser = ver(bin, "--version")
	}
	return fmt.Sprintf("%s, %d CPUs, %s/%s; %s; Node %s; %s", cpu, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH,
		ver(goBin, "version"), ver("node", "--version"), browser)
}

// loadAvg is the 1-minute load average, or "unknown".
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "unknown"
}
