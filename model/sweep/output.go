package sweep

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"strconv"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// SchemaVersion is the version of the sweep JSON layout.
const SchemaVersion = 1

// paramCell prints a parameter value for CSV and JSON: numbers as plain
// numbers (sizes in bytes), choices by id, booleans as true/false.
func paramCell(d *scenario.Param, v scenario.Value) any {
	switch d.Kind {
	case scenario.KindChoice:
		return v.Text
	case scenario.KindBool:
		return v.Num != 0
	}
	return v.Num
}

func cellText(x any) string {
	switch v := x.(type) {
	case string:
		return v
	case bool:
		return strconv.FormatBool(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ""
}

// WriteCSV writes one row per point and side: every parameter (in the
// spec's order), every board field set (hw.<path>, in its unit), side, policy, then every metric and check as a column
// (empty where a side does not report it).
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	metrics, checks := t.columns()
	head := make([]string, 0, len(t.Spec.Params)+2+len(metrics)+len(checks))
	for _, d := range t.Spec.Params {
		head = append(head, d.Name)
	}
	board := t.hardwareKeys()
	head = append(head, board...)
	head = append(head, "side", "policy")
	for _, m := range append(append([]scenario.Metric(nil), metrics...), checks...) {
		head = append(head, m.Name)
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, p := range t.Points {
		for si, s := range []*Side{&p.A, &p.B} {
			row := make([]string, 0, len(head))
			for i := range t.Spec.Params {
				d := &t.Spec.Params[i]
				row = append(row, cellText(paramCell(d, p.Params[d.Name])))
			}
			for _, k := range board { // in the path's unit (the JSON's vary lists it)
				row = append(row, cellText(p.Params[k].Num))
			}
			row = append(row, [2]string{"A", "B"}[si], s.Policy)
			for _, m := range append(append([]scenario.Metric(nil), metrics...), checks...) {
				v, ok := s.Metric(m.Name)
				if ok {
					row = append(row, strconv.FormatFloat(scenario.Finite(v), 'f', -1, 64))
				} else {
					row = append(row, "")
				}
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

type jsonDoc struct {
	SchemaVersion int            `json:"schema_version"`
	Scenario      string         `json:"scenario"`
	A             string         `json:"a"`
	B             string         `json:"b"`
	Params        map[string]any `json:"params"` // the fixed ones
	Vary          []jsonAxis     `json:"vary"`
	Metrics       []jsonMetric   `json:"metrics"`
	Points        []jsonPoint    `json:"points"`
}

type jsonAxis struct {
	Param     string   `json:"param"`
	Unit      string   `json:"unit,omitempty"`
	Values    []string `json:"values"`
	Geometric bool     `json:"geometric"`
}

type jsonMetric struct {
	Name  string `json:"name"`
	Label string `json:"label"`
	Unit  string `json:"unit,omitempty"`
	Check bool   `json:"check,omitempty"`
}

type jsonPoint struct {
	Vary map[string]any `json:"vary"`
	A    jsonSide       `json:"a"`
	B    jsonSide       `json:"b"`
}

type jsonSide struct {
	Policy  string             `json:"policy"`
	Metrics map[string]float64 `json:"metrics"`
	Checks  map[string]float64 `json:"checks"`
}

// WriteJSON writes the table as one JSON document: the fixed parameters,
// the axes, the metric list (names, labels, units) and the points in grid
// order.
func (t *Table) WriteJSON(w io.Writer) error {
	doc := jsonDoc{SchemaVersion: SchemaVersion, Scenario: t.Spec.ID, A: t.A, B: t.B, Params: map[string]any{},
		Vary: []jsonAxis{}, Metrics: []jsonMetric{}, Points: []jsonPoint{}}
	varied := map[string]bool{}
	for _, ax := range t.Axes {
		varied[ax.Param.Name] = true
		ja := jsonAxis{Param: ax.Param.Name, Unit: ax.Param.Unit, Geometric: ax.Geometric}
		for _, v := range ax.Values {
			ja.Values = append(ja.Values, v.Text)
		}
		doc.Vary = append(doc.Vary, ja)
	}
	for i := range t.Spec.Params {
		d := &t.Spec.Params[i]
		if !varied[d.Name] {
			doc.Params[d.Name] = paramCell(d, t.Base[d.Name])
		}
	}
	for _, k := range t.hardwareKeys() {
		if !varied[k] {
			doc.Params[k] = t.Base[k].Text // with its unit
		}
	}
	metrics, checks := t.columns()
	for _, m := range metrics {
		doc.Metrics = append(doc.Metrics, jsonMetric{Name: m.Name, Label: m.Label, Unit: m.Unit})
	}
	for _, m := range checks {
		doc.Metrics = append(doc.Metrics, jsonMetric{Name: m.Name, Label: m.Label, Unit: m.Unit, Check: true})
	}
	side := func(s *Side) jsonSide {
		js := jsonSide{Policy: s.Policy, Metrics: map[string]float64{}, Checks: map[string]float64{}}
		for _, m := range s.Metrics {
			js.Metrics[m.Name] = scenario.Finite(m.Value)
		}
		for _, m := range s.Checks {
			js.Checks[m.Name] = scenario.Finite(m.Value)
		}
		return js
	}
	for _, p := range t.Points {
		jp := jsonPoint{Vary: map[string]any{}, A: side(&p.A), B: side(&p.B)}
		for i, ax := range t.Axes {
			jp.Vary[ax.Param.Name] = paramCell(&t.Axes[i].Param, p.Values[i])
		}
		doc.Points = append(doc.Points, jp)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
