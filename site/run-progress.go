package site

import (
	"fmt"

	"github.com/vugu/vugu"

	"github.com/dmaviz/dmaviz/site/control"
)

// RunProgress shows a run in progress (site/control's runner): a bar, what
// is being simulated, and a Cancel. While it runs the stage goes on playing
// the previous results; a newer change supersedes it.
type RunProgress struct {
	Run     control.RunState
	Cancel  func()
	AttrMap vugu.AttrMap
}

func (c *RunProgress) cancel() {
	if c.Cancel != nil {
		c.Cancel()
	}
}

// RunProgressValue is the progress bar's value (0..1) as text.
func RunProgressValue(r control.RunState) string { return fmt.Sprintf("%.3f", r.Done) }

// RunProgressText says what the run is doing.
func RunProgressText(r control.RunState) string {
	side := "A (1 of 2)"
	if r.Side == 1 {
		side = "B (2 of 2)"
	}
	return fmt.Sprintf("computing %s · %.0f %% · %.1f s — the stage shows the previous results until this run ends", side, 100*r.Done, r.Elapsed.Seconds())
}
