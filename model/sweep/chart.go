package sweep

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// x is the chart position of an axis value: the number for numeric kinds,
// a choice's id read as a number where it is one (e.g. a load width),
// else its place in the list.
func (ax *Axis) x(i int) float64 {
	v := ax.Values[i]
	if ax.Numeric() {
		return v.Num
	}
	if f, err := strconv.ParseFloat(v.Text, 64); err == nil {
		return f
	}
	return float64(i + 1)
}

// Chart draws metric against the first varied parameter: one series per
// side (and per value of the second varied parameter, if any), a log x
// axis when the first axis is geometric, the fixed setting marked, and the
// scenario's published figure for the metric where the rest of the
// setting is the one it was measured at.
func (t *Table) Chart(metric string) (scenario.Chart, error) {
	var unit, label string
	found := false
	metrics, checks := t.columns()
	for _, m := range append(metrics, checks...) {
		if m.Name == metric {
			unit, label, found = m.Unit, m.Label, true
		}
	}
	if !found {
		names := ""
		for i, m := range append(metrics, checks...) {
			if i > 0 {
				names += ", "
			}
			names += m.Name
		}
		return scenario.Chart{}, fmt.Errorf("--metric %s: not reported by scenario %s; known: %s", metric, t.Spec.ID, names)
	}
	ax := &t.Axes[0]
	ch := scenario.Chart{
		ID:     "sweep-" + metric + "-vs-" + ax.Param.Name,
		Title:  t.Spec.ID + ": " + label + " against " + ax.Param.Label,
		XLabel: withUnit(ax.Param.Label, ax.Param.Unit),
		YLabel: metricLabel(metric, unit),
		LogX:   ax.Geometric,
	}
	if ax.Numeric() {
		ch.Mark = t.Base[ax.Param.Name].Num
	}
	if ax.Held != nil {
		ch.Mark = ax.Held.Num
	}
	varied := make([]string, len(t.Axes))
	for i := range t.Axes {
		varied[i] = t.Axes[i].Param.Name
	}
	ch.Fixed = t.Spec.Held(t.Base, varied...)
	for _, k := range t.hardwareKeys() {
		if !slices.Contains(varied, k) {
			ch.Fixed = append(ch.Fixed, k+"="+t.Base[k].Text)
		}
	}
	inner := []scenario.Value{{}}
	if len(t.Axes) > 1 {
		inner = t.Axes[1].Values
	}
	def, _ := t.Spec.Defaults()
	for side := 0; side < 2; side++ {
		for j, iv := range inner {
			policy := [2]string{t.A, t.B}[side]
			name := [2]string{"A ", "B "}[side] + policy
			if len(t.Axes) > 1 {
				name += ", " + t.Axes[1].Param.Name + "=" + iv.Text
			}
			ser := scenario.Series{Name: name}
			for i, p := range t.Points {
				if len(t.Axes) > 1 && i%len(inner) != j {
					continue
				}
				s := &p.A
				if side == 1 {
					s = &p.B
				}
				if v, ok := s.Metric(metric); ok {
					ser.Points = append(ser.Points, timeline.Point{X: ax.x(i / len(inner)), Y: v})
				}
			}
			ch.Series = append(ch.Series, ser)
			if ref, x, ok := t.published(metric, policy, iv, def); ok {
				ch.Published = append(ch.Published, scenario.ChartRef{Series: len(ch.Series) - 1, X: x, Y: ref.Value,
					Label: "published " + strconv.FormatFloat(ref.Value, 'f', -1, 64), Source: ref.Source})
			}
		}
	}
	return ch, nil
}

// published finds the figure for metric and policy when every parameter
// but the first axis is at its default (the second axis at value iv) on
// the preset's board, and returns it with the first axis' default (a
// board field's: the preset's value) as its x.
func (t *Table) published(metric, policy string, iv scenario.Value, def scenario.Params) (scenario.Reference, float64, bool) {
	if def == nil || len(t.Base.Hardware()) > 0 { // the figure's board is the preset's
		return scenario.Reference{}, 0, false
	}
	if len(t.Axes) > 1 && t.Axes[1].Held != nil && iv != *t.Axes[1].Held {
		return scenario.Reference{}, 0, false
	}
	ax := &t.Axes[0]
	for _, d := range t.Spec.Params {
		switch {
		case d.Name == ax.Param.Name:
		case len(t.Axes) > 1 && d.Name == t.Axes[1].Param.Name:
			if iv != def[d.Name] {
				return scenario.Reference{}, 0, false
			}
		case t.Base[d.Name] != def[d.Name]:
			return scenario.Reference{}, 0, false
		}
	}
	x := def[ax.Param.Name].Num
	if ax.Held != nil { // a board field: the figure is at the preset's value
		x = ax.Held.Num
	}
	if !ax.Numeric() {
		i := -1
		for k, v := range ax.Values {
			if v == def[ax.Param.Name] {
				i = k
			}
		}
		if i < 0 {
			return scenario.Reference{}, 0, false
		}
		x = ax.x(i)
	}
	for _, r := range t.Spec.References {
		if r.Metric == metric && r.Policy == policy && r.Pair == scenario.PairNone {
			return r, x, true
		}
	}
	return scenario.Reference{}, 0, false
}

func withUnit(label, unit string) string {
	if unit == "" {
		return label
	}
	return label + " (" + unit + ")"
}

// metricLabel is the metric's name with its unit, unless the name already
// ends in it (update_etr_buffer_us).
func metricLabel(name, unit string) string {
	if unit == "" || strings.HasSuffix(name, "_"+unit) {
		return name
	}
	return name + " (" + unit + ")"
}
