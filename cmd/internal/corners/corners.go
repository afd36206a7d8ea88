// Package corners is the record cmd/corners writes of each scenario's
// worst setting and cmd/benchreport reads, to report it and time the same
// setting in the page.
package corners

import (
	"encoding/json"
	"fmt"
	"os"
)

// Worst is a scenario's worst setting; times in seconds, each of A then B
// run once.
type Worst struct {
	Scenario string  `json:"scenario"`
	Query    string  `json:"query"`
	CPU      float64 `json:"cpu_s"`
	Wall     float64 `json:"wall_s"`
	// DefaultCPU and DefaultWall are the scenario's default setting, the
	// median of three by CPU time, measured in the same run.
	DefaultCPU   float64 `json:"default_cpu_s"`
	DefaultWall  float64 `json:"default_wall_s"`
	HeapMiB      float64 `json:"live_heap_mib"`
	Ran          int     `json:"ran"`
	Refused      int     `json:"refused"`
	Offered      int     `json:"offered"`
	SweepSeconds float64 `json:"sweep_s"`
	Over         bool    `json:"over"`
}

// Write writes ws to file as JSON.
func Write(file string, ws []Worst) error {
	b, err := json.MarshalIndent(ws, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(file, append(b, '\n'), 0o644)
}

// Read reads what Write wrote.
func Read(file string) ([]Worst, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var ws []Worst
	if err := json.Unmarshal(b, &ws); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return ws, nil
}
