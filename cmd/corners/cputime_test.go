//go:build unix

package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cpuTime counts work and not waiting: settings are judged by it so that
// time spent runnable behind other programs does not count.
func TestCPUTimeCountsWorkNotWaiting(t *testing.T) {
	c0 := cpuTime()
	require.GreaterOrEqual(t, c0, time.Duration(0), "no CPU time on a unix system")
	x, deadline := uint64(1), time.Now().Add(10*time.Second)
	for cpuTime()-c0 < 30*time.Millisecond && time.Now().Before(deadline) {
		for i := 0; i < 1e5; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	require.GreaterOrEqual(t, cpuTime()-c0, 30*time.Millisecond, "10 s of spinning (x=%d) did not add 30 ms of CPU time", x)
	c1 := cpuTime()
	time.Sleep(300 * time.Millisecond)
	assert.Less(t, cpuTime()-c1, 100*time.Millisecond, "sleeping 300 ms counted as CPU time")
}
