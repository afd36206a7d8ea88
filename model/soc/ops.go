package soc

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// Copy copies n bytes from src to dst (virtual addresses) the way memcpy
// does with loads and stores of width bytes (16 for arm64's LDP/STP of two
// X registers): per line, the loads of the source line then the stores of
// the destination line. Its cost comes from the per-line path: L1 hits at
// the issue rate, misses overlapped up to core.mlp and fed by the
// prefetcher, Normal-NC loads each a bus transaction with nc.inflight in
// flight, DRAM bandwidth shared by all. The copy ends when the last loaded
// data has arrived. It returns the time taken. Every source line read is
// classified: a stale one is counted (stale_lines_read) and recorded as a
// hazard; every one is reported as a LineRead with Copy.
func (m *Machine) Copy(dst, src, n uint64, width int) (sim.Time, error) {
	return m.run(dst, src, n, width, opCopy)
}

// Read loads n bytes from va with loads of width bytes (a CPU consuming a
// buffer); each line is reported as a LineRead (NC through a Normal-NC or
// Device mapping, Stale when it returned old data).
func (m *Machine) Read(va, n uint64, width int) (sim.Time, error) {
	return m.run(0, va, n, width, opRead)
}

// Write stores n bytes at va with stores of width bytes (a CPU producing a
// buffer). Full-line stores may enter write streaming mode (no allocate).
func (m *Machine) Write(va, n uint64, width int) (sim.Time, error) {
	return m.run(va, 0, n, width, opWrite)
}

// Zero writes zeros over [va, va+n) as arm64 Linux's memset(0) and
// clear_page do: DC ZVA, one 64-byte block (DCZID_EL0.BS = 4 on the
// modelled cores) per instruction, which the architecture defines as a
// set of stores to the block (Arm ARM, DC ZVA: "behaves as a set of
// Stores to each byte within the block"). Through a cacheable mapping the
// blocks are full-line stores: they allocate dirty lines in L1 until
// write streaming starts (core.write_stream_after; Cortex-A53 TRM
// DDI 0500D 6.2 "Read allocate mode", Cortex-A76 TRM A6.2.6 "Write
// streaming mode"), then go out without allocating; through Normal-NC
// they are posted stores to DRAM. Nothing is cleaned: what stays dirty
// is the caller's to maintain.
func (m *Machine) Zero(va, n uint64) (sim.Time, error) {
	return m.run(va, 0, n, int(m.lineBytes), opWrite)
}

type opKind uint8

const (
	opCopy opKind = iota
	opRead
	opWrite
)

func (m *Machine) checkWidth(width int) error {
	if width < 1 || uint64(width) > m.lineBytes || width&(width-1) != 0 {
		return fmt.Errorf("width: %d is not a power of two in 1..%d", width, m.lineBytes)
	}
	return nil
}

// cursor walks a virtual range one translation at a time: the fast path
// keeps the current translation for the rest of its TLB entry (every
// access there hits the L1 TLB at no extra cost) and translates again
// when the VA leaves it or the TLBs were invalidated since.
type cursor struct {
	va   uint64
	tr   mem.Translation
	left uint64 // bytes left in tr
	gen  uint64 // the core TLB generation tr was taken at
}

func (m *Machine) advance(c *cursor, write bool) error {
	if c.left != 0 && (m.x == nil || c.gen == m.x.core.Gen()) {
		return nil
	}
	// In place (no copy of the translation; the cursor is not used after
	// an error).
	if err := m.translate(c.va, write, &c.tr); err != nil {
		return err
	}
	c.left = c.tr.Contig
	if m.x != nil {
		c.gen = m.x.core.Gen()
		if p := m.x.perAccess; p != 0 {
			c.left = min(c.left, p-c.va%p)
		}
	}
	return nil
}

func (c *cursor) step(n uint64) {
	c.va += n
	c.tr.PA += n
	c.left -= n
}

