package sgsync

// Pacing (scenario.Pacer): the run counts its work in 64-byte blocks of the
// entries it walks (one call of work per entry and pass), so the page can
// give way every scenario.PaceQuantum blocks and show how far the run is.
// None of it changes what the run computes.

// blockBytes is the pacing unit.
const blockBytes = 64

// work counts one pass over an n-byte entry.
func (r *run) work(n uint64) error { return r.pace.Work(int64(n/blockBytes) + 1) }

// passes is how many times one iteration walks the list (calls work per
// entry): the CPU before the map, the map, the transfer, the unmap and the
// CPU after it, as iteration does them.
func passes(c config, pol policy) int64 {
	n := int64(2) // forDevice, transfer
	if c.cpu == cpuWrites || (c.cpu == cpuReads && c.dir == toDevice) {
		n++
	}
	if !pol.skipUnmap && c.dir != toDevice {
		n++
	}
	if c.cpu != cpuNone && c.dir != toDevice {
		n++
	}
	return n
}

// simulatedIterations is how many iterations the run simulates at most.
func simulatedIterations(c config) int64 {
	if c.fullSim {
		return int64(c.iterations)
	}
	return int64(min(c.iterations, maxSimulated))
}

// planWork estimates a run's work before it starts: the CPU's earlier use,
// a persistent mapping's map and unmap, and the iterations it may simulate
// (it may stop sooner, when one repeats the previous: progress then jumps
// to the end). The policy is not known here; the unmap pass is counted.
func planWork(c config) int64 {
	per := int64(len(c.sizes)) + int64(c.total/blockBytes)
	total := simulatedIterations(c) * passes(c, policy{}) * per
	if c.cpu != cpuNone {
		total += per
	}
	if c.persistent {
		total += 2 * per
	}
	return total
}

// replan sets the pacer's total once the first iteration's work is known.
func (r *run) replan(first int64) {
	if r.pace == nil {
		return
	}
	r.pace.Plan(r.pace.Done() + (simulatedIterations(r.cfg)-1)*first)
}

// workTo counts the work of the entries before entry (the DMA API is
// past them) from the listener's reports, so the page can give way in the
// middle of a call. A cancel is kept by the pacer and returned when the
// call ends (workRest).
func (r *run) workTo(entry int) {
	for ; r.worked < entry && r.worked < len(r.list.entries); r.worked++ {
		_ = r.work(r.list.entries[r.worked].len) // the error stays in the pacer
	}
}

// workRest counts the entries of the call not counted yet (all of them
// when the call issued no maintenance) and returns the pacer's cancel.
func (r *run) workRest() error {
	r.workTo(len(r.list.entries))
	return r.pace.Err()
}
