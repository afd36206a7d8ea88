package soc

import "github.com/dmaviz/dmaviz/model/sim"

// DRAM is main memory as every agent sees it: one channel of
// dram.bandwidth that the core's fills and write-backs, the DMA masters'
// bursts and the other agents' transfers share, each read answered no
// earlier than dram.latency after it was asked. It keeps the order of
// asks honest: every agent asks at a time no earlier than the asks
// already made (the machine runs them on one clock), and an ask that
// breaks it counts as a reorder.
type DRAM struct {
	cfg DRAMConfig
	// free is when the channel finishes the transfers accepted so far.
	// Invariant: it never decreases; every ask comes at a time no earlier
	// than every earlier ask (agentAsk, devAsk).
	free sim.Time
	// posted is the latest completion of a posted write (a Normal-NC or
	// streaming store, a write-back): DSB waits for it.
	// Invariant: posted <= free.
	posted    sim.Time
	coreAsk   sim.Time // when the core last asked (it asks in time order)
	devAskAt  sim.Time // latest time a device or agent asked
	reorders  uint64   // asks that came earlier than one already made (0 in a correct run)
	lineXfer  sim.Time // the channel occupancy of one cache line
	psPerByte float64  // 1e12 / cfg.Bandwidth
}

// DRAMState is the DRAM unit's state as plain data (for views and
// golden tests).
type DRAMState struct {
	Free, Posted sim.Time // when the channel and the posted writes drain
	Reorders     uint64   // asks out of time order (0 in a correct run)
	LineXfer     sim.Time // the occupancy of one line
}

// newDRAM builds the channel of a validated cfg for lines of lineBytes.
func newDRAM(cfg DRAMConfig, lineBytes int) DRAM {
	d := DRAM{cfg: cfg, psPerByte: 1e12 / cfg.Bandwidth}
	d.lineXfer = d.xfer(lineBytes)
	return d
}

// Snapshot returns the unit's state.
func (d *DRAM) Snapshot() DRAMState {
	return DRAMState{Free: d.free, Posted: d.posted, Reorders: d.reorders, LineXfer: d.lineXfer}
}

// xfer is the channel occupancy of a transfer of n bytes (at least one
// dram.min_burst).
func (d *DRAM) xfer(n int) sim.Time {
	return sim.Time(float64(max(n, d.cfg.MinBurst))*d.psPerByte + 0.5)
}

// channel books a transfer of occupancy x starting no earlier than
// earliest and after every transfer accepted before; it returns its start.
func (d *DRAM) channel(earliest, x sim.Time) sim.Time {
	start := max(earliest, d.free)
	d.free = start + x
	return start
}

// load is the core's read of occupancy x requested at at (the core's
// clock is now): it returns when the data is delivered, never before
// at+dram.latency.
func (d *DRAM) load(now, at, x sim.Time) sim.Time {
	d.coreAsk = now
	return d.channel(at+d.cfg.Latency-x, x) + x
}

// post is the core's posted write of occupancy x at now: the core does
// not wait, a DSB does. It returns when the write completes.
func (d *DRAM) post(now, x sim.Time) sim.Time {
	d.coreAsk = now
	done := d.channel(now, x) + x
	d.posted = max(d.posted, done)
	return done
}

// devAsk records that a DMA master asked at t. Masters ask in queue
// order (non-decreasing among themselves); one asking earlier than the
// core's last ask is a reorder.
func (d *DRAM) devAsk(t sim.Time) {
	if t < d.coreAsk {
		d.reorders++
	}
	d.devAskAt = max(d.devAskAt, t)
}

// agentAsk records that an agent (PortAccess, IOAccess) asked at at: a
// reorder when earlier than the core's or any master's last ask.
func (d *DRAM) agentAsk(at sim.Time) {
	if at < d.coreAsk || at < d.devAskAt {
		d.reorders++
	}
	d.devAskAt = max(d.devAskAt, at)
}

// coreResumes checks the core's clock now after it waited for a DMA
// job: asking earlier than a master already did is a reorder.
func (d *DRAM) coreResumes(now sim.Time) {
	if now < d.devAskAt {
		d.reorders++
	}
}