func (m *Machine) run(dst, src, n uint64, width int, op opKind) (sim.Time, error) {
	if err := m.checkWidth(width); err != nil {
		return 0, err
	}
	t0 := m.core.now
	m.core.loadsDone = 0
	m.ob.inOp = true
	var s, d cursor // not cursor literals: each is a clear and a copy in WebAssembly
	s.va, d.va = src, dst
	lmask := m.lineBytes - 1
	w := uint64(width)
	var err error
	for off := uint64(0); off < n; {
		seg := n - off
		if op != opWrite {
			if err = m.advance(&s, false); err != nil {
				break
			}
			seg = min(seg, s.left, m.lineBytes-s.tr.PA&lmask)
		}
		if op != opRead {
			if err = m.advance(&d, true); err != nil {
				break
			}
			seg = min(seg, d.left, m.lineBytes-d.tr.PA&lmask)
		}
		ops := (seg + w - 1) / w
		if op != opWrite && seg == m.lineBytes && s.tr.Attr == mem.Normal && (op == opRead || d.tr.Attr == mem.Normal) {
			// Fast path: whole cacheable lines (on both sides of a copy)
			// for as long as the translations last; same per-line work
			// (and the same observer reports) as below without
			// re-deriving the segment each line.
			k := min(s.left, n-off)
			if op == opCopy {
				k = min(k, d.left)
			}
			k >>= m.lineShift
			if m.dma.unbatched {
				k = 1
			}
			rf := hwevent.Flags(0)
			if op == opCopy {
				rf = hwevent.Copy
			}
			m.wholeLines(s.tr.PA>>m.lineShift, d.tr.PA>>m.lineShift, k, ops, op == opCopy, rf)
			seg = k << m.lineShift
			s.step(seg)
			if op == opCopy {
				d.step(seg)
			}
			off += seg
			continue
		}
		if op != opWrite {
			m.load(s.tr.PA, seg, ops, width, s.tr.Attr, op == opCopy)
			s.step(seg)
		}
		if op != opRead {
			m.store(d.tr.PA, seg, ops, width, d.tr.Attr)
			d.step(seg)
		}
		off += seg
	}
	m.ob.endQuiet()
	if m.core.loadsDone > m.core.now {
		m.core.now = m.core.loadsDone
	}
	m.core.busy += m.core.now - t0
	if err != nil {
		return m.core.now - t0, fmt.Errorf("after %v: %w", m.core.now-t0, err)
	}
	return m.core.now - t0, nil
}

// wholeLines reads k whole cacheable lines from src with ops loads each
// and, when store is set, writes them to dst with ops stores each (a
// copy): the per-line path of cacheable loads and of Read and Copy, with
// the run's counters added once. rf qualifies the reads reported (Copy
// for a copy's source).
//
// Per source line the core looks it up in L1; a miss takes an MLP slot,
// gets the line from L2 (a prefetched line, the common case of a stream,
// is found through the recent hint) or below, fills L1 and trains the
// prefetcher. That path is written out in this loop rather than called:
// calls and the spills around them, not the work, dominate the cost of
// simulating a line (most of all as WebAssembly).
func (m *Machine) wholeLines(src, dst, k, ops uint64, store bool, rf hwevent.Flags) {
	ld := sim.Time(ops) * m.core.cfg.LoadIssue
	st := sim.Time(ops) * m.core.cfg.StoreIssue
	wsa := m.core.cfg.WriteStreamAfter
	two := len(m.hier.lv) == 2 // (streaming stores: see below)
	l1, l2 := m.hier.lv[0], m.hier.lv[1]
	lat2 := l2.Cfg.Latency
	accesses := ops * k
	if store {
		accesses *= 2
	}
	m.cnt[MemAccess] += accesses
	m.cnt[L1DCache] += accesses
	// Version indexes advance with the line (step 1) while an end of the
	// run falls in one tracked region, stay -1 (step 0) while it is
	// untracked (both checked once); otherwise per line.
	sidx, sStep, sRun := m.runIndex(src, k)
	didx, dStep, dRun := -1, 0, true
	if store {
		didx, dStep, dRun = m.runIndex(dst, k)
	}
	// Counters of the common paths, added after the loop.
	var refills, stall, streamed uint64
	for i := uint64(0); i < k; i++ {
		m.sync() // the other agents up to now: they may touch DRAM and these lines
		line := src + i
		si, di := sidx+sStep*int(i), didx+dStep*int(i)
		if !sRun {
			si = m.ver.Index(line)
		}
		if !dRun {
			di = m.ver.Index(dst + i)
		}
		var ver uint32
		if e, hit := l1.Claim(line, true); hit {
			if r := l1.Meta[e].Ready; r > m.core.loadsDone {
				m.core.loadsDone = r
			}
			ver = l1.Meta[e].Ver
		} else {
			refills++
			start, wait := m.core.fillSlot()
			m.sync()
			stall += uint64(wait)
			var ready sim.Time
			e2, hit := m.hier.claimRecent(1, line)
			if hit {
				ready, ver = max(start+lat2, l2.Meta[e2].Ready), l2.Meta[e2].Ver
			} else {
				ready, ver = m.fetchMiss(1, e2, line, si, start)
			}
			m.filled(l1, 0, e, cache.Line{Ready: ready, Ver: ver})
			if !m.core.mshr.Done(ready) {
				m.core.mshr.Insert(ready)
			}
			if ready > m.core.loadsDone {
				m.core.loadsDone = ready
			}
			m.train(line)
		}
		m.core.now += ld
		if store {
			m.sync()
		}
		stale := si >= 0 && ver < m.ver.Latest[si] && m.checkRead(line, si, ver, false)
		if m.ob.obs != nil {
			f := rf
			if stale {
				f |= hwevent.Stale
			}
			if !m.ob.quietAt(hwevent.LineRead, line, f, 0, si) {
				m.noteLine(hwevent.LineRead, line, si, f)
			}
		}
		if store {
			// writeLine's streaming store that misses L1 is written out
			// here: no call per line of a large copy when no level holds
			// the line (streamWrite with no copy to drop), one otherwise.
			switch {
			case m.core.wsRun < wsa || wsa <= 0 || !m.hier.absentAt(0, dst+i):
				m.writeLine(dst+i, di, true)
			case two && m.hier.absentAt(1, dst+i):
				m.core.wsRun++
				streamed++
				m.dram.post(m.core.now, m.dram.lineXfer)
				if di >= 0 {
					m.ver.WriteMem(di, mem.CPU)
				}
				if m.ob.obs != nil && !m.ob.quietAt(hwevent.LineWrite, dst+i, 0, 0, di) {
					m.noteLine(hwevent.LineWrite, dst+i, di, 0)
				}
			default:
				m.core.wsRun++
				m.streamWrite(dst+i, di, 1)
			}
			m.core.now += st
		}
	}
	m.cnt[L1DCacheRefill] += refills
	m.cnt[L2DCache] += refills
	m.cnt[MLPStall] += stall
	m.cnt[BusAccess] += streamed
	m.cnt[BusWriteStream] += streamed
}

