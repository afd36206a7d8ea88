//go:build !js

package auxmap

import "syscall"

// cpuTime is the process's CPU time so far (user and system) in ns, or -1.
func cpuTime() int64 {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return -1
	}
	return u.Utime.Nano() + u.Stime.Nano()
}
