package control

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/demo"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/play"
	"github.com/dmaviz/dmaviz/render"
)

func demoResults(t *testing.T) (*scenario.Result, *scenario.Result) {
	t.Helper()
	s := demo.New()
	p, err := s.Spec().Defaults()
	require.NoError(t, err)
	a, err := s.Run(t.Context(), p, demo.PolicyNoncacheable, nil)
	require.NoError(t, err)
	b, err := s.Run(t.Context(), p, demo.PolicyCacheableSync, nil)
	require.NoError(t, err)
	return a, b
}

func TestCommandsReachThePlayerInOrder(t *testing.T) {
	c := New()
	c.SetResults(demoResults(t))
	snap := c.Snapshot()
	require.Positive(t, snap.Length, "after SetResults: length in %+v", snap)
	require.Equal(t, sim.Time(0), snap.Cursor, "after SetResults: cursor in %+v", snap)
	require.Equal(t, uint64(1), snap.Results, "after SetResults: results in %+v", snap)
	c.Send(Command{Kind: CmdEnd})
	c.Send(Command{Kind: CmdStepEvent, Int: -1})
	require.True(t, c.Advance(0, true), "Advance with commands reported no change")
	snap = c.Snapshot()
	require.Positive(t, snap.Cursor, "end then one step back: cursor")
	require.Less(t, snap.Cursor, snap.Length, "end then one step back: cursor vs length")
	assert.True(t, snap.Stage, "snapshot does not record that a stage is drawing")
	c.Send(Command{Kind: CmdStart})
	c.Send(Command{Kind: CmdToggle})
	c.Advance(0, true)
	s := c.Snapshot()
	require.True(t, s.Playing, "start + play: not playing: %+v", s)
	require.Equal(t, sim.Time(0), s.Cursor, "start + play: cursor in %+v", s)
	c.Advance(play.DwellMax+time.Second, true) // past the hold at the first narration step
	s = c.Snapshot()
	require.Positive(t, s.Cursor, "play did not move the cursor: %+v", s)
	assert.False(t, c.Advance(0, true), "Advance with nothing to do reported a change")
}

func TestPanelIsNotifiedAtMostEveryHundredMillisecondsWhilePlaying(t *testing.T) {
	c := New()
	c.SetResults(demoResults(t))
	var notes [ChangeFull + 1]int
	c.OnChange(func(ch Change) { notes[ch]++ })
	c.Send(Command{Kind: CmdSpeed, Int: -8}) // slow, so a second of frames stays inside the run
	c.Send(Command{Kind: CmdToggle})
	c.Advance(0, true)
	require.Equal(t, 1, notes[ChangeFull], "play: full notifications in %v, want one", notes)
	notes = [ChangeFull + 1]int{}
	for i := 0; i < 60; i++ { // one second at 60 fps
		c.Advance(time.Second/60, true)
	}
	require.GreaterOrEqual(t, notes[ChangeCursor], 8, "cursor notifications for a second of playback (want about 10): %v", notes)
	require.LessOrEqual(t, notes[ChangeCursor], 11, "cursor notifications for a second of playback (want about 10): %v", notes)
	require.Zero(t, notes[ChangeFull], "full notifications for a second of playback (want cursor-only): %v", notes)
	notes = [ChangeFull + 1]int{}
	c.Send(Command{Kind: CmdPause})
	c.Advance(time.Second/60, true)
	require.Equal(t, 1, notes[ChangeFull], "pause: full notifications in %v, want one", notes)
}

func TestHoverAndPanelWidth(t *testing.T) {
	c := New()
	notes := 0
	c.OnChange(func(ch Change) {
		if ch == ChangeHover {
			notes++
		}
	})
	c.SetHover("0x80000040 line 1")
	c.SetHover("0x80000040 line 1")
	require.Equal(t, 1, notes, "hover notifications for the same text twice")
	require.Equal(t, "0x80000040 line 1", c.Snapshot().Hover, "hover text")
	c.SetPanelWidth(301)
	require.Equal(t, 301, c.PanelWidth(), "PanelWidth")
}

func TestKeyCommands(t *testing.T) {
	type mapped struct {
		Command Command
		OK      bool
	}
	for _, c := range []struct {
		key   string
		shift bool
		want  Command
	}{
		{" ", false, Command{Kind: CmdToggle}},
		{"ArrowLeft", false, Command{Kind: CmdStepNarration, Int: -1}},
		{"ArrowRight", false, Command{Kind: CmdStepNarration, Int: 1}},
		{"ArrowRight", true, Command{Kind: CmdStepEvent, Int: 1}},
		{"ArrowLeft", true, Command{Kind: CmdStepEvent, Int: -1}},
		{"+", false, Command{Kind: CmdFaster}},
		{"-", false, Command{Kind: CmdSlower}},
		{"Home", false, Command{Kind: CmdStart}},
		{"End", false, Command{Kind: CmdEnd}},
	} {
		got, ok := KeyCommand(c.key, c.shift)
		assert.Equal(t, mapped{c.want, true}, mapped{got, ok}, "KeyCommand(%q, %v)", c.key, c.shift)
	}
	_, ok := KeyCommand("a", false)
	assert.False(t, ok, "KeyCommand(a) mapped to a command")
}

func TestZoomCommandReachesTheSnapshot(t *testing.T) {
	c := New()
	notes := 0
	c.OnChange(func(Change) { notes++ })
	c.Send(Command{Kind: CmdZoom, Int: 128, Int2: 64})
	require.True(t, c.Advance(0, true), "zoom did not count as a change")
	require.Equal(t, render.Zoom{First: 128, Count: 64}, c.Snapshot().Zoom, "zoom")
	require.Equal(t, 1, notes, "notifications for a zoom")
	c.Send(Command{Kind: CmdZoom})
	c.Advance(0, true)
	require.Zero(t, c.Snapshot().Zoom.Count, "reset zoom = %+v", c.Snapshot().Zoom)
}
