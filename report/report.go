package report

import (
	"strconv"
	"strings"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// SchemaVersion is the version of Report's JSON layout. It grows when
// a field changes meaning or is removed; new fields keep the version.
// Version 2: a reference's "calibrated" (free text) became "kind" and
// "fitted", and its verdict is "calibrated" for a fitted figure.
const SchemaVersion = 2

// Report is one A/B run as machine-readable data: what `dmaviz run --json`
// prints and the panel's "Download JSON" saves. Each published figure that
// applies carries its value, source, tolerance and verdict exactly as the
// metrics table shows them.
type Report struct {
	SchemaVersion int            `json:"schema_version"`
	Scenario      string         `json:"scenario"`
	Preset        string         `json:"preset"`
	Params        map[string]any `json:"params"`
	A             Side           `json:"a"`
	B             Side           `json:"b"`
	// References lists, in table order, every published figure beside a
	// metric of this run (none when the parameters are not the defaults
	// the figures were measured at).
	References []Ref `json:"references"`
	// Uncertainty is present with --uncertainty (AttachBands).
	Uncertainty *Uncertainty `json:"uncertainty,omitempty"`
}

// AttachBands adds u to the report and each figure's band to the
// reference of the same metric and side.
func (r *Report) AttachBands(u *Uncertainty) {
	r.Uncertainty = u
	for i := range r.References {
		ref := &r.References[i]
		for _, f := range u.Figures {
			if f.Metric == ref.Metric && f.Side == ref.Side {
				b := f.Band
				ref.Band = &b
			}
		}
	}
}

// Side is one side of a Report.
type Side struct {
	Policy  string             `json:"policy"`
	Metrics map[string]float64 `json:"metrics"`
	Checks  map[string]float64 `json:"checks"`
	Hazards []Hazard           `json:"hazards"`
	// NoHazard says why a bug policy produced no hazard at this setting
	// (absent otherwise).
	NoHazard string `json:"no_hazard,omitempty"`
	// Fates counts what became of the cached copies the run made older
	// than memory (absent for a scenario that does not count them).
	Fates *Fates `json:"fates,omitempty"`
}

// Fates is scenario.Fates in the report's keys.
type Fates struct {
	Stale       int64 `json:"stale"`
	Doomed      int64 `json:"doomed"`
	Read        int64 `json:"read"`
	Evicted     int64 `json:"evicted"`
	Invalidated int64 `json:"invalidated"`
	Lost        int64 `json:"lost"`
	Discarded   int64 `json:"discarded"`
	Overwritten int64 `json:"overwritten"`
	Cached      int64 `json:"cached_at_end"`
}

// Hazard is one hazard of a side.
type Hazard struct {
	TimeUS float64 `json:"time_us"`
	Addr   string  `json:"addr"`
	Bytes  int64   `json:"bytes"`
	Cause  string  `json:"cause"`
}

// Ref is one published figure beside a metric.
type Ref struct {
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
	// Kind is "calibrated" (a parameter was fitted to the figure) or
	// "prediction".
	Kind string `json:"kind"`
	// Fitted lists the parameters fitted to a calibrated figure.
	Fitted []string `json:"fitted,omitempty"`
	// Verdict is "within" or "outside" (the tolerance) for a prediction,
	// "calibrated" for a calibrated figure.
	Verdict string `json:"verdict"`
	// Text is the line the panel shows, e.g. "published A/B 3.31x ·
	// simulated 3.19x ✓ within tolerance".
	Text string `json:"text"`
	// Band is the figure's range over the assumed parameters' extremes
	// (with --uncertainty).
	Band *Band `json:"band,omitempty"`
}

// New builds the Report of a and b run with params (validated, full).
func New(spec *scenario.Spec, params scenario.Params, a, b *scenario.Result) *Report {
	rep := &Report{SchemaVersion: SchemaVersion, Scenario: spec.ID, Preset: params.Text("preset"),
		Params: map[string]any{}, A: side(a), B: side(b), References: []Ref{}}
	for _, d := range spec.Params {
		v := params[d.Name]
		switch d.Kind {
		case scenario.KindChoice:
			rep.Params[d.Name] = v.Text
		case scenario.KindBool:
			rep.Params[d.Name] = v.Num != 0
		default:
			rep.Params[d.Name] = v.Num
		}
	}
	for k, v := range params { // the board's overrides, in their units
		if strings.HasPrefix(k, scenario.HardwarePrefix) {
			rep.Params[k] = v.Text
		}
	}
	for _, row := range scenario.Compare(spec, params, a, b) {
		for i := range row.Refs {
			f := &row.Refs[i]
			pair := ""
			switch f.Pair {
			case scenario.PairRatio:
				pair = "ratio"
			case scenario.PairChange:
				pair = "change"
			}
			rep.References = append(rep.References, Ref{Metric: row.Name, Side: f.Side, Pair: pair,
				Published: f.Value, Simulated: scenario.Finite(f.Got), Tolerance: f.Tolerance, Absolute: f.Absolute,
				ToleranceText: DescribeTolerance(&f.Reference),
				Source:        f.Source, Kind: f.Kind(), Fitted: f.Fitted, Verdict: Verdict(f), Text: PanelText(f)})
		}
	}
	return rep
}

func side(res *scenario.Result) Side {
	s := Side{Metrics: map[string]float64{}, Checks: map[string]float64{}, Hazards: []Hazard{}}
	if res == nil {
		return s
	}
	s.Policy = res.Policy
	for _, m := range res.Metrics {
		s.Metrics[m.Name] = scenario.Finite(m.Value)
	}
	for _, m := range res.Checks {
		s.Checks[m.Name] = scenario.Finite(m.Value)
	}
	for _, h := range res.Hazards {
		s.Hazards = append(s.Hazards, Hazard{TimeUS: h.T.Microseconds(), Addr: "0x" + strconv.FormatUint(h.Addr, 16), Bytes: h.Bytes, Cause: h.Cause})
	}
	s.NoHazard = res.NoHazard
	if f := res.Fates; f != nil {
		s.Fates = &Fates{Stale: f.Stale, Doomed: f.Doomed, Read: f.Read, Evicted: f.Evicted, Invalidated: f.Invalidated,
			Lost: f.Lost, Discarded: f.Discarded, Overwritten: f.Overwritten, Cached: f.Cached}
	}
	return s
}

// Band is a figure's range when the assumed hardware parameters go to the
// ends of their ranges (`dmaviz run --uncertainty`).
type Band struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	// Dominant is the parameter whose ends alone moved the figure most
	// ("" when none moved it).
	Dominant string `json:"dominant"`
	// Outside says the published figure lies outside the band: a finding.
	Outside bool `json:"outside,omitempty"`
}

