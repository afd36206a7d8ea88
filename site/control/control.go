// Package control is the small controller shared by the Vugu panel and the
// Ebiten stage. The panel enqueues commands (play, step, seek, speed); the
// stage drains them in its Update through Advance, which also ticks the
// player; the runner hands in new results; the panel reads a Snapshot and is
// told when it changed.
//
// The panel, the runner and the stage run in different goroutines of one
// WebAssembly program, so every method takes the controller's lock for the
// length of a copy or a player call, and calls the change hook outside it.
package control

import (
	"sync"
	"time"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/play"
	"github.com/dmaviz/dmaviz/render"
)

// Command is one request from the panel to the player.
type Command struct {
	Kind CommandKind
	Int  int64  // direction, speed step, time in ps, zoom's first cell, per Kind
	Int2 int64  // zoom's cell count
	Text string // alignment, per Kind
}

// CommandKind names a command.
type CommandKind uint8

const (
	CmdNone          CommandKind = iota
	CmdToggle                    // play or pause
	CmdPause                     // pause
	CmdStepEvent                 // Int: +1 forward, -1 back
	CmdStepNarration             // Int: +1 forward, -1 back
	CmdSeek                      // Int: cursor in ps on the common axis
	CmdStart                     // jump to the start
	CmdEnd                       // jump to the end
	CmdSpeed                     // Int: speed step
	CmdFaster                    // one speed step up
	CmdSlower                    // one speed step down
	CmdAlign                     // Text: "time" or "progress"
	CmdZoom                      // Int: first cell, Int2: cell count (0 = whole grids)
	CmdPlay                      // play (from the start if at the end)
)

// Snapshot is what the panel shows of the player.
type Snapshot struct {
	Results  uint64 // bumped by every SetResults
	Cursor   sim.Time
	Length   sim.Time
	Playing  bool
	Holding  bool          // playback holds at a narration step (play.Player.Holding)
	RunTime  time.Duration // how long the whole run plays at Speed, holds included
	Speed    int
	Align    play.Align
	Step     [2]int // current narration step per side, -1 before the first
	SideTime [2]sim.Time
	Zoom     render.Zoom // the buffer grids' window
	Hover    string      // what the pointer is over on the stage
	Stage    bool        // a stage is drawing (false without WebGL2)
}

// cursorNotifyEvery limits panel updates while the cursor merely moves.
const cursorNotifyEvery = 100 * time.Millisecond

// Change says what changed in the snapshot, so the panel can do as little
// as it needs: ChangeFull re-renders it, ChangeCursor and ChangeHover only
// update the few fields that show the cursor or the hovered item.
type Change uint8

const (
	ChangeNone Change = iota
	ChangeCursor
	ChangeHover
	ChangeFull
	ChangeRun // only the run's progress moved (see RunState)
)

// Controller passes commands, results and snapshots between the panel, the
// runner and the stage. Use New.
type Controller struct {
	mu         sync.Mutex
	queue      []Command
	drained    []Command
	player     *play.Player
	results    uint64
	zoom       render.Zoom
	snap       Snapshot
	sinceNote  time.Duration
	panelWidth int
	onChange   func(Change)
	wake       func() // asks the stage for a frame (wake.go)

	// drawn is what the picture showed when Advance last reported.
	drawn  picture
	insets Insets
	masked bool                // SetMask
	hide   func(string) string // SetMask
	card   bool                // SetCard
	runs   runner              // see run.go: the one owner of the runs' state
}

// New returns a controller with an empty player.
func New() *Controller {
	return &Controller{player: play.New(nil, nil), snap: Snapshot{Step: [2]int{-1, -1}}}
}

// Send enqueues a command for the next Advance.
func (c *Controller) Send(cmd Command) {
	c.mu.Lock()
	c.queue = append(c.queue, cmd)
	c.mu.Unlock()
	c.wakeStage()
}

// SetResults hands the player a new pair of runs. The next Advance reports
// a change, so the stage draws them whether or not the cursor moves.
func (c *Controller) SetResults(a, b *scenario.Result) {
	c.mu.Lock()
	c.player.SetResults(a, b)
	c.results++
	notify := c.refresh(true)
	c.mu.Unlock()
	c.runs.mu.Lock()
	c.runs.state.Err = ""
	c.runs.mu.Unlock()
	c.note(notify)
	c.wakeStage()
}

