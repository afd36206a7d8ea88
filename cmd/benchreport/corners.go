//go:build !js

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// budgetWorstNative bounds a scenario's worst setting natively (cmd/corners
// -bound, A and B, CPU time).
const budgetWorstNative = "2s"

// worstSetting is one scenario's worst setting as cmd/corners -json writes
// it (times in seconds).
type worstSetting struct {
	Scenario    string  `json:"scenario"`
	Query       string  `json:"query"`
	CPU         float64 `json:"cpu_s"`
	Wall        float64 `json:"wall_s"`
	DefaultCPU  float64 `json:"default_cpu_s"`
	DefaultWall float64 `json:"default_wall_s"`
	HeapMiB     float64 `json:"live_heap_mib"`
	Ran         int     `json:"ran"`
	Refused     int     `json:"refused"`
	Over        bool    `json:"over"`
}

// corners runs cmd/corners (its progress on stderr) and writes each
// scenario's worst setting natively; over is true when one is past the
// bound.
func corners(d *doc, goBin, tmp string) (ws []worstSetting, over bool, err error) {
	file := filepath.Join(tmp, "corners.json")
	cmd := exec.Command(goBin, "run", "./cmd/corners", "-bound", budgetWorstNative, "-json", file)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			return nil, false, fmt.Errorf("cmd/corners: %w", err)
		}
		over = true // exit 1: a worst setting past the bound; the file is written
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, false, err
	}
	if err := json.Unmarshal(b, &ws); err != nil {
		return nil, false, fmt.Errorf("cmd/corners -json: %w", err)
	}
	d.h2("Worst settings, natively")
	d.para("How: `cmd/corners` runs every min/max combination of each scenario's size-like parameters (the others at "+
		"their defaults), retries refused corners at the value the refusal offers, adds known heavy settings, then tries "+
		"every choice from the slowest corners; each setting runs A then B (the default pair) once, one setting at a "+
		"time. A setting is judged by the CPU time the process spends on it (user and system, the collector included), "+
		"which other programs on a busy machine do not inflate; its wall time is beside it. The baseline is the "+
		"scenario's default setting in the same run (median of three by CPU time). Budget: %s of CPU time.", budgetWorstNative)
	var rows [][]string
	worst := worstSetting{}
	for _, w := range ws {
		if w.CPU > worst.CPU {
			worst = w
		}
		rows = append(rows, []string{"`" + w.Scenario + "`", "`" + w.Query + "`", fmt.Sprintf("%.2f s", w.CPU), fmt.Sprintf("%.2f s", w.Wall),
			fmt.Sprintf("%.3f s", w.DefaultCPU), ratio(w.CPU, w.DefaultCPU), fmt.Sprintf("%.0f MiB", w.HeapMiB),
			fmt.Sprintf("%d / %d", w.Ran, w.Refused), verdict(!w.Over)})
	}
	d.budget("worst setting natively at most "+budgetWorstNative+" of CPU time", fmt.Sprintf("%.2f s (`%s`)", worst.CPU, worst.Scenario), !over)
	d.table([]string{"scenario", "worst setting", "CPU", "wall", "default CPU", "x default", "live heap", "run / refused", "verdict"}, rows)
	return ws, over, nil
}
