package soc

import (
	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/sim"
)

// An I/O-coherent agent (a NIC or an engine behind an SMMU's TBU, the
// SMMU's own table walker) reaches memory through the same interconnect
// as the core: its read goes to the home node, which answers from the
// core's caches (a snoop), from the shared L3, or from DRAM; its write
// invalidates the core's copies and lands in DRAM, or, stashed, in the
// core's L2. IOAccess is that path. Its times are derived from the
// machine's own latencies, so a device's read and the core's read of the
// same place cost what the one memory system says (IOTimes).

// Served says where an I/O read was answered.
type Served uint8

const (
	ServedDRAM  Served = iota // no cache held the line
	ServedL3                  // the shared L3 held it
	ServedSnoop               // the core's L1D or L2 held it (snooped)
)

// IOTimes are an I/O-coherent agent's unloaded times from the point where
// its request enters the interconnect to the answer coming back (the
// agent's own path to that point, IOAccess's port, comes on top).
//
// They are derived from the core's load-to-use latencies: the core pays
// its own cluster (an L2 hit, l2.latency) before its request leaves for
// the home node, an I/O agent does not. So:
//
//	home  = l3.latency - l2.latency      the trip to the home node and its L3 lookup
//	L3    = home
//	DRAM  = dram.latency - l2.latency    the same trip, an L3 miss and the DRAM round trip
//	Snoop = 2 x home + l2.latency        the trip to the home node, its trip on to the
//	                                     core's cluster and back (taken as long), and the
//	                                     cluster answering in about its L2 hit time (assumed)
//	Write = home                         a write is acknowledged by the home node
//	                                     (posted: the DRAM write completes later)
//
// Without an L3 the trip to the home node is taken as one L2 hit time
// (assumed: no published figure for the presets without one).
type IOTimes struct {
	L3, DRAM, Snoop, Write sim.Time
}

// IOTimes returns the derived I/O times of the machine's configuration.
func (m *Machine) IOTimes() IOTimes { return m.cfg.IOTimes() }

// IOTimes returns the derived I/O times of a configuration.
func (c *Config) IOTimes() IOTimes {
	l2 := c.L2.Latency
	home := l2
	if c.L3.Size != 0 {
		home = max(c.L3.Latency-l2, 0)
	}
	return IOTimes{L3: home, DRAM: max(c.DRAM.Latency-l2, home), Snoop: 2*home + l2, Write: home}
}

// IOAccess is one transfer of n bytes at pa by an I/O-coherent agent,
// asked at its current time at, whose request reaches the interconnect
// after port (its own path). A read is answered line by line from where
// the line is (IOTimes): a dirty line in the core's caches is forwarded
// and cleaned (DRAM gets the data, as a coherent device's snoop does); a
// line no cache holds occupies the DRAM channel. A write invalidates the
// core's copies of its lines and occupies the channel; its first stash
// lines go instead to the core's L2 (cache stashing: the line arrives
// clean in L2, DRAM written too). It returns when the read data (or the
// write's acknowledgement) is back, and for a read where its slowest line
// was served. Agents ask in queue order, as with PortAccess.
func (m *Machine) IOAccess(at sim.Time, pa uint64, n int, write bool, port sim.Time, stash int, writer uint8) (sim.Time, Served) {
	m.dram.agentAsk(at)
	if m.dma.portHook != nil {
		m.dma.portHook(at, pa, n, write)
	}
	io := m.IOTimes()
	first, end := pa>>m.lineShift, (pa+uint64(max(n, 1))+m.lineBytes-1)>>m.lineShift
	if write {
		m.cnt[DMAWriteBytes] += uint64(n)
		ack := at + port + io.Write
		for line := first; line < end; line++ {
			m.ioWriteLine(line, ack, line-first < uint64(stash), writer)
		}
		// The home node acknowledges once the channel takes the data.
		x := m.dram.xfer(n)
		start := m.dram.channel(at+port+io.Write-x, x)
		return max(ack, start+x), ServedDRAM
	}
	m.cnt[DMAReadBytes] += uint64(n)
	done, served, fromDRAM := at, ServedDRAM, 0
	for line := first; line < end; line++ {
		t, s := m.ioReadLine(line, at+port, io)
		if s == ServedDRAM {
			fromDRAM++
			continue
		}
		if t > done {
			done, served = t, s
		}
	}
	if fromDRAM > 0 {
		x := m.dram.xfer(fromDRAM << m.lineShift)
		start := m.dram.channel(at+port+io.DRAM-x, x)
		if start+x >= done {
			done, served = start+x, ServedDRAM
		}
	}
	return done, served
}

// ioReadLine answers one line of an I/O read arriving at the interconnect
// at t: from the core's L1D or L2 (a snoop: a dirty copy is forwarded and
// cleaned, DRAM gets it), else the L3, else DRAM (timed by the caller).
func (m *Machine) ioReadLine(line uint64, t sim.Time, io IOTimes) (sim.Time, Served) {
	for i, c := range m.hier.lv {
		e := m.hier.find(i, line)
		if e < 0 {
			continue
		}
		meta := &c.Meta[e]
		if i < 2 && meta.Dirty {
			if m.ver.Tracked() {
				if idx := m.ver.Index(line); idx >= 0 {
					m.ver.WriteBack(idx, meta.Ver)
				}
			}
			meta.Dirty = false
			if m.ob.obs != nil {
				m.noteEntryAt(t, hwevent.Update, i, e, line)
			}
		}
		if i < 2 {
			return max(t+io.Snoop, meta.Ready), ServedSnoop
		}
		return max(t+io.L3, meta.Ready), ServedL3
	}
	return 0, ServedDRAM
}

// ioWriteLine applies one line of an I/O write acknowledged at ack: every
// copy in the core's caches is invalidated (the device's data supersedes
// it), then a stashed line is installed clean in the core's L2.
func (m *Machine) ioWriteLine(line uint64, ack sim.Time, stash bool, writer uint8) {
	for i, c := range m.hier.lv {
		if e := m.hier.find(i, line); e >= 0 {
			c.Drop(e)
			if m.ob.obs != nil {
				m.noteEntryAt(ack, hwevent.Drop, i, e, line)
			}
		}
	}
	var ver uint32
	if m.ver.Tracked() {
		if idx := m.ver.Index(line); idx >= 0 {
			ver = m.ver.WriteMem(idx, writer)
		}
	}
	if !stash {
		return
	}
	const l2 = 1
	c := m.hier.lv[l2]
	e, _ := c.Claim(line, true) // a miss: Drop above removed any copy
	m.filled(c, l2, e, cache.Line{Ready: ack, Ver: ver})
}
