package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/dmaviz/dmaviz/model/uncertainty"
	"github.com/dmaviz/dmaviz/report"
	"github.com/dmaviz/dmaviz/report/bands"
)

// takeBool removes "--name" from args and says whether it was there.
func takeBool(args []string, name string) ([]string, bool) {
	var rest []string
	found := false
	for _, a := range args {
		if strings.HasPrefix(a, "-") && strings.TrimLeft(a, "-") == name {
			found = true
			continue
		}
		rest = append(rest, a)
	}
	return rest, found
}

// uncertain runs r's pair at the assumed parameters' extremes, on every
// core.
func (r *resolved) uncertain() (*report.Uncertainty, error) {
	res, err := uncertainty.Run(context.Background(), r.s, r.state.Params, r.state.A, r.state.B,
		uncertainty.Options{Workers: runtime.GOMAXPROCS(0)})
	if err != nil {
		return nil, err
	}
	return bands.Of(res), nil
}

// writeBands prints the bands after the metrics table: each figure's
// value and range with the parameter that dominates it (and, at the
// published setting, the published figure, flagged when outside), each
// parameter's effect, and what was moved together or not varied.
func writeBands(w io.Writer, u *report.Uncertainty, refs []report.Ref) {
	fmt.Fprintf(w, "\nuncertainty: %d pair runs, the assumed parameters at the ends of their ranges, alone and combined\n", u.Runs)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "figure\tvalue\tband\tdominant\tpublished")
	for _, f := range u.Figures {
		pub := "-"
		for _, ref := range refs {
			if ref.Metric == f.Metric && ref.Side == f.Side {
				pub = num(ref.Published) + " (" + ref.Kind + ")"
				if f.Band.Outside {
					pub += ": OUTSIDE the band, a finding"
				}
			}
		}
		dom := f.Band.Dominant
		if dom == "" {
			dom = "-"
		}
		fmt.Fprintf(tw, "%s %s\t%s\t[%s, %s]\t%s\t%s\n", f.Metric, f.Side, num(f.Value), num(f.Band.Low), num(f.Band.High), dom, pub)
	}
	tw.Flush()
	fmt.Fprintln(w, "\neach parameter alone (every figure at its low end -> high end):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	var none []string
	for _, e := range u.Effects {
		if e.None {
			none = append(none, e.Path)
			continue
		}
		var cells []string
		for i, f := range u.Figures {
			cells = append(cells, f.Side+" "+cell(e.Low[i])+" -> "+cell(e.High[i]))
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", e.Path, e.Range, strings.Join(cells, "\t"))
	}
	tw.Flush()
	if len(none) > 0 {
		fmt.Fprintf(w, "no effect on any figure: %s\n", strings.Join(none, ", "))
	}
	if len(u.Together) > 0 {
		fmt.Fprintf(w, "moved together as %q (%d): %s\n", uncertainty.Rest, len(u.Together), strings.Join(u.Together, "; "))
	}
	if len(u.Fixed) > 0 {
		fmt.Fprintf(w, "not varied (constants no parameter sets): %s\n", strings.Join(u.Fixed, ", "))
	}
	for _, n := range u.Notes {
		fmt.Fprintln(w, "note:", n)
	}
}

func cell(v *float64) string {
	if v == nil {
		return "(did not run)"
	}
	return num(*v)
}
