package etr

import (
	"sort"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
)

// observer sits between the machine and the soc.Recording. It
//   - shifts times so the session starts at 0 on both sides (the prior
//     state took different times per policy);
//   - keeps a stale cell red until a device write or an invalidate changes
//     it (a coarse cell, or the barrier line written after a stale fill,
//     must not turn green again);
//   - shows lines read through the Normal-NC alias as uncached reads;
//   - tallies, per ETR buffer line, whether the copy read it stale and
//     whether it read it at all, for the lost-bytes accounting; and
//     collects the stale runs for hazards.
type observer struct {
	rec    *soc.Recording
	origin sim.Time
	nc     bool // the policy reads through the Normal-NC alias

	segs      []frameSeg // the ETR buffer's frames, sorted by pa
	lineShift uint

	// Per ETR buffer line (buffer offset >> lineShift), during the update
	// path only (tally set).
	tally  bool
	stale  []bool
	copied []bool
	runs   []staleRun // stale lines in detection order, adjacent ones merged
}

type frameSeg struct{ pa, n, off uint64 }

// staleRun is a run of adjacent buffer lines read stale.
type staleRun struct {
	t        sim.Time // when the first was read
	first, n uint64   // buffer lines
	firstPA  uint64
}

func newObserver(rec *soc.Recording, buf soc.Buffer, lineShift uint, nc bool) *observer {
	o := &observer{rec: rec, nc: nc, lineShift: lineShift}
	for i := 0; i < len(buf.Pages); {
		j := i + 1
		for j < len(buf.Pages) && buf.Pages[j] == buf.Pages[j-1]+mem.PageSize {
			j++
		}
		o.segs = append(o.segs, frameSeg{pa: buf.Pages[i], n: uint64(j-i) << mem.PageShift, off: uint64(i) << mem.PageShift})
		i = j
	}
	sort.Slice(o.segs, func(i, j int) bool { return o.segs[i].pa < o.segs[j].pa })
	lines := buf.Size >> lineShift
	o.stale, o.copied = make([]bool, lines), make([]bool, lines)
	return o
}

// offset returns the buffer offset of physical address pa, or false.
func (o *observer) offset(pa uint64) (uint64, bool) {
	i := sort.Search(len(o.segs), func(i int) bool { return o.segs[i].pa+o.segs[i].n > pa })
	if i < len(o.segs) && pa >= o.segs[i].pa {
		return o.segs[i].off + pa - o.segs[i].pa, true
	}
	return 0, false
}

func (o *observer) at(t sim.Time) sim.Time {
	if t < o.origin {
		return 0
	}
	return t - o.origin
}

// Line implements soc.Observer.
func (o *observer) Line(t sim.Time, pa uint64, st scenario.CellState, writer uint8) {
	if off, ok := o.offset(pa); ok {
		line := off >> o.lineShift
		if o.tally {
			switch st {
			case scenario.CellStale:
				o.stale[line] = true
				o.addRun(t, line, pa)
			case scenario.CellCopied:
				o.copied[line] = true
			}
		}
		if st == scenario.CellCopied && o.nc {
			st = scenario.CellUncachedRead
		}
		if g, cell := o.rec.Locate(pa); g >= 0 {
			cur := o.rec.Recorder().Live().Cells[g][cell].State
			if (cur == scenario.CellStale || cur == scenario.CellLost) && !clears(st) {
				return
			}
		}
	}
	o.rec.Line(o.at(t), pa, st, writer)
}

// clears says whether st replaces a stale or lost cell: only new data
// (a device write) or maintenance that makes the CPU's view current.
func clears(st scenario.CellState) bool {
	switch st {
	case scenario.CellDeviceWritten, scenario.CellInvalidated, scenario.CellCleaned, scenario.CellLost:
		return true
	}
	return false
}

func (o *observer) addRun(t sim.Time, line, pa uint64) {
	if n := len(o.runs); n > 0 {
		r := &o.runs[n-1]
		if r.first+r.n == line {
			r.n++
			return
		}
		if line >= r.first && line < r.first+r.n {
			return
		}
	}
	if len(o.runs) < soc.MaxHazards {
		o.runs = append(o.runs, staleRun{t: t, first: line, n: 1, firstPA: pa})
	}
}

// CacheEntry implements soc.Observer.
func (o *observer) CacheEntry(t sim.Time, level, set, way int, pa uint64, valid, dirty bool) {
	o.rec.CacheEntry(o.at(t), level, set, way, pa, valid, dirty)
}

var _ soc.Observer = (*observer)(nil)
