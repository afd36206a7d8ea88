package soc

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/sim"
)

// Every agent on one clock. The DMA masters are processes on the machine's
// event queue (sim.Queue, ordered by time then sequence): a device's step
// lands its previous burst and asks DRAM for the next one, then
// reschedules itself at the next burst's landing time. The core is the
// caller's thread: before each line it reads, writes or maintains, and
// before each Normal-NC transaction, the machine runs every queued step
// up to the core's time (catchUp). So DRAM, the one resource every agent
// shares, is asked in non-decreasing global time (dramAsk checks it).
//
// The batched fast path (a run of whole lines in one loop) is bounded by
// the lookahead horizon: the time of the earliest queued step, before
// which no other agent can touch DRAM or the caches. Unbatched mode
// (SetBatching(false)) catches up before every line and walks one line per
// loop; a test checks that both give the same state, counters and times.

// dmaJob is one DeviceRead or DeviceWrite.
type dmaJob struct {
	dev   DeviceID
	write bool
	n     uint64
	off   uint64 // bytes asked for so far
	c     cursor
	// landPA, landN are the burst in flight (landing at the next step).
	landPA, landN uint64
	end           sim.Time
	done          bool
	err           error
}

// DMAJob names a transfer StartDMA queued.
type DMAJob int

// SetBatching switches the batched fast path on (the default) or off.
func (m *Machine) SetBatching(on bool) {
	m.dma.unbatched = !on
	if m.dma.unbatched {
		m.dma.horizon = 0
	}
}

// StartDMA queues a transfer of n bytes at addr by device d: it starts
// when the device has finished the transfers queued before it, and not
// before the core's current time. The core does not wait; FinishDMA does.
// The job is valid until FinishDMA returns for it.
func (m *Machine) StartDMA(d DeviceID, addr, n uint64, write bool) (DMAJob, error) {
	if d < 0 || int(d) >= len(m.dma.devices) {
		return -1, fmt.Errorf("device: %d is not a device of this machine (0..%d)", d, len(m.dma.devices)-1)
	}
	dev := &m.dma.devices[d]
	if dev.cfg.IOMMU == nil && (addr >= m.cfg.MemBytes || n > m.cfg.MemBytes-addr) {
		return -1, fmt.Errorf("device %s: range %#x+%d is outside physical memory (%d bytes)", dev.cfg.Name, addr, n, m.cfg.MemBytes)
	}
	id := m.dma.newJob(dmaJob{dev: d, write: write, n: n, c: cursor{va: addr}})
	if dev.active < 0 {
		m.dma.activate(d, id, max(dev.now, m.core.now))
	} else {
		dev.queued = append(dev.queued, id)
	}
	return DMAJob(id), nil
}

// FinishDMA runs every agent's queued steps in time order until job j
// has completed, idles the core until then (waiting for the completion
// interrupt; not counted in cpu_cycles) and returns the completion time
// (for a read, when the last data has arrived).
func (m *Machine) FinishDMA(j DMAJob) (sim.Time, error) {
	if j < 0 || int(j) >= len(m.dma.jobs) {
		return m.core.now, fmt.Errorf("dma job %d is not queued", j)
	}
	for !m.dma.jobs[j].done {
		if !m.step(sim.Never, !m.dma.unbatched) {
			return m.core.now, fmt.Errorf("dma job %d never completes", j)
		}
	}
	job := m.dma.retire(int(j))
	m.core.wait(job.end)
	m.dram.coreResumes(m.core.now)
	return job.end, job.err
}

// catchUp runs every queued step due by the core's time and moves the
// horizon to the next one.
func (m *Machine) catchUp() {
	for m.step(m.core.now, !m.dma.unbatched) {
	}
}

// runNext runs the earliest queued step if it is due by limit, and resets
// the horizon; it reports whether it ran one.
func (m *Machine) runNext(limit sim.Time) bool { return m.step(limit, false) }

// step is runNext for the machine's own loops (catching up, waiting for
// a job), which look at nothing between steps: with batch set, a device
// that is the only agent queued runs its steps due by limit in one loop
// (the same bursts, in the same order and at the same times, as one call
// per step; no queue operation between them).
func (m *Machine) step(limit sim.Time, batch bool) bool {
	t, ok := m.dma.q.Peek()
	if !ok || t > limit {
		m.dma.horizon = sim.Never
		if ok {
			m.dma.horizon = t
		}
		if m.dma.unbatched {
			m.dma.horizon = 0
		}
		return false
	}
	m.ob.quiet.n = 0 // another agent acts (see Quiet)
	d := m.dma.q.Top()
	if d < 0 { // an agent's event (port.go)
		m.dma.runAgent(t, d)
		return true
	}
	dev := &m.dma.devices[d]
	j := &m.dma.jobs[dev.active]
	for {
		next, more := m.burst(dev, j, t)
		if !more {
			break
		}
		m.dma.horizon = min(m.dma.horizon, next)
		if !batch || next > limit || m.dma.q.Len() != 1 {
			m.dma.q.ReplaceTop(next, d) // the device reschedules itself
			return true
		}
		t = next // its next step is the earliest and due: run it now
	}
	m.dma.q.Pop()
	// The job is over: account for it and start the device's next one.
	end := t
	if !j.write {
		end += m.dram.cfg.Latency
	}
	j.end, j.done = end, true
	dev.now = end
	if j.write {
		m.cnt[DMAWriteBytes] += j.n
	} else {
		m.cnt[DMAReadBytes] += j.n
	}
	dev.active = -1
	if len(dev.queued) > 0 {
		next := dev.queued[0]
		dev.queued = dev.queued[1:]
		m.dma.activate(d, next, end)
	}
	return true
}

// sync runs the other agents up to the core's time when one of them is
// due (kept inline-sized: the per-line path calls it). The core calls it
// wherever its time has moved since the last call and before it asks
// DRAM or touches a line: at the start of every line, after every wait
// for a pool slot, before the store half of a copied line, after a DC
// op's issue, and at DSB.
func (m *Machine) sync() {
	if m.core.now >= m.dma.horizon {
		m.catchUp()
	}
}

// syncTo runs the other agents up to time t (at or after the core's time)
// when one of them is due: a walk's descriptor loads ask DRAM at the
// walker's time, which runs ahead of the core's until the walk is done.
func (m *Machine) syncTo(t sim.Time) {
	if t >= m.dma.horizon {
		for m.step(t, !m.dma.unbatched) {
		}
	}
}

// DRAMAskReorders returns how many DRAM asks came earlier in time than one
// already made (0 when every agent ran in time order).
func (m *Machine) DRAMAskReorders() uint64 { return m.dram.reorders }
