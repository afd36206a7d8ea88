//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTime is the process's CPU time so far (user and system, every
// thread: the model's goroutine and the collector's workers), or -1.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return -1
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
