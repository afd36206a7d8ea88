package smmu

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
)

// EventLevel is the Level of the TBU TLB in hwevent TLB events (0 and 1
// are a core's L1 and L2 TLBs).
const EventLevel = 2

// SMMU is one MMU-500: the global registers, the context banks, the TCU
// and the TBUs.
type SMMU struct {
	cfg  Config
	Regs Regs
	// m is the machine whose event queue the SMMU's steps run on (it is
	// one of m's agents: agent) and whose DRAM its transactions and walks
	// reach (IOAccess).
	m     *soc.Machine
	agent int
	sink  Sink
	fills FillSink // sink, when it hears fills too (nil otherwise)
	banks []*ContextBank
	tbus  []*TBU
	tcu   tcu
	obs   hwevent.Observer
	ev    hwevent.Event // scratch: events are handed out without allocating
	// txns are the transactions in flight (free: slots to reuse); an
	// event names one by its index.
	txns []txn
	free []int32
	// walks are the walks in flight, named by txn.walk (freeWalks: slots
	// to reuse).
	walks     []walk
	freeWalks []int32
	// faults are the first maxFaults recorded; faultCount counts all.
	faults     []FaultRecord
	faultCount uint64
	steps      []mmu.Step // scratch for traced walks
	err        error      // the first scheduling error (Err)
}

// New builds an SMMU with the given registers on machine m (one of its
// agents: its steps run on m's event queue, its transactions and walks
// reach m's DRAM); sink hears of every completion (context banks and
// TBUs are added next; Regs is checked by Check once they are).
func New(cfg Config, regs Regs, m *soc.Machine, sink Sink) (*SMMU, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if m == nil || sink == nil {
		return nil, fmt.Errorf("bus: the SMMU needs a machine below it and a sink for completions")
	}
	fs, _ := sink.(FillSink)
	s := &SMMU{cfg: cfg, Regs: regs, m: m, sink: sink, fills: fs}
	id, err := m.AddAgent(s)
	if err != nil {
		return nil, err
	}
	s.agent = id
	s.tcu.issue, s.tcu.match = cfg.Cycles(cfg.TCUIssueCycles), cfg.Cycles(cfg.MatchCycles)
	return s, nil
}

// Config returns the hardware configuration.
func (s *SMMU) Config() Config { return s.cfg }

// SetObserver makes s report TBU TLB lookups and fills and the TCU's walk
// steps to o (nil: none).
func (s *SMMU) SetObserver(o hwevent.Observer) { s.obs = o }

// Err returns the first error the event queue gave (nil in a correct
// run: the run stops at it).
func (s *SMMU) Err() error { return s.err }

// Check validates the registers against the context banks.
func (s *SMMU) Check() error { return s.Regs.Validate(len(s.banks)) }

// ContextBank is one translation context: a page table (stage 1 or
// stage 2; both use the LPAE format the mmu walker reads) and its walker
// in the TCU. The walker finds the descriptors (and fills its walk
// caches) when the walk starts; each descriptor read then goes to the bus
// at its own time, after the one before it (a walk's reads are
// dependent).
type ContextBank struct {
	Stage  int
	PT     *mmu.PageTable
	walker *mmu.Walker
	port   descPort
	// S2 is a nested bank's stage-2 table (nil: a single stage; see
	// AddNestedContextBank): PT's descriptors sit at IPAs, and every
	// descriptor address and the walk's output are translated through it
	// by s2, whose reads port notes too.
	S2   *mmu.PageTable
	s2   *mmu.Walker
	nest nestedPort
}

// Walker exposes the bank's walker (its statistics).
func (c *ContextBank) Walker() *mmu.Walker { return c.walker }

// descPort is mmu.Port for a context bank's walks: values from the
// descriptor memory, and the address of each read noted for the bus (the
// time comes from the bus, read by read).
type descPort struct {
	mem *mmu.Memory
	pas [maxWalkReads]uint64
	n   int
}

// maxWalkReads is the most descriptor reads one walk makes: 4 levels,
// or a nested walk's 24 (each of 4 stage-1 descriptors after a 4-level
// stage-2 walk of its address, then a stage-2 walk of the output).
const maxWalkReads = 24

