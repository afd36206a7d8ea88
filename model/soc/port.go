package soc

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/sim"
)

// Agents other than the DMA devices (an SMMU's TBUs and TCU, a NIC, a
// crypto engine) run on the machine's event queue too, so the core, the
// devices and they share one clock and one DRAM channel:
//
//   - AddAgent registers one (it gets an id); Schedule queues one of its
//     events (an int it decodes) and the machine hands it back through
//     Agent.Step when it comes due, whether the caller's loop is running
//     the queue (RunNext) or the core is catching up before it asks DRAM
//     or touches a line. A step never runs the core.
//   - PortAccess is their DRAM access: asked at the step's own time (never
//     booked ahead), after a path latency that is the agent's (the
//     interconnect from its port), competing with the core's fills and
//     write-backs and every device's bursts for the channel's bandwidth.
//
// The core stays the caller's thread: a workload runs the queue with
// RunNext and runs the core (Read, Write, Spend) between steps, never
// inside one.

// Agent runs its steps queued with Schedule.
type Agent interface {
	// Step runs event ev, due at t (the queue's current time). It may
	// Schedule further events at t or later and ask DRAM with PortAccess
	// at t.
	Step(t sim.Time, ev int)
}

// MaxAgents is how many agents one machine takes.
const MaxAgents = 1 << agentBits

const agentBits = 3

// AddAgent registers a and returns its id for Schedule.
func (m *Machine) AddAgent(a Agent) (int, error) { return m.dma.addAgent(a) }

// MaxEvent is the largest event an agent may schedule.
const MaxEvent = 1<<(62-agentBits) - 1

// Schedule queues event ev (0..MaxEvent) of agent id at time t (no
// earlier than the step being run). An agent calls it for every step:
// it is enqueue, inlined into the caller.
// Invariant: a queued agent event is DeviceID -1-(ev<<agentBits|id).
func (m *Machine) Schedule(t sim.Time, id, ev int) error { return m.dma.enqueue(t, id, ev) }

// errSchedule is Schedule's error.
var errSchedule = fmt.Errorf("schedule: agent or event out of range; allowed an id AddAgent returned and events 0..%d", MaxEvent)

// NextEvent returns the time of the earliest queued step (a device's or
// an agent's), false when none is queued.
func (m *Machine) NextEvent() (sim.Time, bool) { return m.dma.q.Peek() }

// RunNext runs the earliest queued step if it is due by limit and reports
// whether it ran one. Call it from the workload's loop, not from a step.
// (A loop that runs many steps between its own checks calls RunSteps,
// which saves a call per step.)
func (m *Machine) RunNext(limit sim.Time) bool {
	if t, ok := m.dma.q.Peek(); ok && t <= limit {
		if d := m.dma.q.Top(); d < 0 {
			m.dma.runAgent(t, d)
			return true
		}
	}
	return m.runNext(limit)
}

// RunSteps runs queued steps in time order, as up to n calls of
// RunNext(limit) would, and returns how many it ran: it stops at the
// first step due after limit, and after a step that calls EndSteps (it
// left work for the caller's thread, such as the core, or ended the
// run). A workload whose loop looks at nothing between most steps saves
// a call and its own checks per step (in WebAssembly a call costs
// several times what it does natively).
func (m *Machine) RunSteps(limit sim.Time, n int) int {
	m.dma.endSteps = false
	k := 0
	for k < n && !m.dma.endSteps {
		t, ok := m.dma.q.Peek()
		if !ok || t > limit {
			break
		}
		if d := m.dma.q.Top(); d < 0 { // runAgent, written out (one call fewer per step)
			a := int(-1 - d)
			m.dma.topFree = true
			m.dma.agents[a&(MaxAgents-1)].Step(t, a>>agentBits)
			if m.dma.topFree {
				m.dma.popTop()
			}
		} else {
			m.runNext(limit)
		}
		k++
	}
	return k
}

// EndSteps makes the RunSteps running the current step return after it.
func (m *Machine) EndSteps() { m.dma.endSteps = true }

// PortAccess is one DRAM transfer of n bytes at pa by an agent, asked at
// its current time at and reaching the memory controller after lat (its
// path from its port); it returns when the read data (or the write
// response) is back. Agents ask in queue order; an ask earlier than one
// the core or another agent already made counts in DRAMAskReorders.
func (m *Machine) PortAccess(at sim.Time, pa uint64, n int, write bool, lat sim.Time) sim.Time {
	m.dram.agentAsk(at)
	if m.dma.portHook != nil {
		m.dma.portHook(at, pa, n, write)
	}
	x := m.dram.xfer(n)
	done := m.dram.channel(at+lat-x, x) + x
	if write {
		m.cnt[DMAWriteBytes] += uint64(n)
	} else {
		m.cnt[DMAReadBytes] += uint64(n)
	}
	return done
}

// SetPortHook calls f on every PortAccess with its ask time (tests check
// the order; nil: none).
func (m *Machine) SetPortHook(f func(at sim.Time, pa uint64, n int, write bool)) { m.dma.portHook = f }
