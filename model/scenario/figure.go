package scenario

import (
	"strconv"
	"strings"

	"github.com/dmaviz/dmaviz/model/provenance"
)

// Reference kinds, as the CLI, the panel and `run --json` name them.
const (
	Calibrated = "calibrated"
	Prediction = "prediction"
)

// Kind is Calibrated when a parameter was fitted to the figure, else
// Prediction.
func (r *Reference) Kind() string {
	if len(r.Fitted) > 0 {
		return Calibrated
	}
	return Prediction
}

// FigureID names a published figure of the scenario with the given id:
// "<scenario>/<metric>/<policy>", or ".../ratio" and ".../change" for a
// figure about the default A/B pair. Provenance entries of fitted
// parameters name their figure by it.
func FigureID(scenarioID string, r *Reference) string {
	pol := r.Policy
	switch {
	case pol != "":
	case r.Pair == PairRatio:
		pol = "ratio"
	case r.Pair == PairChange:
		pol = "change"
	default:
		pol = "pair"
	}
	return scenarioID + "/" + r.Metric + "/" + pol
}

// Classify fills each reference's Fitted from the provenance of the
// scenario's default preset (its table) and of the scenario's own
// constants: the paths whose fitted entry names the figure, preset first,
// in table order. Scenarios call it at the end of Spec, so a figure's kind
// follows the tables and cannot drift from them.
func (s *Spec) Classify(preset []provenance.Entry) {
	for i := range s.References {
		r := &s.References[i]
		id := FigureID(s.ID, r)
		r.Fitted = nil
		for _, e := range preset {
			if e.Kind == provenance.Fitted && e.Figure == id {
				r.Fitted = append(r.Fitted, e.Path)
			}
		}
		for _, c := range s.Constants {
			if c.Kind == provenance.Fitted && c.Figure == id {
				r.Fitted = append(r.Fitted, c.Path)
			}
		}
	}
}

// AddParamConstants adds to Constants the provenance of parameters that
// are hardware or workload constants of the published setting: each
// entry's path is "<id>.<param>", and its value, unit and text are the
// parameter's default. An entry naming no parameter of s is kept with
// value 0 and no unit (the scenario's tests then fail on its range).
func (s *Spec) AddParamConstants(entries ...provenance.Entry) {
	for _, e := range entries {
		c := provenance.Param{Entry: e}
		if d := s.Param(strings.TrimPrefix(e.Path, s.ID+".")); d != nil {
			c.Unit, c.Text = d.Unit, d.Default
			if v, err := d.Parse(d.Default); err == nil {
				c.Value = v.Num
				if d.Kind == KindChoice {
					c.Value, _ = strconv.ParseFloat(v.Text, 64)
				}
			}
			if d.Unit != "" && d.Kind != KindBytes {
				c.Text += " " + d.Unit
			}
		}
		s.Constants = append(s.Constants, c)
	}
}
