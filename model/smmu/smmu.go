package smmu

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
)

// EventLevel is the Level of the TBU TLB in hwevent TLB events (0 and 1
// are a core's L1 and L2 TLBs).
const EventLevel = 2

// SMMU is one MMU-500: the global registers, the context banks, the TCU
// and the TBUs.
type SMMU struct {
	cfg   Config
	Regs  Regs
	bus   Bus
	banks []*ContextBank
	tbus  []*TBU
	tcu   tcu
	obs   hwevent.Observer
	ev    hwevent.Event // scratch: events are handed out without allocating
	// faults are the first maxFaults recorded; faultCount counts all.
	faults     []FaultRecord
	faultCount uint64
	steps      []mmu.Step // scratch for traced walks
}

// New builds an SMMU over bus with the given registers (context banks
// and TBUs are added next; Regs is checked by Check once they are).
func New(cfg Config, regs Regs, bus Bus) (*SMMU, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if bus == nil {
		return nil, fmt.Errorf("bus: the SMMU needs an interconnect below it")
	}
	return &SMMU{cfg: cfg, Regs: regs, bus: bus}, nil
}

// Config returns the hardware configuration.
func (s *SMMU) Config() Config { return s.cfg }

// SetObserver makes s report TBU TLB lookups and fills and the TCU's walk
// steps to o (nil: none).
func (s *SMMU) SetObserver(o hwevent.Observer) { s.obs = o }

// Check validates the registers against the context banks.
func (s *SMMU) Check() error { return s.Regs.Validate(len(s.banks)) }

// ContextBank is one translation context: a page table (stage 1 or
// stage 2; both use the LPAE format the mmu walker reads) and its walker
// in the TCU, whose descriptor reads go through the bus.
type ContextBank struct {
	Stage  int
	PT     *mmu.PageTable
	walker *mmu.Walker
	port   busPort
}

// Walker exposes the bank's walker (its statistics).
func (c *ContextBank) Walker() *mmu.Walker { return c.walker }

// busPort is mmu.Port for a context bank's walks: values from the
// descriptor memory, time from an 8-byte read through the bus issued at
// at (advanced by each read: a walk's reads are dependent).
type busPort struct {
	mem *mmu.Memory
	bus Bus
	at  sim.Time
}

func (p *busPort) Read64(pa uint64) (uint64, sim.Time) {
	v, _ := p.mem.Read64(pa)
	done := p.bus.Read(p.at, pa, 8)
	d := done - p.at
	p.at = done
	return v, d
}

func (p *busPort) Write64(pa, v uint64) sim.Time { return p.mem.Write64(pa, v) }

// AddContextBank adds a bank translating through pt, whose descriptors
// live in tables; it returns the bank's index (CBNDX).
func (s *SMMU) AddContextBank(stage int, pt *mmu.PageTable, tables *mmu.Memory) (int, error) {
	if stage != 1 && stage != 2 {
		return -1, fmt.Errorf("context bank %d: stage: %d; allowed 1 or 2", len(s.banks), stage)
	}
	if len(s.banks) >= 128 {
		return -1, fmt.Errorf("context bank: at most 128 (ID1.NUMCB)")
	}
	if pt == nil || tables == nil {
		return -1, fmt.Errorf("context bank %d: no page table", len(s.banks))
	}
	cb := &ContextBank{Stage: stage, PT: pt}
	cb.port = busPort{mem: tables, bus: s.bus}
	w, err := mmu.NewWalker(s.cfg.WalkCache, pt, &cb.port)
	if err != nil {
		return -1, err
	}
	cb.walker = w
	s.banks = append(s.banks, cb)
	return len(s.banks) - 1, nil
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
	free  sim.Time // when its pipeline accepts the next request
	Stats TCUStats
}

// TCUStats returns the TCU's counters.
func (s *SMMU) TCUStats() TCUStats { return s.tcu.Stats }

// answer is the TCU's reply to one TBU miss.
type answer struct {
	t      sim.Time // when the reply leaves the TCU
	d      Decision
	pa     uint64
	leaf   mmu.Leaf
	ok     bool // a translation or bypass (not a fault)
	walked bool
}

// resolve is one TBU miss at the TCU, arriving at at: the stream-match
// lookup, then for a translating stream the context bank's walk.
func (s *SMMU) resolve(at sim.Time, sid uint16, va uint64, agent uint8) answer {
	c := &s.tcu
	c.Stats.Requests++
	start := max(at, c.free)
	c.Stats.Wait += start - at
	c.free = start + s.cfg.Cycles(s.cfg.TCUIssueCycles)
	t := start + s.cfg.Cycles(s.cfg.MatchCycles)
	d := s.Regs.Decide(sid)
	switch d.Route {
	case RouteBypass, RouteUnmatched, RouteDisabled:
		return answer{t: t, d: d, pa: va, ok: true}
	case RouteFault:
		s.fault(FaultRecord{T: t, SID: sid, Kind: d.Fault, CB: -1, Addr: va})
		return answer{t: t, d: d}
	}
	cb := s.Bank(d.CB)
	if cb == nil { // S2CR names a bank that does not exist: checked by Check, recorded if not
		s.fault(FaultRecord{T: t, SID: sid, Kind: FaultS2CR, CB: d.CB, Addr: va})
		return answer{t: t, d: Decision{Route: RouteFault, SMR: d.SMR, CB: d.CB, Fault: FaultS2CR}}
	}
	c.Stats.Walks++
	cb.port.at = t
	var r mmu.Result
	if s.obs != nil {
		r, s.steps = cb.walker.Trace(va, s.steps[:0])
		at := t
		for _, st := range s.steps {
			at += st.Cost
			s.emit(hwevent.Event{T: at, Kind: hwevent.WalkStep, Agent: agent, Level: int8(st.Level), Set: -1, Way: -1,
				Addr: st.DescAddr, Flags: hitIf(st.WalkCache)})
		}
	} else {
		r = cb.walker.Walk(va)
	}
	c.Stats.WalkReads += uint64(r.Reads)
	t = cb.port.at
	if !r.OK {
		s.fault(FaultRecord{T: t, SID: sid, Kind: FaultTF, CB: d.CB, Addr: va, Level: r.Fault.Level})
		d.Route, d.Fault = RouteFault, FaultTF
		return answer{t: t, d: d, walked: true}
	}
	return answer{t: t, d: d, pa: r.Leaf.PA + (va - r.Leaf.VA), leaf: r.Leaf, ok: true, walked: true}
}

func hitIf(b bool) hwevent.Flags {
	if b {
		return hwevent.Hit
	}
	return 0
}

func (s *SMMU) emit(e hwevent.Event) {
	s.ev = e
	s.obs.Event(&s.ev)
}
