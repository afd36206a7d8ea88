package scenario

import (
	"math"
	"strconv"
)

// ReportSchemaVersion is the version of Report's JSON layout. It grows when
// a field changes meaning or is removed; new fields keep the version.
const ReportSchemaVersion = 1

// Report is one A/B run as machine-readable data: what `dmaviz run --json`
// prints and the panel's "Download JSON" saves. Each published figure that
// applies carries its value, source, tolerance and verdict exactly as the
// metrics table shows them.
type Report struct {
	SchemaVersion int            `json:"schema_version"`
	Scenario      string         `json:"scenario"`
	Preset        string         `json:"preset"`
	Params        map[string]any `json:"params"`
	A             ReportSide     `json:"a"`
	B             ReportSide     `json:"b"`
	// References lists, in table order, every published figure beside a
	// metric of this run (none when the parameters are not the defaults
	// the figures were measured at).
	References []ReportRef `json:"references"`
}

// ReportSide is one side of a Report.
type ReportSide struct {
	Policy  string             `json:"policy"`
	Metrics map[string]float64 `json:"metrics"`
	Checks  map[string]float64 `json:"checks"`
	Hazards []ReportHazard     `json:"hazards"`
}

// ReportHazard is one hazard of a side.
type ReportHazard struct {
	TimeUS float64 `json:"time_us"`
	Addr   string  `json:"addr"`
	Bytes  int64   `json:"bytes"`
	Cause  string  `json:"cause"`
}

// ReportRef is one published figure beside a metric.
type ReportRef struct {
	Metric string `json:"metric"`
	Side   string `json:"side"` // "A", "B" or "A/B" (a pair figure)
	// Pair is "", "ratio" (A/B) or "change" ((B-A)/A in percent).
	Pair      string  `json:"pair,omitempty"`
	Published float64 `json:"published"`
	Simulated float64 `json:"simulated"`
	// Tolerance is relative (0.1 = 10 %) unless Absolute, then in the
	// figure's unit.
	Tolerance float64 `json:"tolerance"`
	Absolute  bool    `json:"absolute,omitempty"`
	// ToleranceText is the tolerance in words, e.g. "±10 %".
	ToleranceText string `json:"tolerance_text"`
	Source        string `json:"source"`
	// Calibrated says how the model is fitted to the figure (absent when
	// the figure is a prediction).
	Calibrated string `json:"calibrated,omitempty"`
	Verdict    string `json:"verdict"` // "within" or "outside" (the tolerance)
	// Text is the line the panel shows, e.g. "published A 8148.32 ·
	// simulated 8120.4 ✓ within tolerance".
	Text string `json:"text"`
}

// Verdict is "within" when the simulated figure matches the published one
// within its tolerance, else "outside".
func (r *RowRef) Verdict() string {
	if r.OK {
		return "within"
	}
	return "outside"
}

// PanelText is the line the metrics table shows for the figure.
func (r *RowRef) PanelText() string {
	mark := "✓ within"
	if !r.OK {
		mark = "✗ outside"
	}
	return "published " + r.Describe() + " · simulated " + r.DescribeGot() + " " + mark + " tolerance"
}

// DescribeTolerance prints the tolerance, e.g. "±10 %" or "±3".
func (r *Reference) DescribeTolerance() string {
	if r.Absolute {
		return "±" + FormatNumber(r.Tolerance)
	}
	return "±" + FormatNumber(math.Round(r.Tolerance*1e6)/1e4) + " %"
}

// NewReport builds the Report of a and b run with params (validated, full).
func NewReport(spec *Spec, params Params, a, b *Result) *Report {
	rep := &Report{SchemaVersion: ReportSchemaVersion, Scenario: spec.ID, Preset: params.Text("preset"),
		Params: map[string]any{}, A: reportSide(a), B: reportSide(b), References: []ReportRef{}}
	for _, d := range spec.Params {
		v := params[d.Name]
		switch d.Kind {
		case KindChoice:
			rep.Params[d.Name] = v.Text
		case KindBool:
			rep.Params[d.Name] = v.Num != 0
		default:
			rep.Params[d.Name] = v.Num
		}
	}
	for _, row := range Compare(spec, params, a, b) {
		for i := range row.Refs {
			f := &row.Refs[i]
			pair := ""
			switch f.Pair {
			case PairRatio:
				pair = "ratio"
			case PairChange:
				pair = "change"
			}
			rep.References = append(rep.References, ReportRef{Metric: row.Name, Side: f.Side, Pair: pair,
				Published: f.Value, Simulated: Finite(f.Got), Tolerance: f.Tolerance, Absolute: f.Absolute,
				ToleranceText: f.DescribeTolerance(),
				Source:        f.Source, Calibrated: f.Calibrated, Verdict: f.Verdict(), Text: f.PanelText()})
		}
	}
	return rep
}

func reportSide(res *Result) ReportSide {
	s := ReportSide{Metrics: map[string]float64{}, Checks: map[string]float64{}, Hazards: []ReportHazard{}}
	if res == nil {
		return s
	}
	s.Policy = res.Policy
	for _, m := range res.Metrics {
		s.Metrics[m.Name] = Finite(m.Value)
	}
	for _, m := range res.Checks {
		s.Checks[m.Name] = Finite(m.Value)
	}
	for _, h := range res.Hazards {
		s.Hazards = append(s.Hazards, ReportHazard{TimeUS: h.T.Microseconds(), Addr: "0x" + strconv.FormatUint(h.Addr, 16), Bytes: h.Bytes, Cause: h.Cause})
	}
	return s
}

// Finite keeps JSON valid: NaN and infinities become 0.
func Finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}
