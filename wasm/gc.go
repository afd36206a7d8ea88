//go:build js && wasm

package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"time"
)

// Start-up keeps most of what it allocates (the panel, the stage's
// images, the first run's two timelines: about 30 MiB of heap when the
// default ETR pair's results show), so collecting then mostly marks live
// memory, and in WebAssembly the collector runs on the page's thread,
// where it delays the first results. So the collector is off
// until the first results show, or for at most startGCPause, or until the
// heap holds startHeapLimit: a heavy setting opened by URL then collects
// as usual and its peak memory does not grow.
const (
	startGCPause   = 3 * time.Second
	startHeapLimit = 64 << 20
	startGCPoll    = 50 * time.Millisecond
)

var gcPaused bool

// pauseGC turns the collector off until resumeGC.
func pauseGC() {
	gcPaused = true
	debug.SetGCPercent(-1)
	// Past twice the limit the runtime collects even if the watcher below
	// has not run yet.
	debug.SetMemoryLimit(2 * startHeapLimit)
	go func() {
		// runtime.ReadMemStats, not runtime/metrics: the first metrics.Read
		// builds the runtime's metric table, a large function that the
		// browser's optimising compiler then compiles during start-up,
		// competing with the page for the cores.
		var ms runtime.MemStats
		for start := time.Now(); gcPaused; time.Sleep(startGCPoll) {
			runtime.ReadMemStats(&ms)
			if time.Since(start) >= startGCPause || ms.HeapAlloc >= startHeapLimit {
				resumeGC()
			}
		}
	}()
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
