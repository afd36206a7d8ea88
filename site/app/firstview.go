package app

import (
	"encoding/json"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// FirstViewData is what the panel shows of the latest runs: the metrics
// table with its published figures, both sides' narration, checks and
// hazards. The site builder writes it beside each pre-rendered first view
// and the page reports the live runs' the same way, so a test can hold the
// two byte for byte (the model is deterministic).
type FirstViewData struct {
	Scenario  string
	Rows      []scenario.Row
	Narration [2][]scenario.Step
	Checks    [2][]scenario.Metric
	Hazards   [2][]scenario.Hazard
}

// ResultsData encodes FirstViewData as JSON;
// ok is false until both sides have results.
func (a *App) ResultsData() (data []byte, ok bool) {
	if a.A == nil || a.B == nil {
		return nil, false
	}
	d := FirstViewData{
		Scenario:  a.State.Scenario,
		Rows:      a.Rows(),
		Narration: [2][]scenario.Step{a.A.Narration, a.B.Narration},
		Checks:    [2][]scenario.Metric{a.A.Checks, a.B.Checks},
		Hazards:   [2][]scenario.Hazard{a.A.Hazards, a.B.Hazards},
	}
	b, err := json.Marshal(&d)
	return b, err == nil
}
