//go:build js

package auxmap

import "syscall/js"

// cpuTime is the process's CPU time so far (user and system) in ns under
// Node.js (process.cpuUsage, in µs), or -1 elsewhere.
func cpuTime() int64 {
	p := js.Global().Get("process")
	if p.Type() != js.TypeObject || p.Get("cpuUsage").Type() != js.TypeFunction {
		return -1
	}
	u := p.Call("cpuUsage")
	return int64(u.Get("user").Float()+u.Get("system").Float()) * 1000
}
