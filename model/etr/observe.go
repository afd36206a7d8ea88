package etr

import (
	"sort"

	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
)

// observer follows the soc machine's hardware events after the
// scenario.Recording has drawn them: it tallies, per ETR buffer line,
// whether the copy read it stale and whether it read it at all, for the
// lost-bytes accounting, and collects the stale runs for hazards.
type observer struct {
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
	t        sim.Time // when the first was read (machine time)
	first, n uint64   // buffer lines
	firstPA  uint64
}

func newObserver(buf soc.Buffer, lineShift uint) *observer {
	o := &observer{lineShift: lineShift}
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

// Event implements hwevent.Observer.
func (o *observer) Event(e *hwevent.Event) {
	if !o.tally || e.Kind != hwevent.LineRead {
		return
	}
	off, ok := o.offset(e.Addr)
	if !ok {
		return
	}
	line := off >> o.lineShift
	switch {
	case e.Has(hwevent.Stale):
		o.stale[line] = true
		o.addRun(e.T, line, e.Addr)
	case e.Has(hwevent.Copy):
		o.copied[line] = true
	}
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

var _ hwevent.Observer = (*observer)(nil)
