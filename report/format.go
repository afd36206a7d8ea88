// Package report is an A/B run as readers see it: metric values and units
// as the panel, the stage's charts and the CLI print them, each published
// figure's line beside its simulated value, and the machine-readable
// Report that `dmaviz run --json` prints and the panel's "Download JSON"
// saves. The model computes the numbers (scenario.Compare lines them up
// with the published figures); this package only words them.
package report

import (
	"math"
	"strconv"
	"strings"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// FormatNumber prints a metric value compactly: integers in full, values
// of 100,000 and more with one decimal (161884.9, never 1.6188e+05: a
// count averaged over iterations reads as the count it is), other values
// with up to five significant digits.
func FormatNumber(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatInt(int64(v), 10)
	}
	if a := math.Abs(v); a >= 1e5 && a < 1e15 {
		r := math.Round(v*10) / 10
		if r == math.Trunc(r) {
			return strconv.FormatInt(int64(r), 10)
		}
		return strconv.FormatFloat(r, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'g', 5, 64)
}

// UnitSymbol prints a metric unit with its proper symbol: "µs" for "us";
// other units are already written as they print.
func UnitSymbol(u string) string {
	if u == "us" {
		return "µs"
	}
	return u
}

// Describe prints a published figure in words, e.g. "A/B 3.31x" (a
// ratio) or "B vs A -64.61 %" (a change, (B-A)/A).
func Describe(r *scenario.RowRef) string {
	switch r.Pair {
	case scenario.PairRatio:
		return r.Side + " " + FormatNumber(r.Value) + "x"
	case scenario.PairChange:
		return "B vs A " + FormatNumber(r.Value) + " %"
	}
	return r.Side + " " + FormatNumber(r.Value)
}

// DescribeGot prints the simulated figure beside it the same way.
func DescribeGot(r *scenario.RowRef) string {
	v := math.Round(r.Got*100) / 100
	switch r.Pair {
	case scenario.PairRatio:
		return FormatNumber(v) + "x"
	case scenario.PairChange:
		return FormatNumber(v) + " %"
	}
	return FormatNumber(r.Got)
}

// DescribeTolerance prints a figure's tolerance, e.g. "±10 %" or "±3".
func DescribeTolerance(r *scenario.Reference) string {
	if r.Absolute {
		return "±" + FormatNumber(r.Tolerance)
	}
	return "±" + FormatNumber(math.Round(r.Tolerance*1e6)/1e4) + " %"
}

// Verdict is "calibrated" for a figure a parameter was fitted to (the
// model reproduces it by construction: no verdict), else "within" when
// the simulated figure matches the published one within its tolerance,
// or "outside".
func Verdict(r *scenario.RowRef) string {
	switch {
	case r.Kind() == scenario.Calibrated:
		return scenario.Calibrated
	case r.OK:
		return "within"
	}
	return "outside"
}

// Judgement is what the panel, the CLI and the CSV say of a figure after
// the simulated value: "✓ within tolerance" or "✗ outside tolerance" for
// a prediction; for a calibrated figure "calibrated to this figure
// (fitted: dram.latency)", and when it no longer matches, that the fit no
// longer reproduces it.
func Judgement(r *scenario.RowRef) string {
	if r.Kind() == scenario.Calibrated {
		s := "calibrated to this figure (fitted: " + strings.Join(r.Fitted, ", ") + ")"
		if !r.OK {
			s += "; outside tolerance: the fit no longer reproduces it"
		}
		return s
	}
	if r.OK {
		return "✓ within tolerance"
	}
	return "✗ outside tolerance"
}

// PanelText is the line the metrics table shows for a published figure,
// e.g. "published A/B 3.31x · simulated 3.19x ✓ within tolerance" or
// "published A 8148.32 · simulated 8134.1 · calibrated to this figure
// (fitted: dram.latency)".
func PanelText(r *scenario.RowRef) string {
	sep := " "
	if r.Kind() == scenario.Calibrated {
		sep = " · "
	}
	return "published " + Describe(r) + " · simulated " + DescribeGot(r) + sep + Judgement(r)
}

// Scope says whether a row is a per-call figure or a whole-run total, from
// its label (scenarios say "per call", "per dma_..." or "(whole run)"
// there); "" when the label says neither.
func Scope(r *scenario.Row) string {
	switch {
	case strings.Contains(r.Label, "whole run"):
		return "whole run"
	case strings.Contains(r.Label, "per call") || strings.Contains(r.Label, "per dma_"):
		return "per call"
	}
	return ""
}
