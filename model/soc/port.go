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
func (m *Machine) AddAgent(a Agent) (int, error) {
	if a == nil {
		return -1, fmt.Errorf("agent: nil")
	}
	if len(m.agents) >= MaxAgents {
		return -1, fmt.Errorf("agent: at most %d per machine", MaxAgents)
	}
	m.agents = append(m.agents, a)
	return len(m.agents) - 1, nil
}

// MaxEvent is the largest event an agent may schedule.
const MaxEvent = 1<<(62-agentBits) - 1

// Schedule queues event ev (0..MaxEvent) of agent id at time t (no
// earlier than the step being run). An agent calls it for every step:
// it is enqueue, inlined into the caller.
// Invariant: a queued agent event is DeviceID -1-(ev<<agentBits|id).
func (m *Machine) Schedule(t sim.Time, id, ev int) error { return m.enqueue(t, id, ev) }

// enqueue queues an agent's step: in the place of the step being run
// (ReplaceTop, as Pop then Push would) if it is its first, else pushed.
func (m *Machine) enqueue(t sim.Time, id, ev int) error {
	if uint(id) >= uint(len(m.agents)) || uint(ev) > MaxEvent {
		return errSchedule
	}
	d := DeviceID(-1 - (ev<<agentBits | id))
	if m.topFree {
		m.topFree = false
		m.q.ReplaceTop(t, d)
	} else {
		m.q.Push(t, d)
	}
	if t < m.horizon {
		m.horizon = t
	}
	return nil
}

// errSchedule is Schedule's error.
var errSchedule = fmt.Errorf("schedule: agent or event out of range; allowed an id AddAgent returned and events 0..%d", MaxEvent)

// NextEvent returns the time of the earliest queued step (a device's or
// an agent's), false when none is queued.
func (m *Machine) NextEvent() (sim.Time, bool) { return m.q.Peek() }

// RunNext runs the earliest queued step if it is due by limit and reports
// whether it ran one. Call it from the workload's loop, not from a step.
// (A loop that runs many steps between its own checks calls RunSteps,
// which saves a call per step.)
func (m *Machine) RunNext(limit sim.Time) bool {
	if t, ok := m.q.Peek(); ok && t <= limit {
		if d := m.q.Top(); d < 0 {
			m.runAgent(t, d)
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
	m.endSteps = false
	k := 0
	for k < n && !m.endSteps {
		t, ok := m.q.Peek()
		if !ok || t > limit {
			break
		}
		if d := m.q.Top(); d < 0 { // runAgent, written out (one call fewer per step)
			a := int(-1 - d)
			m.topFree = true
			m.agents[a&(MaxAgents-1)].Step(t, a>>agentBits)
			if m.topFree {
				m.popTop()
			}
		} else {
			m.runNext(limit)
		}
		k++
	}
	return k
}

// EndSteps makes the RunSteps running the current step return after it.
func (m *Machine) EndSteps() { m.endSteps = true }

// runAgent runs the agent event at the queue's top (d < 0): the step's
// first Schedule takes its place in the queue (ReplaceTop, as Pop then
// Push would), and it is popped if the step schedules nothing.
// Invariant: topFree only while a step runs (nothing reads the queue
// then: a step never runs the core).
func (m *Machine) runAgent(t sim.Time, d DeviceID) {
	k := int(-1 - d)
	m.topFree = true
	m.agents[k&(MaxAgents-1)].Step(t, k>>agentBits)
	if m.topFree {
		m.popTop()
	}
}

// popTop removes the step that has run and scheduled nothing.
func (m *Machine) popTop() {
	m.topFree = false
	m.q.Pop()
}

// PortAccess is one DRAM transfer of n bytes at pa by an agent, asked at
// its current time at and reaching the memory controller after lat (its
// path from its port); it returns when the read data (or the write
// response) is back. Agents ask in queue order; an ask earlier than one
// the core or another agent already made counts in DRAMAskReorders.
func (m *Machine) PortAccess(at sim.Time, pa uint64, n int, write bool, lat sim.Time) sim.Time {
	if at < m.coreAsk || at < m.devAskAt {
		m.reorders++
	}
	m.devAskAt = max(m.devAskAt, at)
	if m.portHook != nil {
		m.portHook(at, pa, n, write)
	}
	x := m.xfer(n)
	start := max(at+lat-x, m.dramFree)
	m.dramFree = start + x
	if write {
		m.cnt[DMAWriteBytes] += uint64(n)
	} else {
		m.cnt[DMAReadBytes] += uint64(n)
	}
	return start + x
}

// SetPortHook calls f on every PortAccess with its ask time (tests check
// the order; nil: none).
func (m *Machine) SetPortHook(f func(at sim.Time, pa uint64, n int, write bool)) { m.portHook = f }
