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
