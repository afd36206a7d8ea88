package soc

import (
	"cmp"
	"fmt"
	"slices"
	"sort"

	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/sim"
)

// shadow says that a device's writes to physical bytes [dev, dev+n) are
// data of the bytes [cpu, cpu+n): a SWIOTLB bounce slot standing in for
// the buffer the CPU reads. Both are physically contiguous.
type shadow struct{ dev, cpu, n uint64 }

// Shadow declares that data a device writes at physical [devPA, devPA+n)
// belongs to the buffer at physical [cpuPA, cpuPA+n) until Unshadow: the
// kernel will copy it there (swiotlb_tbl_unmap_single, swiotlb_sync_*).
// While it is declared, a device write to the slot makes the buffer's
// older data stale: a CPU read of the buffer before the copy is counted in
// stale_lines_read and reported with the buffer's address.
func (m *Machine) Shadow(devPA, cpuPA, n uint64) error {
	if n == 0 {
		return nil
	}
	if devPA+n < devPA || cpuPA+n < cpuPA {
		return fmt.Errorf("shadow: range of %d bytes wraps the address space", n)
	}
	if k := len(m.chk.shadows); k > 0 && m.chk.shadows[k-1].dev > devPA {
		m.chk.shadowUnsorted = true
	}
	m.chk.shadows = append(m.chk.shadows, shadow{dev: devPA, cpu: cpuPA, n: n})
	m.chk.shadowMax = max(m.chk.shadowMax, n)
	return nil
}

// Unshadow removes every declaration whose slot starts in [devPA,
// devPA+n): the slot was copied back (or released without the copy).
func (m *Machine) Unshadow(devPA, n uint64) {
	out := m.chk.shadows[:0]
	for _, s := range m.chk.shadows {
		if s.dev-devPA >= n {
			out = append(out, s)
		}
	}
	m.chk.shadows = out
	if len(out) == 0 {
		m.chk.shadowMax = 0
	}
}

// shadowWrite is the rare part of a device line write when shadows are
// declared: every buffer line the written slot bytes stand for gets a
// newer version the CPU cannot see yet. The shadows are kept in slot
// order, so a write looks only at those that can cover its line (a slot
// starting less than the longest shadow before it), not at every mapped
// entry: a list of thousands of entries on the SWIOTLB path made this
// scan most of the run.
func (m *Machine) shadowWrite(line uint64, writer uint8, t sim.Time) {
	lo, hi := line<<m.lineShift, (line+1)<<m.lineShift
	if m.chk.shadowUnsorted {
		slices.SortStableFunc(m.chk.shadows, func(a, b shadow) int { return cmp.Compare(a.dev, b.dev) })
		m.chk.shadowUnsorted = false
	}
	// A shadow covers some of [lo, hi) when dev < hi and dev+n > lo, so
	// dev+shadowMax > lo.
	from := sort.Search(len(m.chk.shadows), func(i int) bool { return m.chk.shadows[i].dev+m.chk.shadowMax > lo })
	for _, s := range m.chk.shadows[from:] {
		if s.dev >= hi {
			break
		}
		a, b := max(lo, s.dev), min(hi, s.dev+s.n)
		if a >= b {
			continue
		}
		first, last := (s.cpu+a-s.dev)>>m.lineShift, (s.cpu+b-s.dev-1)>>m.lineShift
		for l := first; l <= last; l++ {
			if idx := m.ver.Index(l); idx >= 0 {
				m.ver.Supersede(idx, writer)
				m.outdate(l, idx, t, writer, hwevent.Elsewhere)
			}
		}
	}
}

// StaleLines returns the physical address of every distinct line the CPU
// read stale since the last ResetStaleLines, in the order first read
// (stale_lines_read counts reads, so a line read twice counts twice there
// and once here).
func (m *Machine) StaleLines() []uint64 { return append([]uint64(nil), m.chk.staleLines...) }

// ResetStaleLines starts a new StaleLines set (one per DMA transfer, say).
func (m *Machine) ResetStaleLines() {
	for _, pa := range m.chk.staleLines {
		if idx := m.ver.Index(pa >> m.lineShift); idx >= 0 {
			m.chk.staleSeen[idx] = false
		}
	}
	m.chk.staleLines = m.chk.staleLines[:0]
}
