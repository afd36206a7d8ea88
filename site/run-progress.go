package site

import (
	"fmt"

	"github.com/vugu/vugu"

	"github.com/dmaviz/dmaviz/site/control"
)

// RunProgress shows a run in progress (site/control's runner): a bar, what
// is being simulated, and a Cancel. While it runs the stage goes on playing
// the previous results; a newer change supersedes it.
//
// It floats over the stage's top right corner (style.css), so it is seen
// wherever the panel is scrolled to.
type RunProgress struct {
	Run     control.RunState
	Cancel  func()
	Dismiss func() // hides the note that the last run was canceled
	AttrMap vugu.AttrMap
}

func (c *RunProgress) cancel() {
	if c.Cancel != nil {
		c.Cancel()
	}
}

func (c *RunProgress) dismiss() {
	if c.Dismiss != nil {
		c.Dismiss()
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
	then := "The stage shows the previous results until this run ends."
	if r.First {
		then = "The stage fills in when this run ends."
	}
	return fmt.Sprintf("Computing %s: %.0f %% after %.1f s. %s", side, 100*r.Done, r.Elapsed.Seconds(), then)
}
