package scenario

import (
	"math"
	"strconv"
	"strings"
)

// Row is one line of an A/B metrics table: the metric on both sides and the
// published figures that apply to what is shown.
type Row struct {
	Name, Label, Unit, Group string
	A, B                     float64
	HasA, HasB               bool
	Check                    bool // a correctness check (zero when correct)
	Refs                     []RowRef
}

// RowRef is a published figure beside a row, with the simulated value it
// compares with.
type RowRef struct {
	Reference
	Side string  // "A", "B" or "A/B" for a pair figure
	Got  float64 // the simulated figure
	OK   bool    // Got is defined and within the reference's tolerance
}

// Compare lines up the metrics and checks of a and b (A's order first, then
// what only B reports) with the spec's references. Published figures were
// measured at one setting, the spec's defaults, so references attach only
// when params are the defaults; a pair reference applies only when a and b
// run the spec's default A/B pair, in either order.
func Compare(spec *Spec, params Params, a, b *Result) []Row {
	published := spec != nil && spec.AtDefaults(params)
	var rows []Row
	seen := map[string]bool{}
	add := func(m Metric, check bool) {
		if seen[m.Name] {
			return
		}
		seen[m.Name] = true
		r := Row{Name: m.Name, Label: m.Label, Unit: m.Unit, Group: m.Group, Check: check}
		if a != nil {
			r.A, r.HasA = a.Metric(m.Name)
		}
		if b != nil {
			r.B, r.HasB = b.Metric(m.Name)
		}
		if published {
			r.Refs = rowRefs(spec, a, b, &r)
		}
		rows = append(rows, r)
	}
	for _, res := range []*Result{a, b} {
		if res == nil {
			continue
		}
		for _, m := range res.Metrics {
			add(m, false)
		}
		for _, m := range res.Checks {
			add(m, true)
		}
	}
	return rows
}

func rowRefs(spec *Spec, a, b *Result, r *Row) []RowRef {
	var out []RowRef
	for _, ref := range spec.References {
		if ref.Metric != r.Name {
			continue
		}
		rr := RowRef{Reference: ref}
		switch {
		case ref.Policy == "":
			if a == nil || b == nil || !r.HasA || !r.HasB {
				continue
			}
			va, vb := r.A, r.B
			switch {
			case a.Policy == spec.DefaultA && b.Policy == spec.DefaultB:
			case a.Policy == spec.DefaultB && b.Policy == spec.DefaultA:
				va, vb = vb, va
			default:
				continue
			}
			rr.Side = "A/B"
			rr.Got, rr.OK = ref.Pair.Of(va, vb)
		case a != nil && ref.Policy == a.Policy && r.HasA:
			rr.Side, rr.Got, rr.OK = "A", r.A, true
		case b != nil && ref.Policy == b.Policy && r.HasB:
			rr.Side, rr.Got, rr.OK = "B", r.B, true
		default:
			continue
		}
		rr.OK = rr.OK && ref.Within(rr.Got)
		out = append(out, rr)
	}
	return out
}

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

// Describe prints the reference's figure in words, e.g. "A/B 3.31x" (a
// ratio) or "B vs A -64.61 %" (a change, (B-A)/A).
func (r *RowRef) Describe() string {
	switch r.Pair {
	case PairRatio:
		return r.Side + " " + FormatNumber(r.Value) + "x"
	case PairChange:
		return "B vs A " + FormatNumber(r.Value) + " %"
	}
	return r.Side + " " + FormatNumber(r.Value)
}

// DescribeGot prints the simulated figure the same way.
func (r *RowRef) DescribeGot() string {
	v := math.Round(r.Got*100) / 100
	switch r.Pair {
	case PairRatio:
		return FormatNumber(v) + "x"
	case PairChange:
		return FormatNumber(v) + " %"
	}
	return FormatNumber(r.Got)
}

// Scope says whether a row is a per-call figure or a whole-run total, from
// its label (scenarios say "per call", "per dma_..." or "(whole run)"
// there); "" when the label says neither.
func (r *Row) Scope() string {
	switch {
	case strings.Contains(r.Label, "whole run"):
		return "whole run"
	case strings.Contains(r.Label, "per call") || strings.Contains(r.Label, "per dma_"):
		return "per call"
	}
	return ""
}

// UnitSymbol prints a metric unit with its proper symbol: "µs" for "us";
// other units are already written as they print.
func UnitSymbol(u string) string {
	if u == "us" {
		return "µs"
	}
	return u
}
