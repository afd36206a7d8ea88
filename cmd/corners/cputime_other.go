//go:build !unix

package main

import "time"

// cpuTime is unavailable here: settings are judged by wall time.
func cpuTime() time.Duration { return -1 }
