package sgsync

import (
	"github.com/dmaviz/dmaviz/model/hwview"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// maxCells bounds the physical-memory grid; cells grow from one line to
// whatever power of two keeps the range within it.
const maxCells = 8192

// view records the first iteration into a timeline: the physical range the
// list is laid over as a grid (entries are the touched segments, the
// frames between them stay empty), the entry being maintained as a span,
// the DC ops not yet waited for as a gauge, and phases on the cpu, device
// and api lanes.
type view struct {
	m *soc.Machine // sampled for the trace's counter tracks
	// sampled is when the counters were last sampled (see sample).
	sampled sim.Time
	rec     *hwview.Recording
	r       *timeline.Recorder
	grid    int
	gauge   int // DC ops issued since the last DSB
	queue   int // DC ops in flight (the machine's maintenance queue)
	span    int
	steps   []scenario.Step

	issuing   bool
	issueFrom sim.Time
	issueKind string
	lastList  *sgList
	lastEntry int
	iovaDone  bool // the IOVA mappings are recorded (iova.go)
	// carry is the text of a stage that changes nothing on the stage (a
	// call that issues no DC op), said at the start of the next step.
	carry string
}

func newView(m *soc.Machine, lo, hi uint64, maxOps int64) *view {
	v := &view{m: m, r: timeline.NewRecorder(), lastEntry: -1}
	v.r.Writer("dma") // the machine's first device is writer 2
	v.rec = hwview.NewRecording(m, v.r)
	cell := m.LineBytes()
	for (hi-lo)/cell > maxCells && cell < mem.PageSize<<10 {
		cell *= 2
	}
	v.grid = v.rec.Grid("phys", "physical memory (under the SG list)", physRange(lo, hi), cell)
	// The window is over the sets the list's lines fill, not sets 0..15
	// (the buffer need not start in set 0).
	v.rec.CacheOver("l1d", "CPU L1D", 0, 16, v.grid)
	v.gauge = v.r.AddValue(timeline.ValueSpec{ID: "dc_outstanding", Label: "DC ops not yet waited for (DSB drains)",
		Kind: timeline.ValueGauge, Grid: -1, Max: max(maxOps, 1)}, 0)
	v.queue = v.r.AddValue(timeline.ValueSpec{ID: "dc_inflight", Label: "DC ops in flight (maintenance queue)",
		Kind: timeline.ValueGauge, Grid: -1, Max: int64(m.Config().Maint.Inflight)}, 0)
	v.span = v.r.AddSpan(timeline.SpanSpec{ID: "entry", Label: "SG entry being maintained", Grid: v.grid})
	return v
}

func (v *view) step(t sim.Time, title, text string) {
	if v.carry != "" {
		text, v.carry = v.carry+" "+text, ""
	}
	v.r.Mark(t, len(v.steps))
	v.steps = append(v.steps, scenario.Step{T: t, Title: title, Text: text})
}

func (v *view) phase(lane, kind, label string, start, end sim.Time) {
	v.r.Phase(timeline.Phase{Lane: lane, Kind: kind, Label: label, Start: start, End: end})
	v.sample(lane == "api")
}

// counterEvery spaces the counter samples taken at phase ends (a list of
// thousands of entries has thousands of DC-op phases); an API call's end
// and the end of the recording are always sampled.
const counterEvery = 2 * sim.Microsecond

func (v *view) sample(always bool) {
	if now := v.m.Now(); always || now-v.sampled >= counterEvery {
		v.sampled = now
		v.r.SampleCounters(now, hwview.Counters(v.m.Counters()))
	}
}

// gaugeAt records the ops not yet waited for (n) and those still in
// flight in the machine's queue.
func (v *view) gaugeAt(m *soc.Machine, n int64) {
	v.r.Value(m.Now(), v.gauge, n)
	v.r.Value(m.Now(), v.queue, int64(m.OutstandingDC()))
}

// openIssue starts (or continues) a phase of DC ops and points the span
// at entry i of l.
func (v *view) openIssue(t sim.Time, op soc.DCOp, l *sgList, i int) {
	if !v.issuing {
		v.issuing, v.issueFrom, v.issueKind = true, t, "clean"
		if op != soc.CVAC {
			v.issueKind = "invalidate"
		}
	}
	if l == v.lastList && i == v.lastEntry {
		return
	}
	v.lastList, v.lastEntry = l, i
	e := l.entries[i]
	g0, c0 := v.rec.Locate(l.buf.PA(e.off))
	g1, c1 := v.rec.Locate(l.buf.PA(e.off + e.len - 1))
	if g0 == v.grid && g1 == v.grid && c1 >= c0 {
		v.r.Span(t, v.span, c0, c1-c0+1)
	}
}

// closeIssue ends the current phase of DC ops at t.
func (v *view) closeIssue(t sim.Time) {
	if !v.issuing {
		return
	}
	v.issuing = false
	label := "DC CVAC issue"
	if v.issueKind == "invalidate" {
		label = "DC IVAC/CIVAC issue"
	}
	v.phase("cpu", v.issueKind, label, v.issueFrom, t)
}

// cachedEntry records entry i of l cached at t, as a whole (a CPU read of
// it the machine did not report line by line).
func (v *view) cachedEntry(l *sgList, i int, t sim.Time) {
	e := l.entries[i]
	g0, c0 := v.rec.Locate(l.buf.PA(e.off))
	g1, c1 := v.rec.Locate(l.buf.PA(e.off + e.len - 1))
	if g0 == v.grid && g1 == v.grid && c1 >= c0 {
		v.r.Cells(t, v.grid, c0, c1-c0+1, timeline.CellCached, timeline.WriterNobody)
	}
}

// finish detaches the recorder from the machine and closes the timeline.
func (v *view) finish(m *soc.Machine) *timeline.Timeline {
	v.closeIssue(m.Now())
	v.sample(true)
	v.r.Span(m.Now(), v.span, 0, 0)
	m.SetObserver(nil)
	return v.r.Finish(m.Now())
}