// Advance drains the command queue into the player, then plays dt of wall
// time. The stage calls it from Update; without a stage the page calls it
// from a timer. It reports whether the picture changed.
func (c *Controller) Advance(dt time.Duration, stage bool) bool {
	c.mu.Lock()
	changed := false
	c.drained = append(c.drained[:0], c.queue...)
	c.queue = c.queue[:0]
	for _, cmd := range c.drained {
		if cmd.Kind == CmdZoom {
			z := render.Zoom{First: int(max(cmd.Int, 0)), Count: int(max(cmd.Int2, 0))}
			changed = changed || z != c.zoom
			c.zoom = z
			continue
		}
		apply(c.player, cmd)
	}
	c.player.Tick(dt)
	changed = c.redrawDue() || changed
	c.sinceNote += dt
	c.snap.Stage = stage
	notify := c.refresh(false)
	c.mu.Unlock()
	c.note(notify)
	return changed
}

func apply(p *play.Player, cmd Command) {
	switch cmd.Kind {
	case CmdToggle:
		p.Toggle()
	case CmdPause:
		p.Pause()
	case CmdPlay:
		p.Play()
	case CmdStepEvent:
		p.Pause()
		p.StepEvent(int(cmd.Int))
	case CmdStepNarration:
		p.Pause()
		p.StepNarration(int(cmd.Int))
	case CmdSeek:
		p.Seek(sim.Time(cmd.Int))
	case CmdStart:
		p.Start()
	case CmdEnd:
		p.End()
	case CmdSpeed:
		p.SetSpeed(int(cmd.Int))
	case CmdFaster:
		p.Faster()
	case CmdSlower:
		p.Slower()
	case CmdAlign:
		if a, err := play.ParseAlign(cmd.Text); err == nil {
			p.SetAlign(a)
		}
	}
}

// refresh recomputes the snapshot under the lock and says what the panel
// should hear about: at once for anything but the cursor, at most every
// cursorNotifyEvery for cursor motion alone (and at once when it stops).
func (c *Controller) refresh(force bool) Change {
	p := c.player
	old := c.snap
	s := Snapshot{
		Results: c.results, Cursor: p.Cursor(), Length: p.Length(), Playing: p.Playing(),
		Holding: p.Holding(), RunTime: p.PlayTime(), Speed: p.Speed(), Align: p.Align(), Zoom: c.zoom, Hover: old.Hover, Stage: old.Stage,
	}
	for side := 0; side < 2; side++ {
		_, i, _ := p.Caption(side)
		s.Step[side] = i
		s.SideTime[side] = p.SideTime(side)
	}
	c.snap = s
	cursorOnly := old
	cursorOnly.Cursor, cursorOnly.SideTime = s.Cursor, s.SideTime
	ch := ChangeNone
	switch {
	case force || cursorOnly != s:
		ch = ChangeFull
	case old.Cursor != s.Cursor && (c.sinceNote >= cursorNotifyEvery || !s.Playing):
		ch = ChangeCursor
	default:
		return ChangeNone
	}
	c.sinceNote = 0
	return ch
}

func (c *Controller) note(ch Change) {
	if ch == ChangeNone {
		return
	}
	c.mu.Lock()
	fn := c.onChange
	c.mu.Unlock()
	if fn != nil {
		fn(ch)
	}
}

// Snapshot returns the player's state for the panel.
func (c *Controller) Snapshot() Snapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.snap
}

// WithPlayer runs f with the player and the grids' zoom under the lock (the
// stage reads states and results to build its frame). f must not call the
// controller.
func (c *Controller) WithPlayer(f func(p *play.Player, zoom render.Zoom)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f(c.player, c.zoom)
}

// SetHover records what the pointer is over on the stage ("" for nothing).
func (c *Controller) SetHover(text string) {
	c.mu.Lock()
	ch := ChangeNone
	if c.snap.Hover != text {
		ch = ChangeHover
	}
	c.snap.Hover = text
	c.mu.Unlock()
	c.note(ch)
}

// OnChange sets the function called (outside the lock) when the snapshot
// changed in a way the panel shows, saying what changed.
func (c *Controller) OnChange(fn func(Change)) {
	c.mu.Lock()
	c.onChange = fn
	c.mu.Unlock()
}

// SetPanelWidth records the panel's width in CSS pixels (rounded up); the
// stage draws only to its right.
func (c *Controller) SetPanelWidth(w int) {
	w = max(w, 0)
	c.mu.Lock()
	changed := c.panelWidth != w
	c.panelWidth = w
	c.mu.Unlock()
	if changed {
		c.wakeStage()
	}
}

// PanelWidth returns the last width set by SetPanelWidth.
func (c *Controller) PanelWidth() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.panelWidth
}
