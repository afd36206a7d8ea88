package soc

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// Masters is every agent other than the core: the DMA masters
// (AddDevice) with their queued transfers, and the agents (AddAgent: an
// SMMU's TBUs and TCU, a NIC) whose steps run on the same event queue.
// The machine runs their steps in time order before the core acts
// (agents.go); this unit owns the queue, the jobs and the lookahead
// horizon.
type Masters struct {
	devices []device
	// q holds every master's and agent's next step, by time then
	// sequence; jobs are the DMA transfers (freeJobs: slots to reuse).
	q        sim.Queue[DeviceID]
	jobs     []dmaJob
	freeJobs []int
	// horizon is the time of the earliest queued step: the core may run
	// ahead without catching up while its time is before it.
	// Invariant: horizon <= the earliest queued step's time (0 in
	// unbatched mode, so every line catches up).
	horizon   sim.Time
	unbatched bool
	agents    []Agent                           // the agents Schedule queues events for (port.go)
	portHook  func(sim.Time, uint64, int, bool) // test hook on PortAccess
	topFree   bool                              // an agent step runs and the queue's top is its own (runAgent)
	endSteps  bool                              // a step asked RunSteps to return (EndSteps)
}

// MasterState is one DMA master's state as plain data.
type MasterState struct {
	Name     string
	Coherent bool
	Writer   uint8    // the writer id its data carries
	Now      sim.Time // when its last transfer ended
	Busy     bool     // a transfer is running
	Queued   int      // transfers waiting behind it
}

// MastersState is the masters' state as plain data (for views and
// golden tests).
type MastersState struct {
	Devices []MasterState
	Agents  int // agents registered with AddAgent
	Steps   int // steps queued (masters' and agents')
}

// newMasters builds an empty set of masters, batched.
func newMasters() Masters { return Masters{horizon: sim.Never} }

// Snapshot returns the masters' state.
func (u *Masters) Snapshot() MastersState {
	s := MastersState{Devices: make([]MasterState, len(u.devices)), Agents: len(u.agents), Steps: u.q.Len()}
	for i := range u.devices {
		d := &u.devices[i]
		s.Devices[i] = MasterState{Name: d.cfg.Name, Coherent: d.cfg.Coherent, Writer: d.writer, Now: d.now,
			Busy: d.active >= 0, Queued: len(d.queued)}
	}
	return s
}

// add validates c and adds a DMA master; its writer id is 2 + its index.
func (u *Masters) add(c DeviceConfig) (DeviceID, error) {
	if c.Burst < 1 || c.Burst > 1<<16 {
		return -1, fmt.Errorf("device %s: burst: %d is out of range; allowed 1..65536", c.Name, c.Burst)
	}
	if !(c.Bandwidth >= 1e3 && c.Bandwidth <= 1e13) {
		return -1, fmt.Errorf("device %s: bandwidth: %g B/s is out of range; allowed 1e3..1e13", c.Name, c.Bandwidth)
	}
	if c.SnoopLatency < 0 {
		return -1, fmt.Errorf("device %s: snoop_latency: %v is negative", c.Name, c.SnoopLatency)
	}
	if len(u.devices) >= 250 {
		return -1, fmt.Errorf("device %s: too many devices; allowed 250", c.Name)
	}
	u.devices = append(u.devices, device{cfg: c, psPerByte: 1e12 / c.Bandwidth, writer: uint8(2 + len(u.devices)), active: -1})
	return DeviceID(len(u.devices) - 1), nil
}

// device returns master d, or nil.
func (u *Masters) device(d DeviceID) *device {
	if d < 0 || int(d) >= len(u.devices) {
		return nil
	}
	return &u.devices[d]
}

// writer returns the writer id master d's data carries.
func (u *Masters) writer(d DeviceID) uint8 {
	if dev := u.device(d); dev != nil {
		return dev.writer
	}
	return mem.Nobody
}

// newJob stores j in a free slot and returns its id.
func (u *Masters) newJob(j dmaJob) int {
	if k := len(u.freeJobs); k > 0 {
		id := u.freeJobs[k-1]
		u.freeJobs = u.freeJobs[:k-1]
		u.jobs[id] = j
		return id
	}
	u.jobs = append(u.jobs, j)
	return len(u.jobs) - 1
}

// retire frees job id's slot and returns the job.
func (u *Masters) retire(id int) dmaJob {
	j := u.jobs[id]
	u.jobs[id] = dmaJob{}
	u.freeJobs = append(u.freeJobs, id)
	return j
}

// activate makes job id master d's running one, its first step at t.
func (u *Masters) activate(d DeviceID, id int, t sim.Time) {
	u.devices[d].active = id
	u.q.Push(t, d)
	u.horizon = min(u.horizon, t)
}

// addAgent registers a and returns its id.
func (u *Masters) addAgent(a Agent) (int, error) {
	if a == nil {
		return -1, fmt.Errorf("agent: nil")
	}
	if len(u.agents) >= MaxAgents {
		return -1, fmt.Errorf("agent: at most %d per machine", MaxAgents)
	}
	u.agents = append(u.agents, a)
	return len(u.agents) - 1, nil
}

// enqueue queues an agent's step: in the place of the step being run
// (ReplaceTop, as Pop then Push would) if it is its first, else pushed.
func (u *Masters) enqueue(t sim.Time, id, ev int) error {
	if uint(id) >= uint(len(u.agents)) || uint(ev) > MaxEvent {
		return errSchedule
	}
	d := DeviceID(-1 - (ev<<agentBits | id))
	if u.topFree {
		u.topFree = false
		u.q.ReplaceTop(t, d)
	} else {
		u.q.Push(t, d)
	}
	if t < u.horizon {
		u.horizon = t
	}
	return nil
}

// runAgent runs the agent event at the queue's top (d < 0): the step's
// first Schedule takes its place in the queue (ReplaceTop, as Pop then
// Push would), and it is popped if the step schedules nothing.
// Invariant: topFree only while a step runs (nothing reads the queue
// then: a step never runs the core).
func (u *Masters) runAgent(t sim.Time, d DeviceID) {
	k := int(-1 - d)
	u.topFree = true
	u.agents[k&(MaxAgents-1)].Step(t, k>>agentBits)
	if u.topFree {
		u.popTop()
	}
}

// popTop removes the step that has run and scheduled nothing.
func (u *Masters) popTop() {
	u.topFree = false
	u.q.Pop()
}
