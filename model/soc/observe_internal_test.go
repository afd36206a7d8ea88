package soc

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/mem"
)

// lineScratch writes the scratch event field by field; it must equal the
// literal it stands for whatever the scratch held before (a field added
// to hwevent.Event and not reset here would leak from the last event).
func TestLineScratchIsTheLiteral(t *testing.T) {
	m := newMachine(t, nil)
	b := alloc(t, m, "buf", 4096, mem.Normal, true)
	line := b.PA(0) >> m.lineShift
	m.ver.WriteMem(m.ver.Index(line), 7)
	m.now = 1234
	for _, tc := range []struct {
		name   string
		line   uint64
		writer uint8
	}{{"tracked", line, 7}, {"untracked", 1 << 30, hwevent.Nobody}} {
		// Every byte of the scratch set to something else first.
		m.scratch = hwevent.Event{T: -1, End: -2, Kind: 99, Flags: 0xffff, Why: 9, Op: 9, Agent: 9, Writer: 9,
			Level: 9, Set: 9, Way: 9, Addr: 9, Victim: 9, Bytes: 9}
		got := *m.lineScratch(hwevent.LineRead, tc.line, hwevent.Copy)
		want := hwevent.Event{T: 1234, Kind: hwevent.LineRead, Flags: hwevent.Copy, Agent: hwevent.Core, Writer: tc.writer,
			Level: -1, Set: -1, Way: -1, Addr: tc.line << m.lineShift, Bytes: m.lineBytes}
		require.Equal(t, want, got, tc.name)
	}
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
