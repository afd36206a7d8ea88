package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/uncertainty"
	"github.com/dmaviz/dmaviz/report"
)

const validateUsage = "usage: dmaviz validate [scenario ...] [--bands] [--json]"

// figureRow is one published figure as `validate` reports it: simulated at
// the setting it was measured at (the scenario's defaults on its default
// preset), against the published value.
type figureRow struct {
	Scenario  string   `json:"scenario"`
	Figure    string   `json:"figure"` // scenario.FigureID
	Preset    string   `json:"preset"`
	Kind      string   `json:"kind"` // calibrated or prediction
	Fitted    []string `json:"fitted,omitempty"`
	Published float64  `json:"published"`
	Simulated float64  `json:"simulated"`
	// Error is simulated - published, relative to the published value
	// (absolute for an absolute tolerance), in percent.
	Error     float64 `json:"error"`
	Tolerance string  `json:"tolerance"`
	// Verdict is "calibrated", "within" or "outside".
	Verdict string      `json:"verdict"`
	Band    *figureBand `json:"band,omitempty"`
	Source  string      `json:"source"`
}

type figureBand struct {
	Low      float64 `json:"low"`
	High     float64 `json:"high"`
	Dominant string  `json:"dominant,omitempty"`
	// Outside: a prediction's published value lies outside the band.
	Outside bool `json:"outside,omitempty"`
}

// runValidate prints every published figure of the named scenarios (all
// with figures by default) and exits 1 when a prediction is outside its
// tolerance (or, with --bands, its published value outside its band).
func runValidate(args []string, stdout, stderr io.Writer) int {
	args, withBands := takeBool(args, "bands")
	args, asJSON := takeBool(args, "json")
	var want []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			fmt.Fprintf(stderr, "dmaviz validate: unknown flag %s\n%s\n", a, validateUsage)
			return 2
		}
		if _, err := catalog.Registry().Get(a); err != nil {
			fmt.Fprintln(stderr, "dmaviz validate:", err)
			return 2
		}
		want = append(want, a)
	}
	var rows []figureRow
	for _, s := range catalog.Registry().All() {
		sp := s.Spec()
		if len(sp.References) == 0 || (len(want) > 0 && !slices.Contains(want, sp.ID)) {
			continue
		}
		r, err := validateScenario(s, withBands)
		if err != nil {
			fmt.Fprintf(stderr, "dmaviz validate: %s: %v\n", sp.ID, err)
			return 1
		}
		rows = append(rows, r...)
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rows); err != nil {
			fmt.Fprintln(stderr, "dmaviz validate:", err)
			return 1
		}
	} else {
		writeValidation(stdout, rows, withBands)
	}
	for _, r := range rows {
		if r.Verdict == "outside" || (r.Band != nil && r.Band.Outside) {
			return 1
		}
	}
	return 0
}

// validateScenario runs s at its defaults: the default pair (its figures
// and the pair figures), then the default A against each other policy a
// figure names; with bands, the uncertainty of each of those pairs.
func validateScenario(s scenario.Scenario, withBands bool) ([]figureRow, error) {
	sp := s.Spec()
	params, err := sp.Defaults()
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	results := map[string]*scenario.Result{}
	bands := map[string]uncertainty.Band{}
	run := func(a, b string) error {
		ra, rb, err := scenario.RunPair(ctx, s, params, a, b, nil, nil)
		if err != nil {
			return err
		}
		results[a], results[b] = ra, rb
		if !withBands {
			return nil
		}
		u, err := uncertainty.Run(ctx, s, params, a, b, uncertainty.Options{Workers: runtime.GOMAXPROCS(0)})
		if err != nil {
			return err
		}
		for _, bd := range u.Bands {
			if bd.Figure != "" {
				bands[bd.Figure] = bd
			}
		}
		return nil
	}
	if err := run(sp.DefaultA, sp.DefaultB); err != nil {
		return nil, err
	}
	for i := range sp.References {
		if p := sp.References[i].Policy; p != "" && results[p] == nil {
			if err := run(sp.DefaultA, p); err != nil {
				return nil, err
			}
		}
	}
	var rows []figureRow
	for i := range sp.References {
		ref := &sp.References[i]
		got, ok := figureValue(ref, results, sp)
		if !ok {
			return nil, fmt.Errorf("figure %s: the model has no %s", scenario.FigureID(sp.ID, ref), ref.Metric)
		}
		row := figureRow{Scenario: sp.ID, Figure: scenario.FigureID(sp.ID, ref), Preset: params.Text("preset"),
			Kind: ref.Kind(), Fitted: ref.Fitted, Published: ref.Value, Simulated: got,
			Error: figureError(ref, got), Tolerance: report.DescribeTolerance(ref), Source: ref.Source}
		switch {
		case row.Kind == scenario.Calibrated:
			row.Verdict = "calibrated"
		case ref.Within(got):
			row.Verdict = "within"
		default:
			row.Verdict = "outside"
		}
		if bd, ok := bands[row.Figure]; ok {
			row.Band = &figureBand{Low: bd.Low, High: bd.High, Dominant: bd.Dominant, Outside: bd.Outside}
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// figureValue is the model's value of ref: its policy's metric, or the
// default pair's ratio or change.
func figureValue(ref *scenario.Reference, results map[string]*scenario.Result, sp *scenario.Spec) (float64, bool) {
	if ref.Policy != "" {
		return results[ref.Policy].Metric(ref.Metric)
	}
	a, okA := results[sp.DefaultA].Metric(ref.Metric)
	b, okB := results[sp.DefaultB].Metric(ref.Metric)
	if !okA || !okB {
		return 0, false
	}
	return ref.Pair.Of(a, b)
}

// figureError is the model's error in percent of the published value, or
// in the figure's unit for an absolute tolerance.
func figureError(ref *scenario.Reference, got float64) float64 {
	if ref.Absolute || ref.Value == 0 {
		return got - ref.Value
	}
	return (got - ref.Value) / math.Abs(ref.Value) * 100
}

// writeValidation prints the figures as a table, then how many of each
// kind and verdict.
func writeValidation(w io.Writer, rows []figureRow, withBands bool) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "figure\tpreset\tkind\tpublished\tmodel\terror\ttolerance\tverdict"
	if withBands {
		head += "\tband\tdominant"
	}
	fmt.Fprintln(tw, head)
	counts := map[string]int{}
	for _, r := range rows {
		counts[r.Verdict]++
		verdict := r.Verdict
		if r.Kind == scenario.Calibrated {
			verdict = "calibrated (fitted: " + strings.Join(r.Fitted, ", ") + ")"
		}
		errText := fmt.Sprintf("%+.2f %%", r.Error)
		if !strings.HasSuffix(r.Tolerance, "%") { // an absolute tolerance: the error in the figure's unit
			errText = fmt.Sprintf("%+.4g", r.Error)
		}
		line := fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", r.Figure, r.Preset, r.Kind, num(r.Published), num(r.Simulated), errText, r.Tolerance, verdict)
		if withBands {
			band, dom := "-", "-"
			if r.Band != nil {
				band = "[" + num(r.Band.Low) + ", " + num(r.Band.High) + "]"
				if r.Band.Outside {
					band += " OUTSIDE"
				}
				if r.Band.Dominant != "" {
					dom = r.Band.Dominant
				}
			}
			line += "\t" + band + "\t" + dom
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%d figures: %d calibrated (reproduced through a parameter fitted to them, not a test of the model), %d predictions within tolerance, %d outside\n",
		len(rows), counts["calibrated"], counts["within"], counts["outside"])
}
