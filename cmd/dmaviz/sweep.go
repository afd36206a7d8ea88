package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sweep"
	"github.com/dmaviz/dmaviz/render"
	"github.com/dmaviz/dmaviz/render/svg"
	"github.com/dmaviz/dmaviz/urlstate"
)

const sweepUsage = "usage: dmaviz sweep <scenario> --vary key=lo..hi:x2|key=lo..hi:+step|key=a,b,c [--vary ...] [--a policy] [--b policy] [--preset id] [--param k=v ...] [--url query] [--board file] [--csv file] [--json file] [--svg file] [--metric name] [--jobs n]"

// sweepArgs are sweep's own flags; the rest go to parseArgs.
type sweepArgs struct {
	vary           []string
	csv, json, svg string
	metric         string
	jobs           int
}

// splitSweepArgs takes sweep's own flags out of args.
func splitSweepArgs(args []string) (*sweepArgs, []string, error) {
	s := &sweepArgs{jobs: runtime.GOMAXPROCS(0)}
	var rest []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		name, val, hasVal := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if !strings.HasPrefix(arg, "-") {
			rest = append(rest, arg)
			continue
		}
		switch name {
		case "vary", "csv", "json", "svg", "metric", "jobs":
		default:
			rest = append(rest, arg)
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, nil, fmt.Errorf("--%s needs a value", name)
			}
			i++
			val = args[i]
		}
		switch name {
		case "vary":
			s.vary = append(s.vary, val)
		case "csv":
			s.csv = val
		case "json":
			s.json = val
		case "svg":
			s.svg = val
		case "metric":
			s.metric = val
		case "jobs":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 || n > 256 {
				return nil, nil, fmt.Errorf("--jobs %q: want a whole number, allowed 1..256", val)
			}
			s.jobs = n
		}
	}
	if len(s.vary) == 0 {
		return nil, nil, fmt.Errorf("missing --vary key=lo..hi:x2 (or key=a,b,c)")
	}
	if len(s.vary) > sweep.MaxAxes {
		return nil, nil, fmt.Errorf("--vary given %d times; allowed 1 or 2", len(s.vary))
	}
	stdout := 0
	for _, f := range []string{s.csv, s.json, s.svg} {
		if f == "-" {
			stdout++
		}
	}
	if stdout > 1 {
		return nil, nil, fmt.Errorf("only one of --csv, --json, --svg can write to stdout (-)")
	}
	if s.csv == "" && s.json == "" && s.svg == "" {
		s.csv = "-"
	}
	return s, rest, nil
}

// runSweep runs A and B over a grid of one or two varied parameters and
// writes CSV, JSON and/or an SVG chart. Nothing is written until every
// point has run; Ctrl-C stops it with nothing written.
func runSweep(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return sweepMain(ctx, args, stdout, stderr)
}

func sweepMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	bad := func(err error) int {
		fmt.Fprintln(stderr, "dmaviz sweep:", err)
		fmt.Fprintln(stderr, sweepUsage)
		return 2
	}
	sa, rest, err := splitSweepArgs(args)
	if err != nil {
		return bad(err)
	}
	c, err := parseArgs(rest, flagSet("a", "b", "preset", "param", "url", "board"))
	if err != nil {
		return bad(err)
	}
	codec := &urlstate.Codec{Registry: catalog.Registry()}
	st, msgs := codec.DecodeValues(c.values)
	if len(msgs) > 0 {
		for _, m := range msgs {
			fmt.Fprintln(stderr, "dmaviz sweep:", m.Text)
		}
		return 2
	}
	scn, err := codec.Registry.Get(st.Scenario)
	if err != nil {
		fmt.Fprintln(stderr, "dmaviz sweep:", err)
		return 2
	}
	spec := scn.Spec()
	req := sweep.Request{Scenario: scn, Base: st.Params, A: st.A, B: st.B}
	for _, v := range sa.vary {
		ax, err := sweep.ParseVaryOn(spec, codec.Registry.Hardware, st.Params, v)
		if err != nil {
			fmt.Fprintln(stderr, "dmaviz sweep:", err)
			return 2
		}
		req.Axes = append(req.Axes, ax)
	}
	if err := req.Validate(); err != nil {
		fmt.Fprintln(stderr, "dmaviz sweep:", err)
		return 2
	}
	metric := sa.metric
	if metric == "" {
		metric = headlineMetric(spec)
	}
	if sa.svg != "" && metric == "" {
		return bad(fmt.Errorf("--svg needs --metric NAME"))
	}

	var bar *progressBar
	if isTerminal(stderr) {
		bar = &progressBar{w: stderr}
	}
	tab, err := sweep.Run(ctx, req, sa.jobs, bar.update)
	bar.clear()
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "dmaviz sweep: interrupted; nothing written")
			return 130
		}
		fmt.Fprintln(stderr, "dmaviz sweep:", err)
		return 1
	}
	// Everything is rendered before anything is written, so a failure
	// leaves no file half-done.
	type output struct {
		file string
		data []byte
	}
	var outs []output
	if sa.csv != "" {
		var b bytes.Buffer
		if err := tab.WriteCSV(&b); err != nil {
			fmt.Fprintln(stderr, "dmaviz sweep:", err)
			return 1
		}
		outs = append(outs, output{sa.csv, b.Bytes()})
	}
	if sa.json != "" {
		var b bytes.Buffer
		if err := tab.WriteJSON(&b); err != nil {
			fmt.Fprintln(stderr, "dmaviz sweep:", err)
			return 1
		}
		outs = append(outs, output{sa.json, b.Bytes()})
	}
	if sa.svg != "" {
		ch, err := tab.Chart(metric)
		if err != nil {
			fmt.Fprintln(stderr, "dmaviz sweep:", err)
			return 2
		}
		var sc render.Scene
		render.SweepChartScene(&sc, &ch, 760, 460)
		var b bytes.Buffer
		if err := svg.Write(&b, &sc, svg.Options{}); err != nil {
			fmt.Fprintln(stderr, "dmaviz sweep:", err)
			return 1
		}
		outs = append(outs, output{sa.svg, b.Bytes()})
	}
	for _, o := range outs {
		if o.file == "-" {
			if _, err := stdout.Write(o.data); err != nil {
				fmt.Fprintln(stderr, "dmaviz sweep:", err)
				return 1
			}
			continue
		}
		if err := writeFileAtomic(o.file, o.data); err != nil {
			fmt.Fprintln(stderr, "dmaviz sweep:", err)
			return 1
		}
		if sa.csv != "-" && sa.json != "-" && sa.svg != "-" {
			fmt.Fprintf(stdout, "wrote %s\n", o.file)
		}
	}
	return 0
}

// headlineMetric is the metric a sweep charts by default: the first with a
// published figure, else the scenario's first metric.
func headlineMetric(spec *scenario.Spec) string {
	if len(spec.References) > 0 {
		return spec.References[0].Metric
	}
	return ""
}

// writeFileAtomic writes data to a temporary file beside name and renames
// it into place, so name is either the old file or the whole new one.
func writeFileAtomic(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, name); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// progressBar draws "[#####.....] 5/22 runs" on one terminal line.
type progressBar struct{ w io.Writer }

func (p *progressBar) update(done, total int) {
	if p == nil || total <= 0 {
		return
	}
	const width = 30
	n := done * width / total
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d runs", strings.Repeat("#", n), strings.Repeat(".", width-n), done, total)
}

func (p *progressBar) clear() {
	if p != nil {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", 60))
	}
}
