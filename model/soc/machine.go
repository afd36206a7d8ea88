package soc

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// MaxHazards bounds the hazards a machine keeps; adjacent ones with the
// same cause are merged first, so a whole stale buffer is one hazard.
const MaxHazards = 256

// Machine is one core, its caches, DRAM and DMA masters. It is
// single-threaded and deterministic: the same Config, seed and calls give
// the same state, counters and times on every platform.
type Machine struct {
	// Progress, when set, is called during a long run of cache
	// maintenance every ProgressLines lines with the lines done since the
	// last call: a pacing hook (it must not touch the machine), so a
	// run's DC ops over a large buffer can give the page its thread back
	// without being split.
	Progress func(lines int)
	// progressLines is the DC ops since the last Progress call.
	progressLines uint64

	cfg       Config
	rng       *sim.RNG
	lineShift uint
	lineBytes uint64

	// now is the core's clock. Invariant: it never decreases; every
	// queued device step earlier than now has run (sync) before the core
	// asks DRAM or starts a line.
	now sim.Time
	// busy is the core time spent in operations (cpu_cycles).
	// Invariant: busy <= now; idling (WaitUntil, FinishDMA) adds to now
	// only.
	busy sim.Time

	lv []*cache.Cache // L1D, L2[, L3]
	pf cache.Prefetcher

	// Pools of outstanding operations model bounded overlap: an access
	// takes the slot that frees first and waits if none is free (see sim.Pool).
	// Invariant: each holds exactly its configured number of completion
	// times (core.mlp, prefetch.inflight, nc.inflight,
	// nc.device_inflight, maint.inflight), as a min-heap.
	mshr, pfq, ncq, devq, dcq sim.Pool

	// dramFree is when DRAM finishes the transfers accepted so far.
	// Invariant: it never decreases; it is only changed by an agent
	// asking at a time no earlier than every earlier ask (devAsk).
	dramFree  sim.Time
	coreAsk   sim.Time // when the core last asked DRAM (it asks in time order)
	devAskAt  sim.Time // latest time a device asked DRAM (devAsk)
	reorders  uint64   // asks that came earlier than lastAsk (0 in a correct run)
	lineXfer  sim.Time // DRAM occupancy of one line
	psPerByte float64

	// dcDone is the latest completion of an outstanding DC op.
	// Invariant: dcDone >= every completion time in dcq (DSB waits for it).
	dcDone sim.Time
	// storeDone is the latest completion of a posted store (NC,
	// streaming, write-back). Invariant: storeDone <= dramFree.
	storeDone sim.Time
	// loadsDone is the latest data arrival of the current operation (the
	// operation ends no earlier). Invariant: reset to 0 at the start of
	// each Copy/Read/Write.
	loadsDone sim.Time
	// wsRun counts consecutive full-line store misses (write streaming
	// starts at core.write_stream_after).
	wsRun int

	buddy  *mem.Buddy
	space  mem.Space // software view of every buffer (virt_to_phys)
	tr     mem.Translator
	x      *translation // page tables and TLBs (tlb.enabled), else nil
	ver    *mem.Versions
	nextVA uint64

	devices []device
	// q holds every device's next step (the agents other than the core),
	// by time then sequence; jobs are the DMA transfers (freeJobs: slots
	// to reuse).
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
	shadows   []shadow                          // SWIOTLB slots standing in for CPU buffers (Shadow), in slot order once shadowWrite sorts them
	// shadowMax is the longest shadow declared since the list was last
	// empty; shadowUnsorted says one was declared below the last.
	shadowMax      uint64
	shadowUnsorted bool
	// staleSeen marks, by version index, the lines in staleLines: the
	// distinct lines read stale since ResetStaleLines.
	// Invariant: staleSeen[Index(pa)] for exactly the pa in staleLines.
	staleSeen  []bool
	staleLines []uint64
	cnt        [numCounters]uint64
	hazards    []hwevent.Event // correctness events, adjacent ones merged (see Hazards)
	dropped    int             // hazards not kept after MaxHazards

	// outdated is, by version index, the copy state of each tracked line
	// (copyCurrent, copyStale, copyDoomed; fates.go), grown on demand;
	// nOutdated counts the lines not copyCurrent, fates how the others
	// ended. Invariant: a line is not copyCurrent only while a cache
	// level holds it.
	outdated  []uint8
	nOutdated int
	fates     Fates

	obs     hwevent.Observer
	scratch hwevent.Event   // the event being reported (emit)
	kinds   hwevent.KindSet // the kinds obs wants (WatchKinds)
	watch   []physRange
	quiet   quietHint // line reports the observer would ignore (Quiet)
	inOp    bool      // a Copy, Read, Write or DC is running (Quiet takes effect)
	windows [3][2]int // per level (L1D, L2, L3): the entries [first set*ways, end set*ways) shown to the observer
}

