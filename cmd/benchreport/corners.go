//go:build !js

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/dmaviz/dmaviz/cmd/internal/corners"
)

// budgetWorstNative bounds a scenario's worst setting natively (cmd/corners
// -bound, A and B, CPU time).
const budgetWorstNative = 2 * time.Second

// runCorners runs cmd/corners (its progress on stderr) and writes each
// scenario's worst setting natively; over is true when one is past the
// bound.
func runCorners(d *doc, goBin, tmp string) (ws []corners.Worst, over bool, err error) {
	file := filepath.Join(tmp, "corners.json")
	cmd := exec.Command(goBin, "run", "./cmd/corners", "-bound", budgetWorstNative.String(), "-json", file)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			return nil, false, fmt.Errorf("cmd/corners: %w", err)
		}
		over = true // exit 1: a worst setting past the bound; the file is written
	}
	if ws, err = corners.Read(file); err != nil {
		return nil, false, err
	}
	d.h2("Worst settings, natively")
	d.para("How: `cmd/corners` runs every min/max combination of each scenario's size-like parameters (the others at "+
		"their defaults), retries refused corners at the value the refusal offers, adds known heavy settings, then tries "+
		"every choice from the slowest corners; each setting runs A then B (the default pair) once, one setting at a "+
		"time. A setting is judged by the CPU time the process spends on it (user and system, the collector included), "+
		"which other programs on a busy machine do not inflate; its wall time is beside it. The baseline is the "+
		"scenario's default setting in the same run (median of three by CPU time). Budget: %.0f s of CPU time.", budgetWorstNative.Seconds())
	var rows [][]string
	worst := corners.Worst{}
	for _, w := range ws {
		if w.CPU > worst.CPU {
			worst = w
		}
		q := "`" + w.Query + "`"
		if w.Query == "" {
			q = "the default"
		}
		rows = append(rows, []string{"`" + w.Scenario + "`", q, fmt.Sprintf("%.2f s", w.CPU), fmt.Sprintf("%.2f s", w.Wall),
			fmt.Sprintf("%.3f s", w.DefaultCPU), ratio(w.CPU, w.DefaultCPU), fmt.Sprintf("%.0f MiB", w.HeapMiB),
			fmt.Sprintf("%d / %d", w.Ran, w.Refused), verdict(!w.Over)})
	}
	d.budget(fmt.Sprintf("worst setting natively at most %.0f s of CPU time", budgetWorstNative.Seconds()), fmt.Sprintf("%.2f s (`%s`)", worst.CPU, worst.Scenario), !over)
	d.table([]string{"scenario", "worst setting", "CPU", "wall", "default CPU", "x default", "live heap", "run / refused", "verdict"}, rows)
	return ws, over, nil
}
