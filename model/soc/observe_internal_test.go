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
	m.now = 1234
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
		m.scratch = hwevent.Event{T: -1, End: -2, Kind: 99, Flags: 0xffff, Why: 9, Op: 9, Agent: 9, Writer: 9,
			Level: 9, Set: 9, Way: 9, Addr: 9, Victim: 9, Bytes: 9}
		log.Events = nil
		m.reportLine(tc.kind, tc.line, hwevent.Copy, tc.end, tc.op, tc.why)
		require.Len(t, log.Events, 1, tc.name)
		want := hwevent.Event{T: 1234, End: tc.end, Kind: tc.kind, Flags: hwevent.Copy, Why: tc.why, Op: tc.op,
			Agent: hwevent.Core, Writer: tc.writer, Level: -1, Set: -1, Way: -1, Addr: tc.line << m.lineShift, Bytes: m.lineBytes}
		require.Equal(t, want, log.Events[0], tc.name)
	}
	log.Events = nil
	m.reportLine(hwevent.LineRead, 1<<30, 0, 0, 0, 0)
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
	m.scratch = hwevent.Event{T: -1, End: -2, Kind: 99, Flags: 0xffff, Why: 9, Op: 9, Agent: 9, Writer: 9,
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