// fills counts the cache fills so far, every level (each cache counts
// its missing Claims): DC's fast path over absent lines checks that none
// happened meanwhile.
func (m *Machine) fills() uint64 {
	n := m.lv[0].Fills() + m.lv[1].Fills() // L1D and L2 always exist
	if len(m.lv) > 2 {
		n += m.lv[2].Fills()
	}
	return n
}

// New builds a machine from a validated copy of cfg, with all caches empty,
// all memory free and the run's RNG seeded with seed.
func New(cfg Config, seed uint64) (*Machine, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	m := &Machine{cfg: cfg, rng: sim.NewRNG(seed), nextVA: 0x4000_0000_0000, horizon: sim.Never}
	levels := []cache.Config{cfg.L1D, cfg.L2}
	if cfg.L3.Size != 0 {
		levels = append(levels, cfg.L3)
	}
	for _, lc := range levels {
		c, err := cache.New(lc, m.rng.Split())
		if err != nil {
			return nil, err
		}
		m.lv = append(m.lv, c)
	}
	m.lineShift = m.lv[0].LineShift
	m.lineBytes = 1 << m.lineShift
	m.pf = cache.NewPrefetcher(cfg.Prefetch.PrefetchConfig)
	m.mshr, m.pfq = sim.NewPool(cfg.Core.MLP), sim.NewPool(cfg.Prefetch.Inflight)
	m.ncq, m.devq, m.dcq = sim.NewPool(cfg.NC.Inflight), sim.NewPool(cfg.NC.DeviceInflight), sim.NewPool(cfg.Maint.Inflight)
	m.psPerByte = 1e12 / cfg.DRAM.Bandwidth
	m.lineXfer = m.xfer(int(m.lineBytes))
	b, err := mem.NewBuddy(cfg.MemBytes, cfg.MaxOrder)
	if err != nil {
		return nil, err
	}
	m.buddy = b
	m.tr = &m.space
	m.ver = mem.NewVersions(m.lineShift)
	if cfg.TLB.Enabled {
		if err := m.initTranslation(); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// xfer is the DRAM occupancy of a transfer of n bytes.
func (m *Machine) xfer(n int) sim.Time {
	return sim.Time(float64(max(n, m.cfg.DRAM.MinBurst))*m.psPerByte + 0.5)
}

// Config returns the machine's configuration.
func (m *Machine) Config() Config { return m.cfg }

// RNG returns the run's random number generator (for workloads).
func (m *Machine) RNG() *sim.RNG { return m.rng }

// Now returns the core's current time.
func (m *Machine) Now() sim.Time { return m.now }

// LineBytes returns the cache line size.
func (m *Machine) LineBytes() uint64 { return m.lineBytes }

// WaitUntil idles the core until t (polling a device, waiting for an
// interrupt); idle time is not counted in cpu_cycles.
func (m *Machine) WaitUntil(t sim.Time) {
	if t > m.now {
		m.now = t
	}
}

// Spend charges d of core time for work the model does not detail
// (driver bookkeeping, a syscall).
func (m *Machine) Spend(d sim.Time) {
	if d > 0 {
		m.now += d
		m.busy += d
	}
}

// Buddy returns the physical page allocator (to fragment it, or allocate
// page lists directly).
func (m *Machine) Buddy() *mem.Buddy { return m.buddy }

// Space returns the flat address space the default translator uses.
func (m *Machine) Space() *mem.Space { return &m.space }

// SetTranslator replaces the core's address translation. nil restores
// the machine's own: the core's TLB port when translating, else the flat
// Space.
func (m *Machine) SetTranslator(t mem.Translator) {
	if t == nil {
		t = &m.space
		if m.x != nil {
			t = m.x.core
		}
	}
	m.tr = t
}

// Cache returns cache level i (0 = L1D, 1 = L2, 2 = L3 if present), or nil.
func (m *Machine) Cache(i int) *cache.Cache {
	if i < 0 || i >= len(m.lv) {
		return nil
	}
	return m.lv[i]
}

// Levels returns the number of cache levels.
func (m *Machine) Levels() int { return len(m.lv) }

// Hazards returns the correctness events the machine detected, in
// detection order: stale CPU reads (LineRead with Stale), stale device
// reads (DeviceStaleRead), newer data destroyed (WriteBack or Discard with
// Lost). Adjacent events of the same kind, flags and reason are merged
// into one (Bytes grows), so a whole stale buffer is one event.
func (m *Machine) Hazards() []hwevent.Event {
	return append([]hwevent.Event(nil), m.hazards...)
}

// HazardsDropped returns how many hazards were detected after MaxHazards
// were kept (they still count in the counters).
func (m *Machine) HazardsDropped() int { return m.dropped }

// hazard records a correctness event and reports it when watched (a
// stale LineRead is reported by the read itself).
func (m *Machine) hazard(e hwevent.Event) {
	if m.obs != nil && e.Kind != hwevent.LineRead && m.watched(e.Addr>>m.lineShift) {
		m.emit(e)
	}
	if n := len(m.hazards); n > 0 {
		h := &m.hazards[n-1]
		if h.Kind == e.Kind && h.Flags == e.Flags && h.Why == e.Why && h.Addr+h.Bytes == e.Addr {
			h.Bytes += e.Bytes
			return
		}
	}
	if len(m.hazards) >= MaxHazards {
		m.dropped++
		return
	}
	m.hazards = append(m.hazards, e)
}

// lineEvent is a line event of the core at its current time.
func (m *Machine) lineEvent(k hwevent.Kind, line uint64, f hwevent.Flags) hwevent.Event {
	return hwevent.Event{T: m.now, Kind: k, Flags: f, Agent: hwevent.Core, Writer: m.writerOf(line),
		Level: -1, Set: -1, Way: -1, Addr: line << m.lineShift, Bytes: m.lineBytes}
}

// translate translates va into *t, charging translation cost and TLB
// events (a foreign translator reports them in the Translation; the
// machine's own TLBs count them themselves, see Count). *t is written in
// place, on an error too: a returned struct would be copied at every level
// (memory.copy calls in WebAssembly).
func (m *Machine) translate(va uint64, write bool, t *mem.Translation) error {
	var err error
	if x := m.x; x != nil && m.tr == mem.Translator(x.core) {
		x.port.at, x.core.At = m.now, m.now
		if isListVA(va) {
			*t, err = m.translateList(va, write)
		} else {
			err = x.core.TranslateTo(va, write, t)
		}
	} else {
		*t, err = m.tr.Translate(va, write)
	}
	if err != nil {
		return err
	}
	if t.Contig == 0 {
		return fmt.Errorf("translation of %#x returned an empty range", va)
	}
	m.now += t.Cost
	m.cnt[L1DTLBRefill] += uint64(t.L1Refill)
	m.cnt[L2DTLBRefill] += uint64(t.L2Refill)
	m.cnt[DTLBWalk] += uint64(t.Walk)
	return nil
}
