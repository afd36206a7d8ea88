package site

import (
	"fmt"

	"github.com/vugu/vugu"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// Narration shows each side's current classroom caption, in step with the
// cursor. Every step of a side is laid out in the same grid cell and only
// the current one is visible, so the captions take the room of the
// longest step from the start: the panel below them does not jump while
// the stage plays (and the pre-rendered panel takes the live one's room).
type Narration struct {
	Results [2]*scenario.Result
	Step    [2]int // current step per side, -1 before the first
	// Hide, when set, takes the answer's figures out of a step's words
	// (a lesson's question before its reveal: app.App.Hide).
	Hide    func(string) string
	AttrMap vugu.AttrMap
}

func (c *Narration) sideName(side int) string { return [2]string{"A", "B"}[side] }

// steps is how many narration steps side has (the loop also shows the
// place before the first, step -1).
func (c *Narration) steps(side int) int {
	if r := c.Results[side]; r != nil {
		return len(r.Narration)
	}
	return 0
}

func (c *Narration) current(side, i int) bool {
	cur := c.Step[side]
	if cur < -1 || cur >= c.steps(side) {
		cur = -1
	}
	return i == cur
}

func (c *Narration) stepClass(side, i int) string {
	if c.current(side, i) {
		return "step current"
	}
	return "step"
}

func (c *Narration) hidden(side, i int) string {
	if c.current(side, i) {
		return "false"
	}
	return "true"
}

func (c *Narration) step(side, i int) (scenario.Step, bool) {
	if i < 0 || i >= c.steps(side) {
		return scenario.Step{}, false
	}
	return c.Results[side].Narration[i], true
}

func (c *Narration) title(side, i int) string {
	if s, ok := c.step(side, i); ok {
		return c.hide(s.Title)
	}
	if c.Results[side] == nil {
		return "running…"
	}
	return "press play or step forward"
}

func (c *Narration) text(side, i int) string {
	s, _ := c.step(side, i)
	return c.hide(s.Text)
}

func (c *Narration) hide(text string) string {
	if c.Hide == nil {
		return text
	}
	return c.Hide(text)
}

func (c *Narration) count(side, i int) string {
	n := c.steps(side)
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("step %d of %d", i+1, n)
}
