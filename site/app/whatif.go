package app

import (
	"strconv"
	"strings"

	"github.com/dmaviz/dmaviz/model/provenance"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sweep"
)

// The headline chart's what-if: it may vary a value of the board (a
// "hw.<path>" key) in place of the scenario's own parameter, over the
// values the board takes among a quarter, half, once, twice and four
// times the preset's (so the chart, like the scenario's own, stays put
// while the user's value, its mark, moves).

// whatIfFactors are the multiples of the current value a board what-if
// tries.
var whatIfFactors = []float64{0.25, 0.5, 1, 2, 4}

// HeadlineVary is the board path the headline chart varies ("" for the
// scenario's own parameter).
func (a *App) HeadlineVary() string { return a.headlineVary }

// SetHeadlineVary chooses what the headline chart varies: a board path,
// or "" for the scenario's own parameter. It reports whether the chart is
// due again (the page then re-runs, which keeps both sides' results and
// computes the chart).
func (a *App) SetHeadlineVary(path string) bool {
	if path != "" && len(a.whatIfValues(path)) < 2 {
		a.Messages = append(a.Messages, "the chart cannot vary "+path+" on "+a.Preset()+"'s board")
		return false
	}
	if path == a.headlineVary {
		return false
	}
	a.headlineVary = path
	return true
}

// WhatIfPaths lists the board values the headline chart can vary: the
// preset's numeric ones other than zero (a zero has no multiples).
func (a *App) WhatIfPaths() []string {
	if a.Spec == nil || a.Spec.Headline == nil || !a.Spec.OnBoard || a.Registry.Hardware == nil {
		return nil
	}
	var out []string
	for _, p := range a.PresetParams() {
		if numericValue(a.Registry.Hardware, &p) && p.Value > 0 {
			out = append(out, p.Path)
		}
	}
	return out
}

// numericValue reports whether p's value is a number (not a name such as
// "plru", "true" or "4K|64K").
func numericValue(hw scenario.Hardware, p *provenance.Param) bool {
	if p.Unit != "" {
		return true
	}
	_, err := strconv.ParseFloat(hw.Format(p.Path, p.Value), 64)
	return err == nil
}

// boardValue is the board's current value at path: the user's, else the
// preset's.
func (a *App) boardValue(path string) (provenance.Param, float64, bool) {
	p, ok := a.boardParam(path)
	if !ok {
		return p, 0, false
	}
	if v, own := a.State.Params[scenario.HardwarePrefix+path]; own {
		return p, v.Num, true
	}
	return p, p.Value, true
}

// whatIfValues are the values of path the chart runs: the multiples of
// the preset's value the board takes with the user's other values, in
// increasing order, as the link writes them.
func (a *App) whatIfValues(path string) []scenario.Value {
	hw := a.Registry.Hardware
	p, ok := a.boardParam(path)
	cur := p.Value
	if !ok || hw == nil || !numericValue(hw, &p) || cur <= 0 {
		return nil
	}
	over := a.boardOverrides()
	var out []scenario.Value
	for _, f := range whatIfFactors {
		v, err := hw.Parse(path, hw.Format(path, cur*f))
		if err != nil {
			continue
		}
		over[path] = v
		held, err := hw.Check(a.Preset(), over)
		if err != nil {
			continue
		}
		text := hw.Format(path, held[path])
		if n := len(out); n == 0 || out[n-1].Text != text {
			out = append(out, scenario.Value{Num: held[path], Text: text})
		}
	}
	return out
}

// whatIfAxis is the sweep's axis for the chosen board path (false when
// the chart varies the scenario's own parameter, or the path's values
// are too few), read as `dmaviz sweep --vary hw.PATH=a,b,c` reads it.
func (a *App) whatIfAxis() (sweep.Axis, bool) {
	path := a.headlineVary
	vals := a.whatIfValues(path)
	if path == "" || len(vals) < 2 {
		return sweep.Axis{}, false
	}
	texts := make([]string, len(vals))
	for i, v := range vals {
		texts[i] = v.Text
	}
	ax, err := sweep.ParseVaryOn(a.Spec, a.Registry.Hardware, a.State.Params, scenario.HardwarePrefix+path+"="+strings.Join(texts, ","))
	if err != nil {
		return sweep.Axis{}, false
	}
	ax.Geometric = true // multiples: a log axis
	return ax, true
}

// headlineVaried is the key the headline chart varies now.
func (a *App) headlineVaried() string {
	if _, ok := a.boardParam(a.headlineVary); ok && a.headlineVary != "" {
		return scenario.HardwarePrefix + a.headlineVary
	}
	varied, _, _ := strings.Cut(a.Spec.Headline.Vary, "=")
	return varied
}
