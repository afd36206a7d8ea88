package app

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/report"
	"github.com/dmaviz/dmaviz/trace"
)

// The metrics area's exports: the table as CSV, the run as the same JSON
// report `dmaviz run --json` prints, and the run as a Chrome trace. Each is
// "" (and ok false) until both sides have results.

// FileName is a download's name, e.g. "dmaviz-etr-coherent-vs-cached-sync.json".
func (a *App) FileName(ext string) string {
	name := "dmaviz"
	if a.Spec != nil {
		name += "-" + a.Spec.ID
	}
	if a.A != nil && a.B != nil {
		name += "-" + a.A.Policy + "-vs-" + a.B.Policy
	}
	return name + "." + ext
}

// MetricsCSV is the metrics table as CSV: metric, unit, A, B, B/A and, per
// published figure, the panel's text, source, kind (calibrated or
// prediction) and verdict (report.Verdict).
func (a *App) MetricsCSV() (string, bool) {
	rows := a.Rows()
	if rows == nil {
		return "", false
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write([]string{"metric", "unit", "A", "B", "B/A", "published", "source", "kind", "verdict"})
	num := func(v float64, ok bool) string {
		if !ok {
			return ""
		}
		return strconv.FormatFloat(scenario.Finite(v), 'f', -1, 64)
	}
	for _, r := range rows {
		ratio := ""
		if r.HasA && r.HasB && r.A != 0 {
			ratio = strconv.FormatFloat(r.B/r.A, 'f', -1, 64)
		}
		var pub, src, kind, verdict []string
		for i := range r.Refs {
			f := &r.Refs[i]
			pub = append(pub, report.PanelText(f))
			src = append(src, f.Source)
			kind = append(kind, f.Kind())
			verdict = append(verdict, report.Verdict(f))
		}
		_ = w.Write([]string{r.Name, r.Unit, num(r.A, r.HasA), num(r.B, r.HasB), ratio,
			strings.Join(pub, "; "), strings.Join(src, "; "), strings.Join(kind, "; "), strings.Join(verdict, "; ")})
	}
	w.Flush()
	return b.String(), w.Error() == nil
}

// ReportJSON is the run as report.Report, indented as the CLI prints it.
func (a *App) ReportJSON() (string, bool) {
	if a.A == nil || a.B == nil || a.Spec == nil {
		return "", false
	}
	out, err := json.MarshalIndent(report.New(a.Spec, a.State.Params, a.A, a.B), "", "  ")
	if err != nil {
		return "", false
	}
	return string(out) + "\n", true
}

// TraceJSON is the run as Chrome trace-event JSON (package trace).
func (a *App) TraceJSON() (string, bool) {
	if a.A == nil || a.B == nil || a.Spec == nil {
		return "", false
	}
	meta := trace.Meta{Scenario: a.Spec.ID, Title: a.Spec.Title}
	for _, d := range a.Spec.Params {
		meta.Params = append(meta.Params, [2]string{d.Name, a.State.Params.Text(d.Name)})
	}
	var b bytes.Buffer
	if err := trace.Write(&b, meta, a.A, a.B); err != nil {
		return "", false
	}
	return b.String(), true
}
