package soc

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// reportLine writes the scratch event field by field; what the observer
// gets must equal the literal it stands for whatever the scratch held
// before (a field added to hwevent.Event and not reset there would leak
// from the last event).
func TestReportLineIsTheLiteral(t *testing.T) {
	m := newMachine(t, nil)
	b := alloc(t, m, "buf", 8192, mem.Normal, true)
	written, fresh := b.PA(0)>>m.lineShift, b.PA(4096)>>m.lineShift
	m.ver.WriteMem(m.ver.Index(written), 7)
	var log hwevent.Log
	m.SetObserver(&log)
	m.WatchPhys(b.PA(0), b.Size)
	m.core.now = 1234
	for _, tc := range []struct {
		name   string
		kind   hwevent.Kind
		line   uint64
		end    sim.Time
		op     uint8
		why    hwevent.Reason
		writer uint8
	}{
		{"read", hwevent.LineRead, written, 0, 0, 0, 7},
		{"read of a line nobody wrote", hwevent.LineRead, fresh, 0, 0, 0, hwevent.Nobody},
		{"write of a line nobody wrote", hwevent.LineWrite, fresh, 0, 0, 0, hwevent.Core},
		{"dc op", hwevent.DCOp, written, 99, 2, 0, 7},
		{"write-back", hwevent.WriteBack, written, 0, 0, hwevent.ReasonCVAC, 7},
	} {
		// Every byte of the scratch set to something else first.
		m.ob.scratch = hwevent.Event{T: -1, End: -2, Kind: 99, Flags: 0xffff, Why: 9, Op: 9, Agent: 9, Writer: 9,
			Level: 9, Set: 9, Way: 9, Addr: 9, Victim: 9, Bytes: 9}
		log.Events = nil
		m.reportLine(tc.kind, tc.line, m.ver.Index(tc.line), hwevent.Copy, tc.end, tc.op, tc.why)
		require.Len(t, log.Events, 1, tc.name)
		want := hwevent.Event{T: 1234, End: tc.end, Kind: tc.kind, Flags: hwevent.Copy, Why: tc.why, Op: tc.op,
			Agent: hwevent.Core, Writer: tc.writer, Level: -1, Set: -1, Way: -1, Addr: tc.line << m.lineShift, Bytes: m.lineBytes}
		require.Equal(t, want, log.Events[0], tc.name)
	}
	log.Events = nil
	m.reportLine(hwevent.LineRead, 1<<30, -1, 0, 0, 0, 0)
	require.Empty(t, log.Events, "an unwatched line is not reported")
}

// A DMA burst's event is written into the scratch field by field too.
func TestBurstEventIsTheLiteral(t *testing.T) {
	m := newMachine(t, nil)
	b := alloc(t, m, "buf", 4096, mem.Normal, true)
	d, err := m.AddDevice(DeviceConfig{Name: "dev", Burst: 128, Bandwidth: 1e9})
	require.NoError(t, err)
	var log hwevent.Log
	m.SetObserver(&log)
	m.WatchPhys(b.PA(0), b.Size)
	m.ob.scratch = hwevent.Event{T: -1, End: -2, Kind: 99, Flags: 0xffff, Why: 9, Op: 9, Agent: 9, Writer: 9,
		Level: 9, Set: 9, Way: 9, Addr: 9, Victim: 9, Bytes: 9}
	_, err = m.DeviceWrite(d, b.PA(64), 128)
	require.NoError(t, err)
	var bursts []hwevent.Event
	for _, e := range log.Events {
		if e.Kind == hwevent.DMABurst {
			bursts = append(bursts, e)
		}
	}
	require.Len(t, bursts, 1)
	w := m.DeviceWriter(d)
	require.Equal(t, hwevent.Event{T: bursts[0].T, Kind: hwevent.DMABurst, Flags: hwevent.Write, Agent: w, Writer: w,
		Level: -1, Set: -1, Way: -1, Addr: b.PA(64), Bytes: 128}, bursts[0])
	require.Positive(t, bursts[0].T)
}

// quieter is an observer that logs events and, for those quiet accepts,
// tells the machine to skip the same report on the buffer's lines.
type quieter struct {
	m      *Machine
	lo, hi uint64
	quiet  func(e *hwevent.Event) bool
	log    []hwevent.Event
}

func (q *quieter) Event(e *hwevent.Event) {
	q.log = append(q.log, *e)
	if q.quiet != nil && q.quiet(e) {
		q.m.Quiet(e.Kind, e.Flags, e.Op, e.Writer, q.lo, q.hi)
	}
}

func (q *quieter) count(k hwevent.Kind) int {
	n := 0
	for _, e := range q.log {
		if e.Kind == k {
			n++
		}
	}
	return n
}

