// Package control is the small controller shared by the Vugu panel and the
// Ebiten stage. The panel enqueues commands; the stage drains them in its
// Update and publishes what it shows back (cursor, frames drawn, size).
//
// The panel and the stage run in different goroutines of one WebAssembly
// program, so every method takes the controller's lock for the length of a
// copy and nothing else.
package control

import "sync"

// Command is one request from the panel to the stage.
type Command struct {
	Kind CommandKind
	// Int and Text carry the command's argument, depending on Kind.
	Int  int64
	Text string
}

// CommandKind names a command.
type CommandKind uint8

const (
	CmdNone CommandKind = iota
	CmdSetGridCells
	CmdSetGridColour
)

// Published is what the stage reports back to the panel.
type Published struct {
	Frames      int64 // frames the stage has drawn (not skipped)
	Updates     int64 // Update calls
	Cells       int64 // cells the stage currently draws
	Colour      string
	StageWidth  int
	StageHeight int
}

// Controller passes commands one way and published state the other.
// The zero value is ready to use.
type Controller struct {
	mu         sync.Mutex
	queue      []Command
	pub        Published
	panelWidth int
	onPublish  func()
}

// Send enqueues a command for the stage.
func (c *Controller) Send(cmd Command) {
	c.mu.Lock()
	c.queue = append(c.queue, cmd)
	c.mu.Unlock()
}

// Drain moves every queued command into dst (reused) and returns it.
func (c *Controller) Drain(dst []Command) []Command {
	c.mu.Lock()
	dst = append(dst[:0], c.queue...)
	c.queue = c.queue[:0]
	c.mu.Unlock()
	return dst
}

// Publish records the stage's state and notifies the panel if it changed.
func (c *Controller) Publish(p Published) {
	c.mu.Lock()
	// Frame and update counts change every frame; they alone do not
	// warrant re-rendering the panel.
	old := c.pub
	old.Frames, old.Updates = p.Frames, p.Updates
	changed := p != old
	c.pub = p
	fn := c.onPublish
	c.mu.Unlock()
	if changed && fn != nil {
		fn()
	}
}

// Published returns the last state the stage published.
func (c *Controller) Published() Published {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pub
}

// OnPublish sets the function called (outside the lock) after a publish
// that changed something. The panel uses it to request a re-render.
func (c *Controller) OnPublish(fn func()) {
	c.mu.Lock()
	c.onPublish = fn
	c.mu.Unlock()
}

// SetPanelWidth records the panel's width in CSS pixels (rounded up); the
// stage draws only to its right.
func (c *Controller) SetPanelWidth(w int) {
	c.mu.Lock()
	c.panelWidth = w
	c.mu.Unlock()
}

// PanelWidth returns the last width set by SetPanelWidth.
func (c *Controller) PanelWidth() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.panelWidth
}
