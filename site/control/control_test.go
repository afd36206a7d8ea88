package control

import (
	"testing"
	"time"

	"github.com/dmaviz/dmaviz/model/demo"
	"github.com/dmaviz/dmaviz/model/scenario"
)

func demoResults(t *testing.T) (*scenario.Result, *scenario.Result) {
	t.Helper()
	s := demo.New()
	p, err := s.Spec().Defaults()
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.Run(p, demo.PolicyNoncacheable)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Run(p, demo.PolicyCacheableSync)
	if err != nil {
		t.Fatal(err)
	}
	return a, b
}

func TestCommandsReachThePlayerInOrder(t *testing.T) {
	c := New()
	c.SetResults(demoResults(t))
	snap := c.Snapshot()
	if snap.Length <= 0 || snap.Cursor != 0 || snap.Results != 1 {
		t.Fatalf("after SetResults: %+v", snap)
	}
	c.Send(Command{Kind: CmdEnd})
	c.Send(Command{Kind: CmdStepEvent, Int: -1})
	if changed := c.Advance(0, true); !changed {
		t.Fatal("Advance with commands reported no change")
	}
	snap = c.Snapshot()
	if snap.Cursor <= 0 || snap.Cursor >= snap.Length {
		t.Fatalf("end then one step back: cursor %v of %v", snap.Cursor, snap.Length)
	}
	if !snap.Stage {
		t.Error("snapshot does not record that a stage is drawing")
	}
	c.Send(Command{Kind: CmdStart})
	c.Send(Command{Kind: CmdToggle})
	c.Advance(0, true)
	if s := c.Snapshot(); !s.Playing || s.Cursor != 0 {
		t.Fatalf("start + play: %+v", s)
	}
	c.Advance(time.Second, true)
	if s := c.Snapshot(); s.Cursor <= 0 {
		t.Fatalf("a second of play did not move the cursor: %+v", s)
	}
	if c.Advance(0, true) {
		t.Error("Advance with nothing to do reported a change")
	}
}

func TestPanelIsNotifiedAtMostEveryHundredMillisecondsWhilePlaying(t *testing.T) {
	c := New()
	c.SetResults(demoResults(t))
	var notes [ChangeFull + 1]int
	c.OnChange(func(ch Change) { notes[ch]++ })
	c.Send(Command{Kind: CmdSpeed, Int: -8}) // slow, so a second of frames stays inside the run
	c.Send(Command{Kind: CmdToggle})
	c.Advance(0, true)
	if notes[ChangeFull] != 1 {
		t.Fatalf("play: %v notifications, want one full", notes)
	}
	notes = [ChangeFull + 1]int{}
	for i := 0; i < 60; i++ { // one second at 60 fps
		c.Advance(time.Second/60, true)
	}
	if notes[ChangeCursor] < 8 || notes[ChangeCursor] > 11 || notes[ChangeFull] != 0 {
		t.Fatalf("%v notifications for a second of playback, want about 10 cursor-only", notes)
	}
	notes = [ChangeFull + 1]int{}
	c.Send(Command{Kind: CmdPause})
	c.Advance(time.Second/60, true)
	if notes[ChangeFull] != 1 {
		t.Fatalf("pause: %v notifications, want one full", notes)
	}
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
	if notes != 1 || c.Snapshot().Hover != "0x80000040 line 1" {
		t.Fatalf("hover: %d notes, %q", notes, c.Snapshot().Hover)
	}
	c.SetPanelWidth(301)
	if c.PanelWidth() != 301 {
		t.Fatalf("PanelWidth = %d", c.PanelWidth())
	}
}

func TestKeyCommands(t *testing.T) {
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
		if !ok || got != c.want {
			t.Errorf("KeyCommand(%q, %v) = %+v, %v; want %+v", c.key, c.shift, got, ok, c.want)
		}
	}
	if _, ok := KeyCommand("a", false); ok {
		t.Error("KeyCommand(a) mapped to a command")
	}
}

func TestZoomCommandReachesTheSnapshot(t *testing.T) {
	c := New()
	notes := 0
	c.OnChange(func(Change) { notes++ })
	c.Send(Command{Kind: CmdZoom, Int: 128, Int2: 64})
	if !c.Advance(0, true) {
		t.Fatal("zoom did not count as a change")
	}
	if z := c.Snapshot().Zoom; z.First != 128 || z.Count != 64 || notes != 1 {
		t.Fatalf("zoom %+v after %d notes", z, notes)
	}
	c.Send(Command{Kind: CmdZoom})
	c.Advance(0, true)
	if z := c.Snapshot().Zoom; z.Count != 0 {
		t.Fatalf("reset zoom = %+v", z)
	}
}