func (p *descPort) Read64(pa uint64) (uint64, sim.Time) {
	v, _ := p.mem.Read64(pa)
	p.note(pa)
	return v, 0
}

func (p *descPort) Write64(pa, v uint64) sim.Time { return p.mem.Write64(pa, v) }

// AddContextBank adds a bank translating through pt, whose descriptors
// live in tables; it returns the bank's index (CBNDX).
func (s *SMMU) AddContextBank(stage int, pt *mmu.PageTable, tables *mmu.Memory) (int, error) {
	if stage != 1 && stage != 2 {
		return -1, fmt.Errorf("context bank %d: stage: %d; allowed 1 or 2", len(s.banks), stage)
	}
	if err := s.bankRoom(); err != nil {
		return -1, err
	}
	if pt == nil || tables == nil {
		return -1, fmt.Errorf("context bank %d: no page table", len(s.banks))
	}
	cb := &ContextBank{Stage: stage, PT: pt}
	cb.port = descPort{mem: tables}
	w, err := mmu.NewWalker(s.cfg.WalkCache, pt, &cb.port)
	if err != nil {
		return -1, err
	}
	cb.walker = w
	return s.addBank(cb), nil
}

// bankRoom says whether another context bank fits (ID1.NUMCB).
func (s *SMMU) bankRoom() error {
	if len(s.banks) >= 128 {
		return fmt.Errorf("context bank: at most 128 (ID1.NUMCB)")
	}
	return nil
}

// addBank appends cb and returns its index (CBNDX).
func (s *SMMU) addBank(cb *ContextBank) int {
	s.banks = append(s.banks, cb)
	return len(s.banks) - 1
}

// Bank returns context bank i (nil if there is none).
func (s *SMMU) Bank(i int) *ContextBank {
	if i < 0 || i >= len(s.banks) {
		return nil
	}
	return s.banks[i]
}

// Faults returns the recorded faults (the first 256) and how many there
// were in all.
func (s *SMMU) Faults() ([]FaultRecord, uint64) { return s.faults, s.faultCount }

func (s *SMMU) fault(f FaultRecord) {
	s.faultCount++
	if len(s.faults) < maxFaults {
		s.faults = append(s.faults, f)
	}
}

// TCUStats counts what the TCU did.
type TCUStats struct {
	Requests, Walks, WalkReads uint64
	// Wait is the time requests queued for the TCU's pipeline.
	Wait sim.Time
}

// tcu is the shared translation control unit.
type tcu struct {
	free         sim.Time // when its pipeline accepts the next request
	issue, match sim.Time // Config's TCUIssueCycles and MatchCycles
	Stats        TCUStats
}

// TCUStats returns the TCU's counters.
func (s *SMMU) TCUStats() TCUStats { return s.tcu.Stats }

