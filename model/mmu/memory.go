package mmu

import "github.com/dmaviz/dmaviz/model/sim"

// Port is how page-table code reaches memory: one naturally aligned 8-byte
// descriptor read or write at a physical address, returning the time it
// took. The SoC provides one that routes the access through the
// requester's caches and DRAM (so walks compete with other traffic);
// Memory itself is a Port with no cost; FixedPort is the test double.
type Port interface {
	Read64(pa uint64) (uint64, sim.Time)
	Write64(pa, v uint64) sim.Time
}

// Memory holds the contents of page-table frames, indexed by physical
// address. Only frames registered as tables hold data; any other address
// reads as 0 (an invalid descriptor), so a corrupt table pointer ends in a
// translation fault, never a crash. Writes outside table frames are
// dropped.
type Memory struct {
	frames map[uint64]*[tableSlots]uint64 // by PFN; looked up, never iterated
	// recent[pfn % recentFrames] caches the frame of a table PFN looked up
	// lately (nil: none), so that walks that alternate between a few
	// tables (a trace unit's buffer and a copy's source and destination)
	// find them without a map lookup (as WebAssembly, without an AES hash,
	// the map lookups were about 1 % of spe-aux's time).
	// Invariant: a non-nil entry is frames[its pfn].
	recent [recentFrames]recentFrame
}

// recentFrames is the number of Memory.recent slots (a power of two).
const recentFrames = 64

type recentFrame struct {
	pfn uint64
	f   *[tableSlots]uint64
}

// NewMemory returns an empty descriptor store.
func NewMemory() *Memory { return &Memory{frames: map[uint64]*[tableSlots]uint64{}} }

func (m *Memory) frame(pa uint64) *[tableSlots]uint64 {
	pfn := pa >> PageShift
	c := &m.recent[pfn%recentFrames]
	if c.f != nil && c.pfn == pfn {
		return c.f
	}
	f := m.frames[pfn]
	if f != nil {
		c.pfn, c.f = pfn, f
	}
	return f
}

// Read64 implements Port at no cost.
func (m *Memory) Read64(pa uint64) (uint64, sim.Time) {
	if f := m.frame(pa); f != nil {
		return f[pa&(PageSize-1)>>3], 0
	}
	return 0, 0
}

// Write64 implements Port at no cost.
func (m *Memory) Write64(pa, v uint64) sim.Time {
	if f := m.frame(pa); f != nil {
		f[pa&(PageSize-1)>>3] = v
	}
	return 0
}

// addTable registers a zeroed table frame at pa.
func (m *Memory) addTable(pa uint64) {
	m.frames[pa>>PageShift] = new([tableSlots]uint64)
	m.recent[pa>>PageShift%recentFrames] = recentFrame{}
}

// dropTable forgets the table frame at pa.
func (m *Memory) dropTable(pa uint64) {
	delete(m.frames, pa>>PageShift)
	m.recent[pa>>PageShift%recentFrames] = recentFrame{}
}

// IsTable reports whether pa lies in a registered table frame.
func (m *Memory) IsTable(pa uint64) bool { return m.frame(pa) != nil }

// Tables returns the number of table frames held.
func (m *Memory) Tables() int { return len(m.frames) }

// FixedPort is a Port that charges a fixed time per read and per write and
// counts them (and, when Logging, records each read address): the stand-in
// for the SoC's cached port in tests.
type FixedPort struct {
	Mem           *Memory
	Read, Write   sim.Time
	Reads, Writes uint64
	Logging       bool
	Log           []uint64
}

// Read64 implements Port.
func (p *FixedPort) Read64(pa uint64) (uint64, sim.Time) {
	p.Reads++
	if p.Logging {
		p.Log = append(p.Log, pa)
	}
	v, _ := p.Mem.Read64(pa)
	return v, p.Read
}

// Write64 implements Port.
func (p *FixedPort) Write64(pa, v uint64) sim.Time {
	p.Writes++
	p.Mem.Write64(pa, v)
	return p.Write
}