// Uncertainty says how the bands were made: the runs, each figure with
// its band (also where no published figure applies: the headline
// metric), each varied parameter's effect, and what was moved together or
// not varied.
type Uncertainty struct {
	Runs    int            `json:"runs"`
	Figures []BandedFigure `json:"figures"`
	Effects []BandEffect   `json:"effects"`
	// Together are the assumed parameters outside what the scenario reads,
	// moved all at once (their effect is the effect named Rest).
	Together []string `json:"together"`
	// Fixed are assumed scenario constants no run can vary.
	Fixed []string `json:"fixed"`
	// Notes say which runs did not run, and why.
	Notes []string `json:"notes"`
}

// BandedFigure is one figure and its band.
type BandedFigure struct {
	Metric string  `json:"metric"`
	Side   string  `json:"side"`
	Figure string  `json:"figure,omitempty"` // the published figure's id, at the setting it was measured at
	Value  float64 `json:"value"`
	Band   Band    `json:"band"`
}

// BandEffect is one parameter's ends: each figure (in Figures' order) at
// the parameter's low and high end; null where the end did not run.
type BandEffect struct {
	Path  string     `json:"path"`
	Range string     `json:"range"`
	Low   []*float64 `json:"low"`
	High  []*float64 `json:"high"`
	// None says neither end moved any figure.
	None bool `json:"none,omitempty"`
}
