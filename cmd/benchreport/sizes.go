//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/andybalholm/brotli"
)

// Budgets for main.wasm compressed.
const (
	budgetGzip   = 3 << 20
	budgetBrotli = 23 << 20 / 10 // 2.3 MiB
)

// wasmSize writes main.wasm's size as sitebuild wrote it, raw, gzip and
// Brotli, and its cold build time, each beside a bare js/wasm program
// built and compressed the same way in this run.
func wasmSize(d *doc, dist, tmp string, cold bool) (gz, br int64, err error) {
	hello := filepath.Join(tmp, "hello")
	if err := os.MkdirAll(hello, 0o755); err != nil {
		return 0, 0, err
	}
	if err := os.WriteFile(filepath.Join(hello, "main.go"), []byte("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\") }\n"), 0o644); err != nil {
		return 0, 0, err
	}
	if err := os.WriteFile(filepath.Join(hello, "go.mod"), []byte("module hello\n\ngo 1.26\n"), 0o644); err != nil {
		return 0, 0, err
	}
	wasm := filepath.Join(dist, "main.wasm")
	var app [3]int64
	for i, ext := range []string{"", ".gz", ".br"} {
		if app[i], err = fileSize(wasm + ext); err != nil {
			return 0, 0, fmt.Errorf("%w (run make site first)", err)
		}
	}
	helloWasm := filepath.Join(tmp, "hello.wasm")
	helloCold, err := build(hello, ".", helloWasm, filepath.Join(tmp, "cache-hello"), cold)
	if err != nil {
		return 0, 0, err
	}
	var base [3]int64
	if base[0], base[1], base[2], err = sizes(helloWasm); err != nil {
		return 0, 0, err
	}
	wd, _ := os.Getwd()
	appCold, err := build(wd, "./wasm", filepath.Join(tmp, "main.wasm"), filepath.Join(tmp, "cache-app"), cold)
	if err != nil {
		return 0, 0, err
	}
	d.h2("Size of main.wasm")
	d.para("How: the files `make site` wrote to `dist/` (`main.wasm`, and the `.gz` (gzip -9) and `.br` (Brotli quality 11, " +
		"16 MiB window) copies `dmaviz serve` sends), against a bare \"hello\" js/wasm program (`-trimpath -ldflags='-s -w'`) " +
		"compressed the same way in this run. Cold build: `go build` of `./wasm` for js/wasm with an empty build " +
		"cache, against the same for the bare program.")
	rows := [][]string{}
	for i, name := range []string{"raw", "gzip", "Brotli"} {
		budget := ""
		switch i {
		case 1:
			budget = fmt.Sprintf("%.1f MiB: %s", mib(budgetGzip), verdict(app[i] <= budgetGzip))
		case 2:
			budget = fmt.Sprintf("%.1f MiB: %s (%.0f%% of gzip)", mib(budgetBrotli), verdict(app[i] <= budgetBrotli), 100*float64(app[2])/float64(app[1]))
		}
		rows = append(rows, []string{name, fmt.Sprintf("%.2f MiB", mib(app[i])), fmt.Sprintf("%.2f MiB", mib(base[i])), ratio(float64(app[i]), float64(base[i])), budget})
	}
	if cold {
		rows = append(rows, []string{"cold build", fmt.Sprintf("%.1f s", appCold.Seconds()), fmt.Sprintf("%.1f s", helloCold.Seconds()), ratio(appCold.Seconds(), helloCold.Seconds()), ""})
	}
	d.table([]string{"", "main.wasm", "bare hello.wasm", "ratio", "budget"}, rows)
	d.budget("main.wasm gzip at most 3 MiB", fmt.Sprintf("%.2f MiB", mib(app[1])), app[1] <= budgetGzip)
	d.budget("main.wasm Brotli at most 2.3 MiB", fmt.Sprintf("%.2f MiB", mib(app[2])), app[2] <= budgetBrotli)
	return app[1], app[2], nil
}

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
