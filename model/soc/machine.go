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

	cfg       Config
	rng       *sim.RNG
	lineShift uint
	lineBytes uint64

	// The units, each owning its state (see their types); the machine
	// runs the per-line path across them.
	core  Core      // clock, issue, fill slots, prefetcher, write streaming
	hier  Hierarchy // L1D, L2[, L3] and their lookup hints
	dram  DRAM      // the shared channel
	nc    NCPath    // Normal-NC and Device transactions
	maint Maint     // outstanding DC ops
	dma   Masters   // DMA masters and agents on the event queue

	buddy  *mem.Buddy
	space  mem.Space // software view of every buffer (virt_to_phys)
	tr     mem.Translator
	x      *translation // page tables and TLBs (tlb.enabled), else nil
	ver    *mem.Versions
	nextVA uint64

	cnt [numCounters]uint64
	chk checks      // hazards, stale lines, outdated copies, SWIOTLB shadows
	ob  observation // the observer and what it watches (observe.go)
}

// New builds a machine from a validated copy of cfg, with all caches empty,
// all memory free and the run's RNG seeded with seed.
func New(cfg Config, seed uint64) (*Machine, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	m := &Machine{cfg: cfg, rng: sim.NewRNG(seed), nextVA: 0x4000_0000_0000}
	h, err := newHierarchy(&cfg, m.rng)
	if err != nil {
		return nil, err
	}
	m.hier = h
	m.lineShift = h.lv[0].LineShift
	m.lineBytes = 1 << m.lineShift
	m.core = newCore(cfg.Core, cfg.Prefetch)
	m.dram = newDRAM(cfg.DRAM, int(m.lineBytes))
	m.nc = newNCPath(cfg.NC)
	m.maint = newMaint(cfg.Maint)
	m.dma = newMasters()
	b, err := mem.NewBuddy(cfg.MemBytes, cfg.MaxOrder)
	if err != nil {
		return nil, err
	}
	m.buddy = b
	m.tr = &m.space
	m.ver = mem.NewVersions(m.lineShift)
	m.ob = observation{lineShift: m.lineShift, lineBytes: m.lineBytes, ver: m.ver}
	if cfg.TLB.Enabled {
		x, err := newTranslation(&cfg.TLB, m.buddy, m)
		if err != nil {
			return nil, err
		}
		m.x, m.tr = x, x.core
	}
	return m, nil
}

// Config returns the machine's configuration.
func (m *Machine) Config() Config { return m.cfg }

// RNG returns the run's random number generator (for workloads).
func (m *Machine) RNG() *sim.RNG { return m.rng }

// Now returns the core's current time.
func (m *Machine) Now() sim.Time { return m.core.now }

// LineBytes returns the cache line size.
func (m *Machine) LineBytes() uint64 { return m.lineBytes }

// WaitUntil idles the core until t (polling a device, waiting for an
// interrupt); idle time is not counted in cpu_cycles.
func (m *Machine) WaitUntil(t sim.Time) { m.core.wait(t) }

// Spend charges d of core time for work the model does not detail
// (driver bookkeeping, a syscall).
func (m *Machine) Spend(d sim.Time) { m.core.spend(d) }

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
	if i < 0 || i >= len(m.hier.lv) {
		return nil
	}
	return m.hier.lv[i]
}

// Levels returns the number of cache levels.
func (m *Machine) Levels() int { return len(m.hier.lv) }

// Hazards returns the correctness events the machine detected, in
// detection order: stale CPU reads (LineRead with Stale), stale device
// reads (DeviceStaleRead), newer data destroyed (WriteBack or Discard with
// Lost). Adjacent events of the same kind, flags and reason are merged
// into one (Bytes grows), so a whole stale buffer is one event.
func (m *Machine) Hazards() []hwevent.Event {
	return append([]hwevent.Event(nil), m.chk.hazards...)
}

// HazardsDropped returns how many hazards were detected after MaxHazards
// were kept (they still count in the counters).
func (m *Machine) HazardsDropped() int { return m.chk.dropped }

// hazard records a correctness event and reports it when watched (a
// stale LineRead is reported by the read itself).
func (m *Machine) hazard(e hwevent.Event) {
	if m.ob.obs != nil && e.Kind != hwevent.LineRead && m.ob.watched(e.Addr>>m.lineShift) {
		m.ob.emit(e)
	}
	m.chk.record(e)
}

// lineEvent is a line event of the core at its current time.
func (m *Machine) lineEvent(k hwevent.Kind, line uint64, f hwevent.Flags) hwevent.Event {
	return hwevent.Event{T: m.core.now, Kind: k, Flags: f, Agent: hwevent.Core, Writer: m.ob.writerOf(line),
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
		x.port.at, x.core.At = m.core.now, m.core.now
		if isListVA(va) {
			*t, err = x.translateList(va, write)
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
	m.core.now += t.Cost
	m.cnt[L1DTLBRefill] += uint64(t.L1Refill)
	m.cnt[L2DTLBRefill] += uint64(t.L2Refill)
	m.cnt[DTLBWalk] += uint64(t.Walk)
	return nil
}
