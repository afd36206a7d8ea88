package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/render"
	"github.com/dmaviz/dmaviz/report"
	"github.com/dmaviz/dmaviz/urlstate"
)

// runRun runs a scenario's A and B policies and prints the metrics table,
// or with --json one JSON object.
func runRun(args []string, stdout, stderr io.Writer) int {
	args, withBands := takeBool(args, "uncertainty")
	args, traceFile, err := takeFlag(args, "trace")
	var c *cliArgs
	if err == nil {
		c, err = parseArgs(args, flagSet("a", "b", "preset", "param", "url", "json", "board"))
	}
	if err != nil {
		fmt.Fprintln(stderr, "dmaviz run:", err)
		fmt.Fprintln(stderr, "usage: dmaviz run <scenario> [--a policy] [--b policy] [--preset id] [--param k=v ...] [--board file] [--json] [--trace file] [--uncertainty]")
		return 2
	}
	r, ok := resolve(c, stderr)
	if !ok {
		return 2
	}
	if traceFile != "" {
		if err := writeTrace(r, traceFile, stdout); err != nil {
			fmt.Fprintln(stderr, "dmaviz run:", err)
			return 1
		}
		if traceFile == "-" {
			return 0
		}
	}
	rep := report.New(r.spec, r.state.Params, r.a, r.b)
	if withBands {
		u, err := r.uncertain()
		if err != nil {
			fmt.Fprintln(stderr, "dmaviz run --uncertainty:", err)
			return 1
		}
		rep.AttachBands(u)
	}
	if c.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintln(stderr, "dmaviz run:", err)
			return 1
		}
		return 0
	}
	r.writeTable(stdout)
	if rep.Uncertainty != nil {
		writeBands(stdout, rep.Uncertainty, rep.References)
	}
	return 0
}

func (r *resolved) writeTable(w io.Writer) {
	fmt.Fprintf(w, "%s · %s\n", r.spec.ID, r.spec.Title)
	var ps []string
	for _, d := range r.spec.Params {
		ps = append(ps, d.Name+"="+r.state.Params.Text(d.Name))
	}
	fmt.Fprintf(w, "params: %s\n", strings.Join(ps, " "))
	if hw := r.hardware(); len(hw) > 0 {
		fmt.Fprintf(w, "board: %s with %s\n", r.state.Params.Text("preset"), strings.Join(hw, " "))
	}
	fmt.Fprintf(w, "A: %s   B: %s\n\n", r.a.Policy, r.b.Policy)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "metric\tunit\tscope\tA\tB\tB/A\treference")
	for _, row := range scenario.Compare(r.spec, r.state.Params, r.a, r.b) {
		a, b, ratio := "-", "-", "-"
		if row.HasA {
			a = num(row.A)
		}
		if row.HasB {
			b = num(row.B)
		}
		if row.HasA && row.HasB {
			ratio = render.RatioText(row.A, row.B) // as the page prints it: never ×0 for 0.0004, "=" for 0/0
		}
		unit, scope := report.UnitSymbol(row.Unit), report.Scope(&row)
		if unit == "" {
			unit = "-"
		}
		if scope == "" {
			scope = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", row.Name, unit, scope, a, b, ratio, r.references(&row))
	}
	tw.Flush()
	if n := len(r.a.Hazards) + len(r.b.Hazards); n > 0 {
		fmt.Fprintln(w, "\nhazards:")
		for _, side := range []*scenario.Result{r.a, r.b} {
			for _, h := range side.Hazards {
				fmt.Fprintf(w, "  %s at %v: PA %#x, %d bytes: %s\n", side.Policy, h.T, h.Addr, h.Bytes, h.Cause)
			}
		}
	}
	for _, side := range []*scenario.Result{r.a, r.b} {
		if side.NoHazard != "" {
			fmt.Fprintf(w, "\nno hazard from %s (a bug policy) here: %s\n", side.Policy, side.NoHazard)
		}
	}
}

// references prints a row's published figures with their sources, and
// whether the simulated figure is within the stated tolerance. When every
// figure of the row has the same source it is printed once, after them.
func (r *resolved) references(row *scenario.Row) string {
	one := len(row.Refs) > 1
	for _, ref := range row.Refs {
		one = one && ref.Source == row.Refs[0].Source
	}
	var out []string
	for _, ref := range row.Refs {
		verdict := "within tolerance"
		switch {
		case ref.Kind() == scenario.Calibrated:
			verdict = report.Judgement(&ref)
		case !ref.OK:
			verdict = "OUTSIDE tolerance"
		}
		src := ref.Source + "; "
		if one {
			src = ""
		}
		out = append(out, fmt.Sprintf("%s (%ssimulated %s, %s)", report.Describe(&ref), src, report.DescribeGot(&ref), verdict))
	}
	s := strings.Join(out, "; ")
	if one {
		s += " · source: " + row.Refs[0].Source
	}
	return s
}

// hardware lists the run's board overrides, "hw.<path>=<value>" in the
// board's order.
func (r *resolved) hardware() []string {
	var out []string
	for _, kv := range (&urlstate.Codec{Registry: catalog.Registry()}).Hardware(r.state) {
		out = append(out, kv[0]+"="+kv[1])
	}
	return out
}

func num(v float64) string { return report.FormatNumber(v) }
