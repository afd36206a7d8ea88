package site

import (
	"fmt"

	"github.com/vugu/vugu"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// Narration shows each side's current classroom caption, in step with the
// cursor.
type Narration struct {
	Results [2]*scenario.Result
	Step    [2]int // current step per side, -1 before the first
	AttrMap vugu.AttrMap
}

func (c *Narration) sideName(side int) string { return [2]string{"A", "B"}[side] }

func (c *Narration) step(side int) (scenario.Step, bool) {
	r := c.Results[side]
	i := c.Step[side]
	if r == nil || i < 0 || i >= len(r.Narration) {
		return scenario.Step{}, false
	}
	return r.Narration[i], true
}

func (c *Narration) title(side int) string {
	if s, ok := c.step(side); ok {
		return s.Title
	}
	if c.Results[side] == nil {
		return "running…"
	}
	return "press play or step forward"
}

func (c *Narration) text(side int) string {
	s, _ := c.step(side)
	return s.Text
}

func (c *Narration) count(side int) string {
	r := c.Results[side]
	if r == nil || len(r.Narration) == 0 {
		return ""
	}
	return fmt.Sprintf("step %d of %d", c.Step[side]+1, len(r.Narration))
}
