package control

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/play"
	"github.com/dmaviz/dmaviz/render"
)

// Results come from the runner between two frames: the next Advance must
// report a change even though no command arrived and the cursor did not move.
func TestNewResultsBetweenAdvancesAreAChangeToDraw(t *testing.T) {
	c := New()
	a, b := demoResults(t)
	c.SetResults(a, b)
	require.True(t, c.Advance(0, true), "first results")
	require.False(t, c.Advance(0, true), "nothing changed")

	c.SetResults(b, a) // a swap: same lengths, cursor stays at 0
	assert.True(t, c.Advance(0, true), "a new pair of results did not ask for a redraw")
	assert.False(t, c.Advance(0, true), "the same results asked for a second redraw")
}

func TestRunErrorClearsTheStageAndIsShown(t *testing.T) {
	c := New()
	c.SetResults(demoResults(t))
	c.Advance(0, true)
	c.SetRunError("buffer: 2000000B is not a whole number of 4KiB pages")
	assert.True(t, c.Advance(0, true), "a failed run did not ask for a redraw")
	assert.Equal(t, "buffer: 2000000B is not a whole number of 4KiB pages", c.RunError())
	c.WithPlayer(func(p *play.Player, _ render.Zoom) {
		assert.Nil(t, p.Result(0), "the stage still holds the earlier run A")
		assert.Nil(t, p.Result(1), "the stage still holds the earlier run B")
	})
	c.SetResults(demoResults(t))
	assert.Empty(t, c.RunError(), "a good run did not clear the error")
}

// The stage draws only when woken: everything that changes its picture
// must wake it, and what changes nothing must not.
func TestChangesToThePictureWakeTheStage(t *testing.T) {
	c := New()
	wakes := 0
	c.SetWake(func() { wakes++ })
	a, b := demoResults(t)
	c.SetResults(a, b)
	assert.Equal(t, 1, wakes, "new results")
	c.Send(Command{Kind: CmdToggle})
	assert.Equal(t, 2, wakes, "a command")
	c.SetRunError("failed")
	assert.Equal(t, 3, wakes, "a run error")
	c.SetInsets(Insets{Top: 40})
	assert.Equal(t, 4, wakes, "new insets")
	c.SetInsets(Insets{Top: 40})
	assert.Equal(t, 4, wakes, "the same insets woke the stage")
	c.SetPanelWidth(300)
	assert.Equal(t, 5, wakes, "a new panel width")
	c.SetPanelWidth(300)
	assert.Equal(t, 5, wakes, "the same panel width woke the stage")
	c.Advance(0, true)
	c.SetHover("x")
	assert.Equal(t, 5, wakes, "the stage's own calls woke it")
	hide := func(string) string { return "?" }
	c.SetMask(true, hide)
	assert.Equal(t, 6, wakes, "the answer kept back")
	c.SetMask(true, hide)
	assert.Equal(t, 6, wakes, "the same mask woke the stage")
	on, h := c.Mask()
	assert.True(t, on)
	assert.Equal(t, "?", h("2.9"))
	c.SetMask(false, hide)
	assert.Equal(t, 7, wakes, "the answer revealed")
	on, h = c.Mask()
	assert.False(t, on)
	assert.Nil(t, h, "no hiding once revealed")
	c.SetCard(true)
	assert.Equal(t, 8, wakes, "the lesson card opened")
	c.SetCard(true)
	assert.Equal(t, 8, wakes, "the same card woke the stage")
	assert.True(t, c.Card())
	c.SetCard(false)
	assert.Equal(t, 9, wakes, "the lesson card folded")
	assert.False(t, c.Card())
}
