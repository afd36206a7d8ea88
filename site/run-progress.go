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
	side := SideText(r)
	then := "The stage shows the previous results until this run ends."
	if r.First {
		then = "The stage fills in when this run ends."
	}
	return fmt.Sprintf("Computing %s: %.0f %% after %.1f s. %s", side, 100*r.Done, r.Elapsed.Seconds(), then)
}

// SideText names the side a run is simulating: "A (1 of 2)" or "B (2 of
// 2)" when it simulates both, "B" alone when A's setting did not change
// (and so the other way round).
func SideText(r control.RunState) string {
	name := "AB"[r.Side : r.Side+1]
	if r.Sides[0] && r.Sides[1] {
		return name + " (" + string(rune('1'+r.Side)) + " of 2)"
	}
	return name
}
