// Package sweep runs a scenario's A and B policies over a grid of parameter
// values (one or two varied parameters, the others fixed) and turns the
// results into CSV, JSON and a line chart of one metric. The CLI's
// `dmaviz sweep` and the panel's headline chart both use it.
//
// Points run in parallel, but every output is ordered by the grid, never by
// completion, so the result is identical for any number of workers.
package sweep

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// Limits keep every sweep bounded in time and memory.
const (
	MaxAxisPoints = 64  // values of one varied parameter
	MaxPoints     = 512 // grid points (each runs A and B)
	MaxAxes       = 2
)

// Axis is one varied parameter and its values, in sweep order.
type Axis struct {
	Param  scenario.Param
	Values []scenario.Value
	// Geometric is set when the values grow by a constant factor (a
	// "lo..hi:xF" range) or are sizes: the chart then uses a log axis.
	Geometric bool
	// Held, for a board field (a "hw.<path>" axis), is the value the
	// sweep's fixed setting gives it (the base's override, else the
	// preset's): the chart marks it. Nil for a scenario parameter.
	Held *scenario.Value
}

// ParseVary reads one --vary argument for spec:
//
//	key=lo..hi:xF   lo, lo*F, lo*F^2 ... up to hi (F > 1); sizes default to x2
//	key=lo..hi:+S   lo, lo+S, lo+2S ... up to hi (S > 0)
//	key=a,b,c       the listed values (any kind, choices too)
//
// Every value is validated by the parameter's own rules, so an error names
// the key and its allowed range.
func ParseVary(spec *scenario.Spec, text string) (Axis, error) {
	key, val, ok := strings.Cut(text, "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" || strings.TrimSpace(val) == "" {
		return Axis{}, fmt.Errorf("--vary %q: want key=lo..hi:x2, key=lo..hi:+step or key=a,b,c", text)
	}
	d := spec.Param(key)
	if d == nil {
		names := make([]string, len(spec.Params))
		for i := range spec.Params {
			names[i] = spec.Params[i].Name
		}
		return Axis{}, fmt.Errorf("--vary %s: unknown parameter for scenario %s; known: %s", key, spec.ID, strings.Join(names, ", "))
	}
	return parseAxis(Axis{Param: *d}, key, val, d.Parse, func(s string) (float64, error) { return parseStep(d, s) })
}

// parseAxis reads val (a range or a list) into ax's values: parse reads
// one value (its error names the key), step an increment.
func parseAxis(ax Axis, key, val string, parse func(string) (scenario.Value, error), step func(string) (float64, error)) (Axis, error) {
	d := &ax.Param
	if lo, rest, isRange := strings.Cut(val, ".."); isRange {
		if err := ax.parseRange(lo, rest, parse, step); err != nil {
			if strings.HasPrefix(err.Error(), key+": ") { // a value's error names the key
				return Axis{}, fmt.Errorf("--vary %w", err)
			}
			return Axis{}, fmt.Errorf("--vary %s: %w", key, err)
		}
		return ax, nil
	}
	seen := map[string]bool{}
	for _, part := range strings.Split(val, ",") {
		v, err := parse(part)
		if err != nil {
			return Axis{}, fmt.Errorf("--vary: %w", err)
		}
		if seen[v.Text] {
			return Axis{}, fmt.Errorf("--vary %s: %s is listed twice", key, v.Text)
		}
		seen[v.Text] = true
		ax.Values = append(ax.Values, v)
	}
	if len(ax.Values) > MaxAxisPoints {
		return Axis{}, fmt.Errorf("--vary %s: %d values; allowed at most %d", key, len(ax.Values), MaxAxisPoints)
	}
	ax.Geometric = d.Kind == scenario.KindBytes && ax.positive()
	return ax, nil
}

func (ax *Axis) parseRange(loText, rest string, parse func(string) (scenario.Value, error), parseStep func(string) (float64, error)) error {
	d := &ax.Param
	if d.Kind == scenario.KindChoice || d.Kind == scenario.KindBool {
		return fmt.Errorf("a range needs a numeric parameter; list the values instead (%s)", d.Range())
	}
	hiText, step, hasStep := strings.Cut(rest, ":")
	lo, err := parse(loText)
	if err != nil {
		return err
	}
	hi, err := parse(hiText)
	if err != nil {
		return err
	}
	if hi.Num < lo.Num {
		return fmt.Errorf("%s..%s runs backwards; allowed %s with lo <= hi", lo.Text, hi.Text, d.Range())
	}
	if !hasStep {
		if d.Kind != scenario.KindBytes {
			return fmt.Errorf("%s..%s needs a step, :xF (factor) or :+S (increment)", lo.Text, hi.Text)
		}
		step = "x2"
	}
	step = strings.TrimSpace(step)
	var next func(float64) float64
	switch {
	case strings.HasPrefix(step, "x") || strings.HasPrefix(step, "*"):
		f, err := strconv.ParseFloat(step[1:], 64)
		if err != nil || !(f > 1) || math.IsInf(f, 0) {
			return fmt.Errorf("step %q: the factor must be a number above 1", step)
		}
		if !(lo.Num > 0) {
			return fmt.Errorf("a geometric range needs lo > 0, got %s; allowed %s", lo.Text, d.Range())
		}
		ax.Geometric = true
		next = func(v float64) float64 { return v * f }
	case strings.HasPrefix(step, "+"):
		s, err := parseStep(step[1:])
		if err != nil || !(s > 0) || math.IsInf(s, 0) {
			return fmt.Errorf("step %q: the increment must be above 0", step)
		}
		next = func(v float64) float64 { return v + s }
	default:
		return fmt.Errorf("step %q: want xF (factor) or +S (increment)", step)
	}
	// Values are rounded to the parameter's grain (whole numbers for sizes
	// and counts); the last is hi itself when the steps land on it.
	const eps = 1e-9
	for v := lo.Num; v <= hi.Num*(1+eps)+eps; v = next(v) {
		if len(ax.Values) == MaxAxisPoints {
			return fmt.Errorf("%s..%s:%s gives more than %d values; allowed at most %d (use a larger step)", lo.Text, hi.Text, step, MaxAxisPoints, MaxAxisPoints)
		}
		x := math.Min(v, hi.Num)
		if d.Kind != scenario.KindFloat {
			x = math.Round(x)
		}
		pv, err := parse(d.Format(x))
		if err != nil {
			return err
		}
		if n := len(ax.Values); n > 0 && ax.Values[n-1].Num == pv.Num {
			continue
		}
		ax.Values = append(ax.Values, pv)
	}
	return nil
}

func parseStep(d *scenario.Param, s string) (float64, error) {
	if d.Kind == scenario.KindBytes {
		return scenario.ParseBytes(s)
	}
	return strconv.ParseFloat(strings.TrimSpace(s), 64)
}

func (ax *Axis) positive() bool {
	for _, v := range ax.Values {
		if !(v.Num > 0) {
			return false
		}
	}
	return len(ax.Values) > 0
}

// Numeric reports whether the axis can be a chart's x axis.
func (ax *Axis) Numeric() bool {
	return ax.Param.Kind != scenario.KindChoice && ax.Param.Kind != scenario.KindBool
}
