package etr

import (
	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
)

// observer follows the soc machine's hardware events after the
// hwview.Recording has drawn them: it tallies, per ETR buffer line,
// whether the copy read it stale and whether it read it at all, for the
// lost-bytes accounting, and collects the stale runs for hazards.
type observer struct {
	frames    mem.RunIndex // the ETR buffer's frames
	lineShift uint

	// Per ETR buffer line (buffer offset >> lineShift), during the update
	// path only (tally set).
	tally  bool
	stale  []bool
	copied []bool
	runs   []staleRun // stale lines in detection order, adjacent ones merged
}

// staleRun is a run of adjacent buffer lines read stale.
type staleRun struct {
	t        sim.Time // when the first was read (machine time)
	first, n uint64   // buffer lines
	firstPA  uint64
}

func newObserver(buf soc.Buffer, lineShift uint) *observer {
	o := &observer{lineShift: lineShift}
	o.frames.Add(0, buf.Pages, uint64(len(buf.Pages))<<mem.PageShift)
	lines := buf.Size >> lineShift
	o.stale, o.copied = make([]bool, lines), make([]bool, lines)
	return o
}

// offset returns the buffer offset of physical address pa, or false.
func (o *observer) offset(pa uint64) (uint64, bool) {
	i := o.frames.Find(pa)
	if i < 0 {
		return 0, false
	}
	r := &o.frames.Runs()[i]
	return r.Off + pa - r.PA, true
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

// Takes implements hwevent.Taker: the copy's reads are all it counts, so
// the recording may spare the machine the other line reports.
func (o *observer) Takes() hwevent.KindSet { return hwevent.Kinds(hwevent.LineRead) }

var _ hwevent.Taker = (*observer)(nil)