// runIndex returns how the version indexes of lines [line, line+n) go:
// idx+step*i for line+i when run is set (one tracked region: step 1; no
// tracked line: idx -1, step 0); otherwise they must be looked up per line.
func (m *Machine) runIndex(line, n uint64) (idx, step int, run bool) {
	if m.ver.Untracked(line, n) {
		return -1, 0, true
	}
	if idx, run = m.ver.Run(line, n); run {
		return idx, 1, true
	}
	return idx, 0, false
}

// load reads seg bytes at pa (within one line) with ops instructions.
func (m *Machine) load(pa, seg, ops uint64, width int, attr mem.Attr, copying bool) {
	line := pa >> m.lineShift
	if attr == mem.Normal {
		rf := hwevent.Flags(0)
		if copying {
			rf = hwevent.Copy
		}
		m.wholeLines(line, 0, 1, ops, false, rf)
		return
	}
	m.cnt[MemAccess] += ops
	idx := -1
	if m.ver.Tracked() {
		idx = m.ver.Index(line)
	}
	m.uncached(pa, attr, width, ops, false)
	var ver uint32
	if idx >= 0 {
		ver = m.ver.Mem[idx]
	}
	stale := m.checkRead(line, idx, ver, true)
	if m.ob.obs != nil {
		f := hwevent.NC
		if stale {
			f |= hwevent.Stale
		}
		if copying {
			f |= hwevent.Copy
		}
		m.noteLine(hwevent.LineRead, line, idx, f)
	}
}

// store writes seg bytes at pa (within one line) with ops instructions.
func (m *Machine) store(pa, seg, ops uint64, width int, attr mem.Attr) {
	m.cnt[MemAccess] += ops
	line := pa >> m.lineShift
	idx := -1
	if m.ver.Tracked() {
		idx = m.ver.Index(line)
	}
	if attr != mem.Normal {
		m.uncached(pa, attr, width, ops, true)
		if idx >= 0 {
			m.ver.WriteMem(idx, mem.CPU)
			m.outdate(line, idx, m.core.now, hwevent.Core, hwevent.NC) // a cacheable alias's copy is now old
		}
		if m.ob.obs != nil {
			m.noteLine(hwevent.LineWrite, line, idx, hwevent.NC)
		}
		return
	}
	m.cnt[L1DCache] += ops
	m.sync()
	m.writeLine(line, idx, seg == m.lineBytes)
	m.core.now += sim.Time(ops) * m.core.cfg.StoreIssue
}
