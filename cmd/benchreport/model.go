//go:build !js

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// bench is one benchmark's result: its name (without the -GOMAXPROCS
// suffix) and each reported unit's value (ns/op, x_plain, allocs/op, ...).
type bench struct {
	name   string
	values map[string]float64
}

// benchLine matches a result line of go test -bench.
var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.+)$`)

// parseBench reads go test -bench output; a benchmark reported twice keeps
// its last result.
func parseBench(out []byte) []bench {
	var res []bench
	at := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(strings.TrimSpace(sc.Text()))
		if m == nil {
			continue
		}
		b := bench{name: strings.TrimPrefix(m[1], "Benchmark"), values: map[string]float64{}}
		f := strings.Fields(m[2])
		for i := 0; i+1 < len(f); i += 2 {
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				b.values[f[i+1]] = v
			}
		}
		if i, ok := at[b.name]; ok {
			res[i] = b
			continue
		}
		at[b.name] = len(res)
		res = append(res, b)
	}
	return res
}

// runBench runs go test's benchmarks in pkgs (GOOS=js under Node when js)
// with one thread, showing the output as it comes, and returns it parsed.
func runBench(goBin string, js bool, pkgs ...string) ([]bench, error) {
	args := []string{"test", "-run", "^$", "-bench", ".", "-benchmem", "-cpu", "1"}
	cmd := exec.Command(goBin, append(args, pkgs...)...)
	cmd.Env = os.Environ()
	if js {
		root, err := exec.Command(goBin, "env", "GOROOT").Output()
		if err != nil {
			return nil, fmt.Errorf("go env GOROOT: %w", err)
		}
		cmd.Args = append(cmd.Args[:2], append([]string{"-exec=" + filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", "go_js_wasm_exec")}, cmd.Args[2:]...)...)
		cmd.Env = append(cmd.Env, "GOOS=js", "GOARCH=wasm")
	}
	var out bytes.Buffer
	cmd.Stdout = io.MultiWriter(os.Stderr, &out)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %w", strings.Join(cmd.Args, " "), err)
	}
	return parseBench(out.Bytes()), nil
}

// modelSpeed writes the model's benchmarks natively and as WebAssembly,
// each with the baselines the benchmarks measure in the same process.
func modelSpeed(d *doc, goBin string) error {
	native, err := runBench(goBin, false, "./model/...", "./render/...")
	if err != nil {
		return err
	}
	wasm, err := runBench(goBin, true, "./model/...")
	if err != nil {
		return err
	}
	inWasm := map[string]bench{}
	for _, b := range wasm {
		inWasm[b.name] = b
	}
	d.h2("Model speed, natively and as WebAssembly")
	d.para("How: `go test -run '^$' -bench . -benchmem -cpu 1` over `./model/...` and `./render/...` natively, " +
		"then over `./model/...` with `GOOS=js GOARCH=wasm` under Node (`go_js_wasm_exec`), one after the other, " +
		"each on one thread as the page has. Times are per operation (`ms/op`). `x_plain` is the benchmark's own " +
		"baseline measured in the same process: how many times longer the modelled run takes than a plain Go loop " +
		"over the same bytes or transactions, so the two builds compare even when the machine is busy. " +
		"`WASM/native` divides the two times; `WASM/native (x_plain)` divides the two `x_plain`, the figure that " +
		"does not move with the machine's load. The stage's frame benchmarks (`Stage*`) run natively only.")
	var rows [][]string
	for _, n := range native {
		w := inWasm[n.name]
		nx, wx := n.values["x_plain"], w.values["x_plain"]
		row := []string{"`" + n.name + "`", ms(n.values["ns/op"]), ms(w.values["ns/op"]),
			ratio(w.values["ns/op"], n.values["ns/op"]), fig(nx), fig(wx), ratio(wx, nx), "–"}
		if v, ok := n.values["allocs/op"]; ok {
			row[7] = fmt.Sprintf("%.0f", v)
		}
		rows = append(rows, row)
	}
	d.table([]string{"benchmark", "native ms/op", "WASM ms/op", "WASM/native", "native x_plain", "WASM x_plain", "WASM/native (x_plain)", "native allocs/op"}, rows)
	return nil
}
