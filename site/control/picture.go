package control

import "github.com/dmaviz/dmaviz/render"

// picture is everything the stage's frame depends on that the controller
// owns. Results arrive from the runner between two Advance calls, so a
// change is found by comparing with what was last drawn, not by watching
// the player's version move inside one Advance.
type picture struct {
	player  uint64 // play.Player.Version
	results uint64 // bumped by SetResults and SetRunError
	zoom    render.Zoom
}

// redrawDue reports whether the picture changed since the last call, and
// records it as drawn. Called under the lock.
func (c *Controller) redrawDue() bool {
	now := picture{player: c.player.Version(), results: c.results, zoom: c.zoom}
	if now == c.drawn {
		return false
	}
	c.drawn = now
	return true
}

// SetRunError records that the latest run failed: the player drops the
// earlier results (so the stage, like the metrics and hazards, no longer
// shows a run that does not match the panel) and the stage shows msg.
func (c *Controller) SetRunError(msg string) {
	c.mu.Lock()
	c.player.SetResults(nil, nil)
	c.results++
	notify := c.refresh(true)
	c.mu.Unlock()
	c.runs.mu.Lock()
	c.runs.state.Err = msg
	c.runs.mu.Unlock()
	c.note(notify)
	c.wakeStage()
}

// RunError is the message of the failed latest run, "" when it succeeded.
func (c *Controller) RunError() string {
	c.runs.mu.Lock()
	defer c.runs.mu.Unlock()
	return c.runs.state.Err
}

// Insets are the stage's edges an overlay covers, in CSS pixels: the
// presentation bar at the top, the embed bar at the bottom. Narrate asks
// the stage to show each side's narration step (presentation mode, where
// the panel's narration is hidden).
type Insets struct {
	Top, Bottom int
	Narrate     bool
}

// SetInsets records the overlay edges and narration mode.
func (c *Controller) SetInsets(in Insets) {
	c.setPicture(func() bool {
		changed := in != c.insets
		c.insets = in
		return changed
	})
}

// setPicture runs set under the lock; when set reports a change of what
// the stage draws, the stage draws it again.
func (c *Controller) setPicture(set func() bool) {
	c.mu.Lock()
	changed := set()
	if changed {
		c.results++
	}
	c.mu.Unlock()
	if changed {
		c.wakeStage()
	}
}

// Insets returns what SetInsets last recorded.
func (c *Controller) Insets() Insets {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.insets
}

// SetMask records whether the stage keeps the answer back (a lesson's
// question before its reveal) and hide, which takes the answer's figures
// out of a narration step's words while it does (nil: as they are).
func (c *Controller) SetMask(on bool, hide func(string) string) {
	c.setPicture(func() bool {
		changed := on != c.masked
		c.masked, c.hide = on, hide
		return changed
	})
}

// Mask returns what SetMask last recorded (hide is nil when off).
func (c *Controller) Mask() (on bool, hide func(string) string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.masked {
		return false, nil
	}
	return true, c.hide
}

// SetCard records whether a lesson card under the stage shows its stop's
// text in presentation mode, where it takes the place of the stage's
// narration row (render.Frame.Card).
func (c *Controller) SetCard(open bool) {
	c.setPicture(func() bool {
		changed := open != c.card
		c.card = open
		return changed
	})
}

// Card returns what SetCard last recorded.
func (c *Controller) Card() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.card
}
