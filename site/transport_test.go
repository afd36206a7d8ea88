package site

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/dmaviz/dmaviz/site/control"
)

// The speed says how long the whole run plays, holds at narration steps
// included.
func TestSpeedTextSaysHowLongARunPlays(t *testing.T) {
	assert.Equal(t, "speed ×1 (31s a run)", SpeedText(control.Snapshot{RunTime: 30700 * time.Millisecond}))
	assert.Equal(t, "speed ×4 (7.7s a run)", SpeedText(control.Snapshot{Speed: 2, RunTime: 7675 * time.Millisecond}))
	assert.Equal(t, "speed ÷2 (1m10s a run)", SpeedText(control.Snapshot{Speed: -1, RunTime: 70 * time.Second}))
}