// Quiet skips the core's line reports the observer said change nothing
// for it, and only those, until it takes the word back, another agent
// steps or the operation returns; outside an operation it is ignored.
func TestQuietSkipsOnlyWhatTheObserverSaid(t *testing.T) {
	m := newMachine(t, nil)
	b := alloc(t, m, "buf", 8192, mem.Normal, true)
	lo := b.PA(0) >> m.lineShift
	hi := lo + b.Size>>m.lineShift
	require.Equal(t, hi-1, b.PA(b.Size-1)>>m.lineShift, "contiguous")
	q := &quieter{m: m, lo: lo, hi: hi}
	m.SetObserver(q)
	m.WatchKinds(hwevent.Kinds(hwevent.LineRead, hwevent.LineWrite, hwevent.DCOp))
	m.WatchPhys(b.PA(0), b.Size)
	lines := int(hi - lo)

	must[sim.Time](t)(m.Read(b.VA, b.Size, 64))
	require.Equal(t, lines, q.count(hwevent.LineRead), "no word: every line reported")

	q.log, q.quiet = nil, func(e *hwevent.Event) bool { return e.Kind == hwevent.LineRead }
	must[sim.Time](t)(m.Read(b.VA, b.Size, 64))
	must[sim.Time](t)(m.Read(b.VA, b.Size, 64))
	require.Equal(t, 2, q.count(hwevent.LineRead), "one report per operation: the word ends when it returns")

	q.log = nil
	must[sim.Time](t)(m.DC(CVAC, b.VA, b.Size))
	require.Equal(t, lines, q.count(hwevent.DCOp), "a word on reads says nothing about DC ops")

	q.log, q.quiet = nil, func(e *hwevent.Event) bool { return e.Kind == hwevent.DCOp && e.Op == uint8(IVAC) }
	must[sim.Time](t)(m.DC(CVAC, b.VA, b.Size))
	require.Equal(t, lines, q.count(hwevent.DCOp), "nor one on another DC op")
	q.log = nil
	must[sim.Time](t)(m.DC(IVAC, b.VA, b.Size))
	require.Equal(t, 1, q.count(hwevent.DCOp))

	// The word's end and its fields, one report at a time.
	q.log, q.quiet = nil, nil
	line, end := lo+3, lo+8 // the word on [lo, end) of the buffer
	m.Quiet(hwevent.LineRead, 0, 0, hwevent.Nobody, lo, end)
	m.reportLine(hwevent.LineRead, line, m.ver.Index(line), 0, 0, 0, 0)
	require.Len(t, q.log, 1, "ignored outside an operation")
	m.ob.inOp = true
	for _, tc := range []struct {
		name     string
		f        hwevent.Flags
		writer   uint8
		line     uint64
		reported bool
	}{
		{"the same report", 0, hwevent.Nobody, line, false},
		{"another line of the range", 0, hwevent.Nobody, lo, false},
		{"a line past the range", 0, hwevent.Nobody, end, true},
		{"other flags", hwevent.Copy, hwevent.Nobody, line, true},
		{"another writer", 0, 7, line, true},
	} {
		m.Quiet(hwevent.LineRead, 0, 0, hwevent.Nobody, lo, end)
		if tc.writer != hwevent.Nobody {
			m.ver.WriteMem(m.ver.Index(tc.line), tc.writer)
		}
		q.log = nil
		m.reportLine(hwevent.LineRead, tc.line, m.ver.Index(tc.line), tc.f, 0, 0, 0)
		require.Equal(t, tc.reported, len(q.log) == 1, tc.name)
	}
	report := func() int {
		q.log = nil
		m.reportLine(hwevent.LineRead, lo+1, m.ver.Index(lo+1), 0, 0, 0, 0)
		return len(q.log)
	}
	m.Quiet(hwevent.LineRead, 0, 0, hwevent.Nobody, lo, end)
	require.Zero(t, report(), "the word holds over the events given")
	m.Quiet(0, 0, 0, 0, 0, 0)
	require.Equal(t, 1, report(), "an empty range takes it back")
	m.Quiet(hwevent.LineRead, 0, 0, hwevent.Nobody, lo, end)
	d, err := m.AddDevice(DeviceConfig{Name: "dev", Burst: 128, Bandwidth: 1e9})
	require.NoError(t, err)
	_, err = m.StartDMA(d, b.PA(4096), 128, true) // lines the word does not cover
	require.NoError(t, err)
	m.core.now += sim.Microsecond
	m.sync()
	require.Equal(t, 1, report(), "another agent's step ends it")
	m.ob.endQuiet()
}
