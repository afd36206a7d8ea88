package soc

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/sim"
)

// DCOp is a data cache maintenance instruction by VA to the point of
// coherency.
type DCOp uint8

const (
	CVAC  DCOp = iota // DC CVAC: clean (write back dirty data, keep the line)
	IVAC              // DC IVAC: invalidate (discard, even dirty data, unless maint.ivac_cleans)
	CIVAC             // DC CIVAC: clean and invalidate
)

var dcNames = [...]string{"cvac", "ivac", "civac"}

// writeBackWhy names the DC op that wrote a dirty line back (DC IVAC only
// does where maint.ivac_cleans).
var writeBackWhy = [...]hwevent.Reason{hwevent.ReasonCVAC, hwevent.ReasonIVAC, hwevent.ReasonCIVAC}

func (o DCOp) String() string {
	if int(o) < len(dcNames) {
		return "dc " + dcNames[o]
	}
	return fmt.Sprintf("dc(%d)", uint8(o))
}

// DC issues op for every line overlapping [va, va+n), one instruction per
// line as the kernel's dcache_*_poc loops do. Each op occupies the core for
// maint.issue, takes a slot of the maint.inflight queue (waiting for the
// oldest op when full) and completes maint.clean_latency or
// maint.inval_latency after issue, or later if it writes back a dirty line
// and DRAM is busy. The cache state changes at issue. Nothing waits for
// completion here: DSB does. It returns the core time spent issuing.
func (m *Machine) DC(op DCOp, va, n uint64) (sim.Time, error) {
	if op > CIVAC {
		return 0, fmt.Errorf("dc: op %d; allowed cvac, ivac, civac", op)
	}
	if n == 0 {
		return 0, nil
	}
	t0 := m.core.now
	lmask := m.lineBytes - 1
	end := va + n
	if end < va {
		return 0, fmt.Errorf("dc: range %#x+%d wraps the address space", va, n)
	}
	c := cursor{va: va &^ lmask}
	var err error
	m.ob.inOp = true
	for c.va < end {
		if err = m.advance(&c, false); err != nil {
			break
		}
		m.dcLines(op, c.tr.PA>>m.lineShift, 1)
		c.step(min(m.lineBytes, c.left))
		// The rest of this translation's whole lines without asking
		// advance each time.
		if c.va < end && c.left >= m.lineBytes {
			k := min((end-c.va+lmask)>>m.lineShift, c.left>>m.lineShift)
			m.dcLines(op, c.tr.PA>>m.lineShift, k)
			c.step(k << m.lineShift)
		}
	}
	m.ob.endQuiet()
	m.core.busy += m.core.now - t0
	return m.core.now - t0, err
}

// warmAhead is how many lines dcLines warms (cache.Array.Warm) at once,
// that many lines ahead, in the last level's sets when that level has at least warmEntries entries (a
// large SLC, whose arrays are far beyond the host's caches): the lookups
// of those lines then find their data in the host's caches. It changes
// nothing the model computes.
const (
	warmAhead   = 8
	warmEntries = 1 << 16
)

// dcLines issues op on the n lines from first, one instruction per line.
// Each op waits for a slot of the maintenance queue, occupies the core for
// maint.issue and completes after the clean or invalidate latency (or its
// write-back). Where a whole group of cache.GroupKeys lines is absent
// from every level, its ops skip the lookups (a DMA buffer's maintenance
// over memory the CPU never touched) for as long as no fill happens
// (another agent's step, say a walk through the core's caches, could
// bring a line in; then the lookups decide again). Unbatched mode
// (SetBatching(false)) looks every line up. The per-op work is this one
// loop: an absent line costs no call, a held one the lookup's.
func (m *Machine) dcLines(op DCOp, first, n uint64) {
	lat := m.maint.latency(op)
	big := m.hier.lv[len(m.hier.lv)-1] // (see warmAhead)
	warm := big.Entries() >= warmEntries
	for line, end := first, first+n; line < end; {
		if m.maint.sinceProgress >= ProgressLines && m.Progress != nil {
			m.ob.quiet.n = 0
			m.Progress(int(m.maint.sinceProgress))
			m.maint.sinceProgress = 0
		}
		k := min(end, (line|(cache.GroupKeys-1))+1) - line
		m.maint.sinceProgress += k
		absent, fills := !m.dma.unbatched && m.hier.absent(line), m.hier.fills()
		for ; k > 0; k, line = k-1, line+1 {
			m.sync()
			var wait sim.Time
			m.core.now, wait = m.maint.issue(m.core.now)
			m.sync()
			m.cnt[DCStall] += uint64(wait)
			m.cnt[DCOps]++
			m.cnt[DCCVAC+Counter(op)]++
			done := m.core.now + lat
			if !absent || m.hier.fills() != fills {
				absent = false
				if warm && line%warmAhead == 0 {
					big.Warm(line+warmAhead, warmAhead)
				}
				done = m.dcMaint(op, line, done)
			}
			if m.ob.obs != nil {
				if idx := m.ver.Index(line); !m.ob.quietAt(hwevent.DCOp, line, 0, uint8(op), idx) {
					m.reportLine(hwevent.DCOp, line, idx, 0, done, uint8(op), hwevent.ReasonNone)
				}
			}
			if !m.maint.q.Done(done) {
				m.maint.q.Insert(done)
			}
			if done > m.maint.done {
				m.maint.done = done
			}
		}
	}
}

