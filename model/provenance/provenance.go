// Package provenance says where each hardware number of the model comes
// from, as data: a value is measured (a document's section or table, or a
// published benchmark), derived (a formula over other parameters), assumed
// (a plausible range and why) or fitted (solved from one published figure,
// which then reproduces it by construction: a calibration, not a
// prediction). Presets (model/platform) and scenarios (their hardware and
// workload constants) keep one Entry per parameter; verdicts, the CLI's
// `preset show`, `validate` and the uncertainty bands read them.
//
// The package imports nothing of the model, so the scenario contract and
// the panel can carry entries without reaching the hardware.
package provenance

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dmaviz/dmaviz/model/bytesize"
)

// Kind is how a parameter's value was obtained.
type Kind uint8

const (
	// Measured: read from a document (TRM, datasheet, device tree, kernel
	// source) or a published measurement; Source names it with the section
	// or table.
	Measured Kind = iota + 1
	// Derived: computed from other parameters or sourced constants; Source
	// is the formula.
	Derived
	// Assumed: no source found; Low..High is the plausible range and
	// Source says why.
	Assumed
	// Fitted: solved so that the model reproduces one published figure
	// (Figure); Source says how. That figure is then calibrated, not
	// predicted.
	Fitted
)

// Kinds lists the kinds in their display order.
var Kinds = []Kind{Measured, Derived, Assumed, Fitted}

// String is the kind's name: "measured", "derived", "assumed", "fitted".
func (k Kind) String() string {
	switch k {
	case Measured:
		return "measured"
	case Derived:
		return "derived"
	case Assumed:
		return "assumed"
	case Fitted:
		return "fitted"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Entry is one parameter's provenance.
type Entry struct {
	// Path is the parameter's dotted name, e.g. "dram.latency" for a
	// preset's parameter or "trbe-aux.frag" for a scenario's constant.
	Path string
	Kind Kind
	// Source: for Measured the document and section or table (or the
	// published benchmark); for Derived the formula; for Assumed why the
	// range; for Fitted how the value was solved from Figure.
	Source string
	// Figure is, for Fitted, the published figure the value was solved
	// from: its id (scenario.FigureID, "<scenario>/<metric>/<policy>").
	Figure string
	// Low and High are, for Assumed, the plausible range in the
	// parameter's unit (Low <= High; equal when only the value itself is
	// defensible but unsourced).
	Low, High float64
}

// Measure is a measured entry.
func Measure(path, source string) Entry { return Entry{Path: path, Kind: Measured, Source: source} }

// Derive is a derived entry.
func Derive(path, formula string) Entry { return Entry{Path: path, Kind: Derived, Source: formula} }

// Assume is an assumed entry with its range.
func Assume(path string, low, high float64, why string) Entry {
	return Entry{Path: path, Kind: Assumed, Source: why, Low: low, High: high}
}

// Fit is a fitted entry: figure is the figure's id, how the solve.
func Fit(path, figure, how string) Entry {
	return Entry{Path: path, Kind: Fitted, Figure: figure, Source: how}
}

// Check reports what is wrong with e for a parameter of value v: an
// unknown kind, a missing source, figure or range, or an assumed value
// outside its range. The error names the path.
func (e *Entry) Check(v float64) error {
	switch e.Kind {
	case Measured, Derived:
		if strings.TrimSpace(e.Source) == "" {
			return fmt.Errorf("%s: %s without a source", e.Path, e.Kind)
		}
	case Fitted:
		if e.Figure == "" {
			return fmt.Errorf("%s: fitted without a figure", e.Path)
		}
	case Assumed:
		if strings.TrimSpace(e.Source) == "" {
			return fmt.Errorf("%s: assumed without a reason", e.Path)
		}
		if math.IsNaN(e.Low) || math.IsNaN(e.High) || e.Low > e.High {
			return fmt.Errorf("%s: assumed range [%g, %g] is empty", e.Path, e.Low, e.High)
		}
		if v < e.Low || v > e.High {
			return fmt.Errorf("%s: assumed value %g is outside its range [%g, %g]", e.Path, v, e.Low, e.High)
		}
	default:
		return fmt.Errorf("%s: no provenance kind", e.Path)
	}
	return nil
}

// Varies reports whether e is an assumed value with a range to explore.
func (e Entry) Varies() bool { return e.Kind == Assumed && e.Low < e.High }

// Param is a parameter as readers see it: its value in its unit and where
// the value comes from.
type Param struct {
	Entry
	Unit  string
	Value float64
	// Text is the value as printed, with its unit ("950 MHz", "PLRU",
	// "4K,64K,1M").
	Text string
}

// Counts returns how many of params are of each kind, by kind.
func Counts(params []Param) map[Kind]int {
	out := map[Kind]int{}
	for i := range params {
		out[params[i].Kind]++
	}
	return out
}

// FormatValue prints v in unit u as `preset show` and the panel print a
// parameter: compactly with the unit, whole byte counts in binary units
// ("32KiB").
func FormatValue(v float64, unit string) string {
	if unit == "B" && v == math.Trunc(v) && v >= 0 && v < 1<<62 {
		return bytesize.Format(int64(v))
	}
	s := strconv.FormatFloat(v, 'g', 6, 64)
	if math.Abs(v) >= 1e6 && v == math.Trunc(v) {
		s = strconv.FormatFloat(v, 'f', 0, 64)
	}
	if unit == "" {
		return s
	}
	return s + " " + unit
}

// RangeText is an assumed parameter's range with its unit: "[12, 21]
// cycles", "[64KiB, 128KiB]".
func (p *Param) RangeText() string {
	if p.Unit == "B" {
		return "[" + FormatValue(p.Low, p.Unit) + ", " + FormatValue(p.High, p.Unit) + "]"
	}
	return strings.TrimSpace("[" + FormatValue(p.Low, "") + ", " + FormatValue(p.High, "") + "] " + p.Unit)
}

// Describe is the entry's provenance in words, after its kind: the
// source, the formula, "fitted to <figure>: <how>" or "range <range>:
// <why>".
func (p *Param) Describe() string {
	switch p.Kind {
	case Assumed:
		return "range " + p.RangeText() + ": " + p.Source
	case Fitted:
		return "fitted to " + p.Figure + ": " + p.Source
	}
	return p.Source
}
