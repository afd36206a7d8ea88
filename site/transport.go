package site

import (
	"fmt"
	"strconv"
	"time"

	"github.com/vugu/vugu"

	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/site/control"
)

// Transport is the playback bar: jump, step by event or narration step,
// play/pause, scrub, speed and alignment. It only sends commands; what it
// shows comes from the controller's snapshot.
type Transport struct {
	Snap    control.Snapshot
	Send    func(control.Command)
	AttrMap vugu.AttrMap
}

func (c *Transport) send(k control.CommandKind, n int64) {
	if c.Send != nil {
		c.Send(control.Command{Kind: k, Int: n})
	}
}

func (c *Transport) start()    { c.send(control.CmdStart, 0) }
func (c *Transport) end()      { c.send(control.CmdEnd, 0) }
func (c *Transport) prev()     { c.send(control.CmdStepEvent, -1) }
func (c *Transport) next()     { c.send(control.CmdStepEvent, 1) }
func (c *Transport) prevStep() { c.send(control.CmdStepNarration, -1) }
func (c *Transport) nextStep() { c.send(control.CmdStepNarration, 1) }
func (c *Transport) toggle()   { c.send(control.CmdToggle, 0) }
func (c *Transport) slower()   { c.send(control.CmdSlower, 0) }
func (c *Transport) faster()   { c.send(control.CmdFaster, 0) }

func (c *Transport) alignIs(a string) bool { return c.Snap.Align.String() == a }

func (c *Transport) playLabel() string {
	if c.Snap.Playing {
		return "Pause"
	}
	return "Play"
}

func (c *Transport) playTitle() string {
	switch {
	case c.Snap.Holding:
		return "Pause (Space); holding at a narration step"
	case c.Snap.Playing:
		return "Pause (Space)"
	}
	return "Play (Space)"
}

// holding is the transport's data-holding attribute: "true" while playback
// holds at a narration step so that the step can be read.
func (c *Transport) holding() string { return strconv.FormatBool(c.Snap.Holding) }

func (c *Transport) scrubValue() string { return ScrubValue(c.Snap) }

// ScrubValue is the scrub bar's position (0..1000) for a snapshot.
func ScrubValue(s control.Snapshot) string {
	if s.Length <= 0 {
		return "0"
	}
	return strconv.FormatInt(int64(s.Cursor)*1000/int64(s.Length), 10)
}

func (c *Transport) scrub(v string) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || c.Snap.Length <= 0 {
		return
	}
	n = min(max(n, 0), 1000)
	c.send(control.CmdSeek, int64(c.Snap.Length)/1000*n+int64(c.Snap.Length)%1000*n/1000)
}

func (c *Transport) align(v string) {
	if c.Send != nil {
		c.Send(control.Command{Kind: control.CmdAlign, Text: v})
	}
}

func (c *Transport) timesText() string { return CursorText(c.Snap) }

// CursorText says where the cursor is on each side.
func CursorText(s control.Snapshot) string {
	return fmt.Sprintf("A %s · B %s · of %s", s.SideTime[0], s.SideTime[1], sim.Time(s.Length))
}

func (c *Transport) speedText() string { return SpeedText(c.Snap) }

// SpeedText names the speed and how long the whole run plays at it, the
// holds at narration steps included: "speed ×1 (31s a run)".
func SpeedText(s control.Snapshot) string {
	speed := "×1"
	switch {
	case s.Speed > 0:
		speed = "×" + strconv.Itoa(1<<s.Speed)
	case s.Speed < 0:
		speed = "÷" + strconv.Itoa(1<<-s.Speed)
	}
	run := s.RunTime.Round(time.Second)
	if s.RunTime < 10*time.Second {
		run = s.RunTime.Round(100 * time.Millisecond)
	}
	return "speed " + speed + " (" + run.String() + " a run)"
}
