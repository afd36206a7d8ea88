package control

// The stage draws only when asked (wasm/stage.go runs Ebiten in its
// on-demand mode): every present of the canvas costs a readback of the
// whole window in a browser that composites in software, so frames that
// change nothing are not drawn. Anything that changes what the stage shows
// wakes it here; while the player plays, the stage asks for its own next
// frame.

// SetWake sets the function that asks the stage for a frame (nil: none).
// It is called outside the lock and must not block.
func (c *Controller) SetWake(fn func()) {
	c.mu.Lock()
	c.wake = fn
	c.mu.Unlock()
}

// wakeStage asks the stage for a frame. Called outside the lock.
func (c *Controller) wakeStage() {
	c.mu.Lock()
	fn := c.wake
	c.mu.Unlock()
	if fn != nil {
		fn()
	}
}