// dcMaint is what a DC op issued on line does to the caches and DRAM;
// done is its completion if it writes nothing back, and it returns the
// completion.
func (m *Machine) dcMaint(op DCOp, line uint64, done sim.Time) sim.Time {
	// One lookup per level; the newest dirty copy is the one nearest the
	// core.
	var ents [3]int // entry per level (L1D, L2, L3), -1 when absent
	dirtyVer, dirty, held := uint32(0), false, false
	for i, c := range m.hier.lv {
		e := -1
		if !m.hier.absentAt(i, line) { // the common case skips the call
			e = c.Find(line)
			held = held || e >= 0
		}
		ents[i] = e
		if e >= 0 && !dirty && c.Meta[e].Dirty {
			dirtyVer, dirty = c.Meta[e].Ver, true
		}
	}
	clean := op != IVAC || m.maint.cfg.IVACCleans
	if dirty {
		idx := -1
		if m.ver.Tracked() {
			idx = m.ver.Index(line)
		}
		if clean {
			m.writeBack(line, dirtyVer, writeBackWhy[op])
			if m.dram.free > done {
				done = m.dram.free
			}
		} else if idx >= 0 && dirtyVer > m.ver.Mem[idx] {
			m.lost(hwevent.Discard, line, hwevent.ReasonNone)
		} else {
			if m.chk.copyState(idx) == copyDoomed { // the newer data under it survives
				m.chk.settle(idx, &m.chk.fates.Discarded)
			}
			if m.ob.obs != nil {
				m.reportLine(hwevent.Discard, line, idx, 0, 0, 0, hwevent.ReasonNone)
			}
		}
	}
	if held && op != CVAC && m.chk.nOutdated != 0 {
		if idx := m.ver.Index(line); m.chk.copyState(idx) == copyStale {
			m.chk.settle(idx, &m.chk.fates.Invalidated)
		}
	}
	for i := 0; held && i < len(m.hier.lv); i++ { // held: some level has the line
		if c, e := m.hier.lv[i], ents[i]; e >= 0 {
			if op == CVAC {
				// Every copy now holds the data written back to the
				// PoC: an older copy below must not resurface once the
				// cleaned one is evicted silently.
				c.Meta[e].Dirty = false
				if dirty {
					c.Meta[e].Ver = dirtyVer
				}
			} else {
				c.Drop(e)
			}
			if m.ob.obs != nil {
				k := hwevent.Drop
				if op == CVAC {
					k = hwevent.Update
				}
				m.noteEntry(k, i, e, line)
			}
		}
	}
	return done
}

// DSB is DSB SY: the core waits until every outstanding DC op and posted
// store has completed, then for the barrier itself, maint.dsb: the
// barrier's own round trip (its request and acknowledge through the
// interconnect, the pipeline restart), paid after the drain and not
// overlapped with it. An idle DSB costs maint.dsb alone. Batching an SG
// list's barriers (MODEL.md section 2) saves one drain and one maint.dsb
// per entry; with maint.inflight bounded as the cores' manuals bound it,
// the drain alone is far too short for the published saving. It returns
// the time it took, which is also added to dsb_stall_us.
func (m *Machine) DSB() sim.Time {
	m.sync() // agents due by now report first (the trace stays in time order)
	t0 := m.core.now
	end := max(m.core.now, m.maint.done, m.dram.posted) + m.maint.cfg.DSB
	m.cnt[DSBCount]++
	m.cnt[DSBStall] += uint64(end - t0)
	m.core.now = end
	m.core.busy += end - t0
	if m.ob.obs != nil {
		m.ob.emit(hwevent.Event{T: t0, End: end, Kind: hwevent.DSBWait, Agent: hwevent.Core, Level: -1, Set: -1, Way: -1})
	}
	return end - t0
}

// Outstanding returns when the last outstanding DC op completes (for a
// gauge of in-flight maintenance).
func (m *Machine) Outstanding() sim.Time { return m.maint.done }

// OutstandingDC returns how many DC ops have not completed at the core's
// current time (for a gauge of in-flight maintenance).
func (m *Machine) OutstandingDC() int {
	return m.maint.Snapshot(m.core.now).InFlight
}

// ProgressLines is how many lines of cache maintenance run between two
// calls of Machine.Progress (a few milliseconds of work as WebAssembly).
const ProgressLines = 4096
