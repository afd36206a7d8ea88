package soc

import (
	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// This file is the per-line path shared by every operation. It must stay
// allocation-free and free of interface calls when no observer is set.

// readDRAM is a line fill from DRAM requested at start: it returns when
// the data is delivered and its version.
func (m *Machine) readDRAM(idx int, start sim.Time) (sim.Time, uint32) {
	m.cnt[BusAccess]++
	m.cnt[BusReadLine]++
	var ver uint32
	if idx >= 0 {
		ver = m.ver.Mem[idx]
	}
	return m.dram.load(m.core.now, start, m.dram.lineXfer), ver
}

// fetch brings line from level i (1 = L2) or DRAM, starting at start, and
// installs it in levels i.. on the way. It returns when the data is ready
// and its version.
func (m *Machine) fetch(i int, line uint64, idx int, start sim.Time) (sim.Time, uint32) {
	if i == len(m.hier.lv) {
		return m.readDRAM(idx, start)
	}
	c := m.hier.lv[i]
	m.cnt[L1DCache+Counter(2*i)]++ // l2d_cache, l3d_cache
	e, hit := c.Claim(line, true)
	if hit {
		return max(start+c.Cfg.Latency, c.Meta[e].Ready), c.Meta[e].Ver
	}
	return m.fetchMiss(i, e, line, idx, start)
}

// fetchMiss completes fetch after line missed level i and claimed entry e
// there: it fetches from below and fills e.
func (m *Machine) fetchMiss(i, e int, line uint64, idx int, start sim.Time) (sim.Time, uint32) {
	c := m.hier.lv[i]
	m.cnt[L1DCacheRefill+Counter(2*i)]++
	var ready sim.Time
	var ver uint32
	if i+1 == len(m.hier.lv) { // DRAM without recursion (the common miss)
		ready, ver = m.readDRAM(idx, start)
	} else {
		ready, ver = m.fetch(i+1, line, idx, start)
	}
	m.filled(c, i, e, cache.Line{Ready: ready, Ver: ver})
	return ready, ver
}

// filled completes a Claim that missed at level i (c): entry e gets its
// data (meta), and the line it displaced goes down a level if dirty.
func (m *Machine) filled(c *cache.Cache, i, e int, meta cache.Line) {
	c.Meta[e] = meta
	if c.Evicted.Dirty || m.ob.obs != nil && m.ob.shown(i, e) || m.chk.nOutdated != 0 && c.Evicted.Valid {
		m.displaced(i, e)
	}
}

// displaced is the rare part of filled: a dirty victim (c.Evicted of
// level i, read in place rather than passed as a copy) goes down (it
// cannot land in level i), a clean one may have been the last stale copy
// of its line, and the observer sees the new entry.
func (m *Machine) displaced(i, e int) {
	if v := &m.hier.lv[i].Evicted; v.Dirty {
		m.putBack(i+1, v.Line, v.Ver)
	} else if m.chk.nOutdated != 0 && v.Valid {
		m.evicted(i, v.Line)
	}
	if m.ob.obs != nil && m.ob.shown(i, e) {
		k, _ := m.hier.lv[i].Key(e)
		m.noteEntry(hwevent.Fill, i, e, k)
	}
}

// putBack writes a dirty line evicted from level i-1 into level i (or DRAM).
func (m *Machine) putBack(i int, line uint64, ver uint32) {
	if i == len(m.hier.lv) {
		m.writeBack(line, ver, hwevent.ReasonEvict)
		return
	}
	c := m.hier.lv[i]
	m.cnt[L1DCache+Counter(2*i)]++
	e, hit := c.Claim(line, true)
	if hit {
		c.Meta[e].Dirty, c.Meta[e].Ver = true, ver
		if m.ob.obs != nil {
			m.noteEntry(hwevent.Update, i, e, line)
		}
		return
	}
	m.filled(c, i, e, cache.Line{Ready: m.core.now, Ver: ver, Dirty: true})
}

// writeBack sends a dirty line to DRAM and checks whether that destroyed
// newer data (a device wrote the line after the CPU dirtied its copy);
// why says what sent it (an eviction, a DC op), for the hazard.
func (m *Machine) writeBack(line uint64, ver uint32, why hwevent.Reason) {
	m.cnt[BusAccess]++
	m.cnt[BusWriteLine]++
	m.dram.post(m.core.now, m.dram.lineXfer)
	if !m.ver.Tracked() {
		if m.ob.obs != nil {
			m.noteWriteBack(line, why, 0)
		}
		return
	}
	if idx := m.ver.Index(line); idx >= 0 && m.ver.WriteBack(idx, ver) {
		if m.chk.copyState(idx) == copyDoomed {
			m.chk.settle(idx, &m.chk.fates.Lost)
		}
		m.lost(hwevent.WriteBack, line, why)
	} else if m.ob.obs != nil {
		m.noteWriteBack(line, why, 0)
	}
}

// noteWriteBack reports a write-back that destroyed nothing.
func (m *Machine) noteWriteBack(line uint64, why hwevent.Reason, f hwevent.Flags) {
	m.reportLine(hwevent.WriteBack, line, m.ver.Index(line), f, 0, 0, why)
}

// lost counts and records newer data destroyed on line by a write-back or
// a discard (k).
func (m *Machine) lost(k hwevent.Kind, line uint64, why hwevent.Reason) {
	m.cnt[LostBytes] += m.lineBytes
	e := m.lineEvent(k, line, hwevent.Lost)
	e.Why = why
	m.hazard(e)
}

// writeLine is a cacheable store to line; full says the stores cover the
// whole line (write streaming may then skip the fill).
func (m *Machine) writeLine(line uint64, idx int, full bool) {
	l1 := m.hier.lv[0]
	// A miss fills the line unless this store enters or continues write
	// streaming; decided before the lookup so the fill is claimed in the
	// same pass.
	ws := full && m.core.cfg.WriteStreamAfter > 0
	streams := ws && m.core.wsRun >= m.core.cfg.WriteStreamAfter
	var e int
	var hit bool
	if streams {
		e = -1
		if !m.hier.absentAt(0, line) { // the common case skips the call
			e = l1.Lookup(line)
		}
		hit = e >= 0
	} else {
		e, hit = l1.Claim(line, true)
	}
	if hit {
		l1.Meta[e].Dirty = true
		m.core.wsRun = 0
	} else {
		if !ws {
			m.core.wsRun = 0
		} else if m.core.wsRun++; streams {
			m.streamWrite(line, idx, 1) // L1 already missed
			return
		}
		m.cnt[L1DCacheRefill]++
		start, wait := m.core.fillSlot()
		m.sync()
		m.cnt[MLPStall] += uint64(wait)
		ready, ver := m.fetch(1, line, idx, start)
		m.filled(l1, 0, e, cache.Line{Ready: ready, Ver: ver, Dirty: true})
		if !m.core.mshr.Done(ready) {
			m.core.mshr.Insert(ready)
		}
		m.train(line)
	}
	if idx >= 0 {
		l1.Meta[e].Ver = m.ver.WriteCached(idx)
		if m.chk.nOutdated != 0 {
			m.chk.rewritten(idx)
		}
	}
	if m.ob.obs != nil {
		if m.ob.shown(0, e) {
			m.noteEntry(hwevent.Update, 0, e, line)
		}
		m.noteLine(hwevent.LineWrite, line, idx, 0)
	}
}

// streamWrite writes a full line straight to DRAM (no allocation); any
// cached copy in levels from.. is superseded and dropped.
func (m *Machine) streamWrite(line uint64, idx int, from int) {
	for i := from; i < len(m.hier.lv); i++ {
		if m.hier.absentAt(i, line) { // the common case skips the call
			continue
		}
		if e := m.hier.lv[i].Find(line); e >= 0 {
			m.hier.lv[i].Drop(e)
			if m.ob.obs != nil {
				m.noteEntry(hwevent.Drop, i, e, line)
			}
		}
	}
	m.cnt[BusAccess]++
	m.cnt[BusWriteStream]++
	m.dram.post(m.core.now, m.dram.lineXfer)
	if idx >= 0 {
		m.ver.WriteMem(idx, mem.CPU)
		if m.chk.nOutdated != 0 {
			m.chk.rewritten(idx)
		}
	}
	if m.ob.obs != nil {
		m.noteLine(hwevent.LineWrite, line, idx, 0)
	}
}

// uncached performs ops Normal-NC or Device accesses of width bytes
// each, at pa, pa+width, ... (within one line), the core issuing one per
// issue time. A load is one read transaction, or several when it is wider
// than nc.read_bytes (each carrying nc.read_bytes); each transaction takes
// a slot of the NC (or Device) queue and goes to DRAM, bypassing the
// caches, and its data arrival is tracked. A store is posted (one
// transaction: the store buffer merges it into a write burst). The
// per-transaction work is this one loop (a copy through a Normal-NC alias
// runs it four times per line); the counters are added once, and whether
// the observer wants the transactions is decided once for the line.
func (m *Machine) uncached(pa uint64, attr mem.Attr, width int, ops uint64, write bool) {
	q := m.nc.queue(attr)
	per, size := m.nc.split(width, write) // transactions per access, bytes each
	x, lat := m.dram.xfer(size), m.nc.cfg.Latency
	issue := m.core.cfg.LoadIssue
	if write {
		issue = m.core.cfg.StoreIssue
	}
	report := m.ob.obs != nil && m.ob.kinds.Has(hwevent.NCTransaction) && m.ob.watched(pa>>m.lineShift)
	var stall uint64
	for k := uint64(0); k < ops; k++ {
		for j := uint64(0); j < per; j++ {
			m.sync()
			start, wait := q.Slot(m.core.now)
			m.core.now = start
			m.sync()
			stall += uint64(wait)
			var done sim.Time
			if write {
				done = m.dram.post(m.core.now, x) + lat
			} else {
				done = m.dram.load(m.core.now, start+lat, x)
				if done > m.core.loadsDone {
					m.core.loadsDone = done
				}
			}
			if !q.Done(done) {
				q.Insert(done)
			}
			if report {
				m.noteNC(pa+k*uint64(width)+j*uint64(size), size, start, done, write)
			}
		}
		m.core.now += issue
	}
	n := ops * per
	m.cnt[NCStall] += stall
	m.cnt[BusAccess] += n
	if write {
		m.cnt[BusWriteNC] += n
	} else {
		m.cnt[BusReadNC] += n
	}
}

// noteNC reports one Normal-NC or Device transaction at pa.
func (m *Machine) noteNC(pa uint64, width int, start, done sim.Time, write bool) {
	e := hwevent.Event{T: start, End: done, Kind: hwevent.NCTransaction, Flags: hwevent.NC, Agent: hwevent.Core,
		Level: -1, Set: -1, Way: -1, Addr: pa, Bytes: uint64(width)}
	if write {
		e.Flags |= hwevent.Write
	}
	m.ob.emit(e)
}

// train feeds an L1 miss to the prefetcher and issues what it asks for:
// fills into L2 that take prefetch slots and DRAM bandwidth but do not
// stall the core.
func (m *Machine) train(line uint64) {
	first, n, stride := m.core.pf.Train(line)
	if n == 0 || len(m.hier.lv) < 2 {
		return
	}
	l2 := m.hier.lv[1]
	for k := 0; k < n; k++ {
		l := first + uint64(int64(k)*stride)
		// Only L2 is probed: a copy in L1 is newer or equal, and reads
		// and maintenance look at L1 first.
		e, hit := l2.Claim(l, false)
		if hit {
			continue
		}
		start, _ := m.core.pfq.Slot(m.core.now)
		idx := -1
		if m.ver.Tracked() {
			idx = m.ver.Index(l)
		}
		m.cnt[PrefetchLines]++
		m.cnt[L2DCacheRefill]++
		var ready sim.Time
		var ver uint32
		if len(m.hier.lv) == 2 {
			ready, ver = m.readDRAM(idx, start)
		} else {
			ready, ver = m.fetch(2, l, idx, start)
		}
		m.filled(l2, 1, e, cache.Line{Ready: ready, Ver: ver})
		if !m.core.pfq.Done(ready) {
			m.core.pfq.Insert(ready)
		}
	}
}

// checkRead classifies a CPU read of version ver at idx: stale when newer
// data exists anywhere (counted, and recorded as a hazard with what kind
// of staleness it is).
func (m *Machine) checkRead(line uint64, idx int, ver uint32, nc bool) bool {
	if idx < 0 || ver >= m.ver.Latest[idx] {
		return false
	}
	m.cnt[StaleLinesRead]++
	m.chk.markStale(line<<m.lineShift, idx, len(m.ver.Mem))
	if m.chk.nOutdated != 0 {
		m.chk.readOutdated(idx)
	}
	f := hwevent.Stale
	switch {
	case m.ver.Destroyed[idx]:
		f |= hwevent.Lost
	case m.ver.Elsewhere(idx):
		f |= hwevent.Elsewhere
	case nc:
		f |= hwevent.NC
	case m.ver.LatestWriter[idx] == mem.CPU:
		f |= hwevent.OwnWrite
	}
	m.hazard(m.lineEvent(hwevent.LineRead, line, f))
	return true
}