// arrive is one TBU miss reaching the TCU at at (asked when it leaves the
// TBU): its pipeline, the
// stream-match lookup, then for a translating stream the context bank's
// walk, whose first descriptor read is queued for when the lookup is
// done.
func (s *SMMU) arrive(at sim.Time, id int32) {
	x := &s.txns[id]
	c := &s.tcu
	c.Stats.Requests++
	start := max(at, c.free)
	c.Stats.Wait += start - at
	c.free = start + c.issue
	t := start + c.match
	d := s.Regs.Decide(x.x.SID)
	x.d = d
	switch d.Route {
	case RouteBypass, RouteUnmatched, RouteDisabled:
		x.pa, x.ok = x.x.Addr, true
		s.answer(t, id)
		return
	case RouteFault:
		s.fault(FaultRecord{T: t, SID: x.x.SID, Kind: d.Fault, CB: -1, Addr: x.x.Addr})
		s.answer(t, id)
		return
	}
	cb := s.Bank(d.CB)
	if cb == nil { // S2CR names a bank that does not exist: checked by Check, recorded if not
		s.fault(FaultRecord{T: t, SID: x.x.SID, Kind: FaultS2CR, CB: d.CB, Addr: x.x.Addr})
		x.d = Decision{Route: RouteFault, SMR: d.SMR, CB: d.CB, Fault: FaultS2CR}
		s.answer(t, id)
		return
	}
	c.Stats.Walks++
	x.walked = true
	cb.port.n, cb.nest.s2fault = 0, false
	x.walk = s.allocWalk()
	w := &s.walks[x.walk]
	var r mmu.Result
	if s.obs != nil { // walk-cache hits are seen now; descriptor reads as they are made
		r, s.steps = cb.walker.Trace(x.x.Addr, s.steps[:0])
		k := 0
		for _, st := range s.steps {
			if st.WalkCache {
				s.emit(hwevent.Event{T: t, Kind: hwevent.WalkStep, Agent: x.x.Agent, Level: int8(st.Level), Set: -1, Way: -1,
					Addr: st.DescAddr, Flags: hwevent.Hit})
			} else if k < maxWalkReads {
				w.levels[k] = int8(st.Level)
				k++
			}
		}
	} else {
		r = cb.walker.Walk(x.x.Addr)
	}
	w.faultStage = 1
	if cb.s2 != nil {
		w.faultStage = cb.nestedLeaf(x.x.Addr, &r, w)
	}
	c.Stats.WalkReads += uint64(cb.port.n) // r.Reads, and a nested walk's stage-2 reads
	w.reads, w.n, w.k = cb.port.pas, int8(cb.port.n), 0
	if r.OK {
		x.pa, x.leaf, x.ok = r.Leaf.PA+(x.x.Addr-r.Leaf.VA), r.Leaf, true
	} else {
		x.d.Route, x.d.Fault = RouteFault, FaultTF
		w.faultLevel = int8(r.Fault.Level)
	}
	if w.n == 0 {
		s.walked(t, id)
		return
	}
	s.schedule(t, id, evWalk)
}

// walkRead is descriptor read k of transaction id's walk, asked at at.
func (s *SMMU) walkRead(at sim.Time, id int32) {
	x := &s.txns[id]
	w := &s.walks[x.walk]
	pa := w.reads[w.k]
	done, _ := s.m.IOAccess(at, pa, 8, false, s.cfg.Bus.Port, 0, x.x.Agent)
	if s.obs != nil {
		s.emit(hwevent.Event{T: done, Kind: hwevent.WalkStep, Agent: x.x.Agent, Level: w.levels[w.k], Set: -1, Way: -1, Addr: pa})
	}
	if w.k++; w.k < w.n {
		s.schedule(done, id, evWalk)
		return
	}
	s.walked(done, id)
}

// walked ends a walk at t: a fault is recorded, and the answer goes back.
func (s *SMMU) walked(t sim.Time, id int32) {
	x := &s.txns[id]
	if !x.ok {
		w := &s.walks[x.walk]
		s.fault(FaultRecord{T: t, SID: x.x.SID, Kind: FaultTF, CB: x.d.CB, Addr: x.x.Addr, Level: int(w.faultLevel), Stage: int(w.faultStage)})
	}
	s.freeWalks = append(s.freeWalks, x.walk)
	x.walk = -1
	s.answer(t, id)
}

// answer sends the TCU's reply for id, leaving it at t, back to its TBU:
// the walk slot frees when it arrives.
func (s *SMMU) answer(t sim.Time, id int32) {
	x := &s.txns[id]
	tb := s.tbus[x.tbu]
	back := t + tb.link
	tb.walks.Settle(back)
	tb.settled(&tb.walks)
	// schedule, written out (a call fewer per TCU answer).
	if err := s.m.Schedule(back, s.agent, int(id)<<evBits|evAnswer); err != nil && s.err == nil {
		s.err = err
	}
}

// bus is transaction x's access below the SMMU, asked at at, leaving
// after lookup (a hit's TBU lookup, 0 after a TCU answer): the port to
// the interconnect, then the machine's memory system (IOAccess). It
// returns when the data (or the write's acknowledgement) is back.
func (s *SMMU) bus(at sim.Time, x *txn, lookup sim.Time) sim.Time {
	done, served := s.m.IOAccess(at, x.o.PA, x.x.Bytes, x.x.Write, lookup+s.cfg.Bus.Port, int(x.x.Stash), x.x.Agent)
	x.o.Served = served
	return done
}

func (s *SMMU) emit(e hwevent.Event) {
	s.ev = e
	s.obs.Event(&s.ev)
}
