// Package uncertainty puts error bars on a scenario's figures: it runs the
// A/B pair at the extremes of the assumed parameters' ranges (the preset's
// and the scenario's own, from their provenance) and reports each figure
// as its value and [low, high] with the parameter that moves it most.
//
// The runs, at most MaxRuns for a pair, go through the sweep machinery
// (sweep.RunSets: in parallel natively, paced one at a time in the page):
//
//  1. the nominal pair;
//  2. the assumed parameters the scenario declares its figures read
//     (Spec.Reads), each at its low and its high end alone, in the
//     declared order as far as the budget allows;
//  3. every other assumed parameter at once, all low and all high ("the
//     rest"): a declaration that misses a parameter that matters shows as
//     the rest moving a figure;
//  4. for each figure, the parameters that moved it (the few that moved
//     it most, the rest counted as one) together at the ends that moved
//     it down, and at the ends that moved it up.
//
// A parameter whose ends change no figure is reported as having no
// effect. An end the scenario refuses (a setting past its bounds) is
// reported with the scenario's message and left out of the band.
package uncertainty

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/provenance"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// Limits of one uncertainty run.
const (
	// MaxRuns bounds the pair runs, the nominal one included.
	MaxRuns = 32
	// combineTop is how many parameters (by effect on a figure) its
	// combined extremes move.
	combineTop = 4
)

// Rest names the assumed parameters outside Spec.Reads, moved together.
const Rest = "other assumed parameters"

// Knob is one assumed parameter the bands vary: a preset parameter (set
// as hw.<path>) or a scenario constant that is a parameter.
type Knob struct {
	Path      string // "dram.bandwidth", "smmu-bypass.cpu-work"
	Unit      string
	Value     float64 // at the run's setting
	Low, High float64
	key       string // the scenario.Params key that sets it
}

func (k *Knob) set(p scenario.Params, v float64) { p[k.key] = scenario.Value{Num: v} }

// Target is one figure the bands are put on: a published reference that
// applies to the pair, or (without one) the headline metric on a side.
type Target struct {
	Metric string
	Side   string // "A", "B" or "A/B"
	Pair   scenario.PairKind
	// Ref is the published figure (nil for a headline target); Figure its
	// id.
	Ref    *scenario.Reference
	Figure string
}

// Plan is what an uncertainty run will vary, decided before any run.
type Plan struct {
	Targets []Target
	// Alone are the knobs varied one at a time, in the declared order.
	Alone []Knob
	// Together are the knobs moved all at once (the rest).
	Together []Knob
	// Fixed are assumed parameters the run cannot vary: a scenario
	// constant that is no parameter.
	Fixed []string
}

// Runs is the most pair runs the plan takes.
func (p *Plan) Runs() int {
	n := 1 + 2*len(p.Alone) + 2*len(p.Targets)
	if len(p.Together) > 0 {
		n += 2
	}
	return n
}

// NewPlan decides what to vary for the pair a, b of s at params (full,
// validated): the assumed parameters of the preset params names and of the
// scenario, split by Spec.Reads and the budget.
func NewPlan(spec *scenario.Spec, params scenario.Params, a, b string) (*Plan, error) {
	if !spec.OnBoard {
		return nil, fmt.Errorf("uncertainty: scenario %s runs on no hardware preset", spec.ID)
	}
	p := &Plan{Targets: targets(spec, a, b)}
	if len(p.Targets) == 0 {
		return nil, fmt.Errorf("uncertainty: scenario %s has no published figure for %s vs %s and no headline metric to put a band on", spec.ID, a, b)
	}
	preset := params.Text("preset")
	hw, _ := params.SplitHardware(spec.ID)
	board, err := platform.BoardWith(preset, hw)
	if err != nil {
		return nil, err
	}
	table, err := platform.Parameters(preset)
	if err != nil {
		return nil, err
	}
	var all []Knob
	for _, e := range table {
		if !e.Varies() {
			continue
		}
		v, _ := board.Value(e.Path)
		all = append(all, Knob{Path: e.Path, Unit: e.Unit, Value: v, Low: e.Low, High: e.High, key: scenario.HardwarePrefix + e.Path})
	}
	for _, c := range spec.Constants {
		if !c.Varies() {
			continue
		}
		d := spec.Param(strings.TrimPrefix(c.Path, spec.ID+"."))
		if d == nil {
			if slices.Contains(spec.Overridable, c.Path) {
				v := c.Value
				if o, ok := params[scenario.HardwarePrefix+c.Path]; ok {
					v = o.Num
				}
				all = append(all, Knob{Path: c.Path, Unit: c.Unit, Value: v, Low: c.Low, High: c.High, key: scenario.HardwarePrefix + c.Path})
				continue
			}
			p.Fixed = append(p.Fixed, c.Path)
			continue
		}
		all = append(all, Knob{Path: c.Path, Unit: c.Unit, Value: params[d.Name].Num, Low: c.Low, High: c.High, key: d.Name})
	}
	p.split(spec.Reads, all)
	return p, nil
}

// split puts the knobs the scenario reads, in its order, into Alone as
// far as MaxRuns allows, and the others into Together.
func (p *Plan) split(reads []string, all []Knob) {
	used := make([]bool, len(all))
	var alone []Knob
	for _, r := range reads {
		for i := range all {
			if !used[i] && (all[i].Path == r || strings.HasSuffix(r, ".") && strings.HasPrefix(all[i].Path, r)) {
				used[i] = true
				alone = append(alone, all[i])
			}
		}
	}
	// Budget: nominal, the rest's two ends, the combined extremes.
	room := (MaxRuns - 1 - 2 - 2*len(p.Targets)) / 2
	if len(alone) > room {
		alone = alone[:room]
	}
	p.Alone = alone
	inAlone := map[string]bool{}
	for _, k := range alone {
		inAlone[k.Path] = true
	}
	for _, k := range all {
		if !inAlone[k.Path] {
			p.Together = append(p.Together, k)
		}
	}
}

// targets lists the published figures that apply to the pair a, b (a
// pair figure only for the scenario's default pair, either order), or the
// headline metric on both sides when none does.
func targets(spec *scenario.Spec, a, b string) []Target {
	var out []Target
	for i := range spec.References {
		r := &spec.References[i]
		t := Target{Metric: r.Metric, Pair: r.Pair, Ref: r, Figure: scenario.FigureID(spec.ID, r)}
		switch {
		case r.Policy == "":
			if !(a == spec.DefaultA && b == spec.DefaultB || a == spec.DefaultB && b == spec.DefaultA) {
				continue
			}
			t.Side = "A/B"
		case r.Policy == a:
			t.Side = "A"
		case r.Policy == b:
			t.Side = "B"
		default:
			continue
		}
		out = append(out, t)
	}
	if len(out) == 0 && spec.Headline != nil {
		for _, side := range []string{"A", "B"} {
			out = append(out, Target{Metric: spec.Headline.Metric, Side: side})
		}
	}
	return out
}

// Describe is the knob and its range in words, "dram.bandwidth [3.2,
// 12.8] GB/s".
func (k *Knob) Describe() string { return k.Path + " " + k.RangeText() }

// RangeText is the knob's range, "[3.2, 12.8] GB/s".
func (k *Knob) RangeText() string {
	p := provenance.Param{Entry: provenance.Entry{Low: k.Low, High: k.High}, Unit: k.Unit}
	return p.RangeText()
}
