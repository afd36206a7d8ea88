//go:build js && wasm

package main

import (
	"math"
	"runtime/debug"
	"time"
)

// Start-up keeps most of what it allocates (the panel, the stage's
// images, the first run's two timelines, about 45 MiB for the default
// ETR pair), so collecting then mostly marks live memory: in WebAssembly
// the collector runs on the page's thread, where it took about 100 ms of
// the first run. So the collector is off until the first results show,
// for at most startGCPause (a heavy setting opened by URL then collects as
// usual), and the heap meanwhile stays under startHeapLimit (past it the
// runtime collects anyway; the heaviest allowed setting keeps about 180
// MiB live).
const (
	startGCPause   = 3 * time.Second
	startHeapLimit = 256 << 20
)

var gcPaused bool

// pauseGC turns the collector off until resumeGC, within startHeapLimit.
func pauseGC() {
	gcPaused = true
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(startHeapLimit)
	time.AfterFunc(startGCPause, resumeGC)
}

// resumeGC restores the default collector (GOGC 100, no memory limit)
// once; later calls do nothing.
func resumeGC() {
	if !gcPaused {
		return
	}
	gcPaused = false
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
}
