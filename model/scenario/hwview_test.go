package scenario_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
)

// smallMachine is the soc tests' round-numbered machine.
func smallMachine(t *testing.T) *soc.Machine {
	t.Helper()
	clk := sim.Clocks{CPU: 1 * sim.GHz, Platform: 1 * sim.GHz, DRAM: 1 * sim.GHz}
	m, err := soc.New(soc.Config{
		Name:   "test",
		Clocks: clk,
		Core:   soc.CoreConfig{LoadIssue: sim.Nanosecond, StoreIssue: sim.Nanosecond, MLP: 4},
		L1D:    cache.Config{Name: "l1d", Size: 32 << 10, Ways: 4, LineBytes: 64, Policy: cache.LRU, Latency: 4 * sim.Nanosecond},
		L2:     cache.Config{Name: "l2", Size: 256 << 10, Ways: 8, LineBytes: 64, Policy: cache.LRU, Latency: 10 * sim.Nanosecond},
		DRAM:   soc.DRAMConfig{Latency: 100 * sim.Nanosecond, Bandwidth: 10e9, MinBurst: 64},
		NC:     soc.NCConfig{Inflight: 2, DeviceInflight: 1},
		Maint: soc.MaintConfig{Issue: sim.Nanosecond, CleanLatency: 50 * sim.Nanosecond, InvalLatency: 60 * sim.Nanosecond,
			Inflight: 64},
		MemBytes: 64 << 20,
		MaxOrder: 10,
	}, 1)
	require.NoError(t, err)
	return m
}

func buffer(t *testing.T, m *soc.Machine, name string, size uint64, attr mem.Attr, track bool) soc.Buffer {
	t.Helper()
	b, err := m.Alloc(name, size, attr)
	require.NoError(t, err)
	if track {
		require.NoError(t, m.Track(b))
	}
	return b
}

func countCells(cells []scenario.Cell, st scenario.CellState) int {
	n := 0
	for _, c := range cells {
		if c.State == st {
			n++
		}
	}
	return n
}

func wait(t *testing.T) func(sim.Time, error) {
	return func(_ sim.Time, err error) { require.NoError(t, err) }
}

// A recording shows the buffer's lines going device-written, then stale
// when read without invalidate, and the L1 window filling; hazards are
// located in the grid.
func TestRecordingIntoTimeline(t *testing.T) {
	m := smallMachine(t)
	rec := scenario.NewRecording(m, scenario.NewRecorder())
	b := buffer(t, m, "buf", 8192, mem.Normal, true)
	other := buffer(t, m, "other", 4096, mem.Normal, false)
	g := rec.Grid("buf", "DMA buffer", b, 64)
	win := rec.Cache("l1d", "L1D", 0, 0, 4)
	dev, err := m.AddDevice(soc.DeviceConfig{Name: "dev", Burst: 256, Bandwidth: 4e9})
	require.NoError(t, err)

	wait(t)(m.Read(b.VA, 4096, 16)) // first half cached
	wait(t)(m.Read(other.VA, 4096, 16))
	done, err := m.DeviceWrite(dev, b.PA(0), b.Size)
	require.NoError(t, err)
	m.WaitUntil(done)
	live := rec.Recorder().Live()
	assert.Equal(t, 128, countCells(live.Cells[g], scenario.CellDeviceWritten))
	assert.Equal(t, m.DeviceWriter(dev), live.Cells[g][0].Writer)
	assert.EqualValues(t, 2, live.Cells[g][0].Writer)
	wait(t)(m.Read(b.VA, b.Size, 16))
	tl := rec.Recorder().Finish(m.Now())

	var end scenario.State
	tl.StateAt(len(tl.Events), &end)
	assert.Equal(t, 64, countCells(end.Cells[g], scenario.CellStale), "the half cached before the DMA")
	assert.Equal(t, 64, countCells(end.Cells[g], scenario.CellCached), "freshly cached")
	valid := 0
	for _, l := range end.Caches[win] {
		if l.Valid {
			valid++
		}
	}
	// 128 sets: sets 0..3 hold one line of buf and one of other each.
	assert.Len(t, end.Caches[win], 16)
	assert.Equal(t, 8, valid)
	for i := 1; i < len(tl.Events); i++ {
		require.GreaterOrEqual(t, tl.Events[i].T, tl.Events[i-1].T, "recorded events go back in time")
	}
	hz := scenario.HazardsOf(m.Hazards())
	rec.Annotate(hz)
	require.Len(t, hz, 1)
	assert.Equal(t, g, hz[0].Grid)
	assert.Equal(t, 0, hz[0].Cell)
	assert.EqualValues(t, 4096, hz[0].Bytes)
	assert.Contains(t, hz[0].Cause, "stale cached copy")
	gg, c := rec.Locate(b.PA(8191))
	assert.Equal(t, [2]int{g, 127}, [2]int{gg, c})
	gg, _ = rec.Locate(other.PA(0))
	assert.Equal(t, -1, gg, "unwatched buffer located in a grid")
}

// The adapter's rules, one event at a time: reads through an NC mapping
// show as uncached reads even when copied; a stale cell stays stale
// through a CPU write and a later correct read, and clears on a device
// write or a DC op; Origin shifts time.
func TestRecordingRules(t *testing.T) {
	m := smallMachine(t)
	b := buffer(t, m, "buf", 4096, mem.Normal, true)
	rec := scenario.NewRecording(m, scenario.NewRecorder())
	g := rec.Grid("buf", "buf", b, 64)
	rec.Origin = 100
	ev := func(k hwevent.Kind, f hwevent.Flags, t sim.Time) scenario.CellState {
		rec.Event(&hwevent.Event{T: t, Kind: k, Flags: f, Addr: b.PA(0), Bytes: 64, Agent: 2, Writer: 2, Level: -1})
		return rec.Recorder().Live().Cells[g][0].State
	}
	for _, tc := range []struct {
		kind hwevent.Kind
		f    hwevent.Flags
		want scenario.CellState
	}{
		{hwevent.LineRead, hwevent.NC | hwevent.Copy, scenario.CellUncachedRead},
		{hwevent.LineRead, hwevent.Copy, scenario.CellCopied},
		{hwevent.LineRead, 0, scenario.CellCached},
		{hwevent.LineRead, hwevent.Stale | hwevent.Copy, scenario.CellStale},
		{hwevent.LineWrite, 0, scenario.CellStale},
		{hwevent.LineRead, hwevent.Copy, scenario.CellStale},
		{hwevent.DMABurst, hwevent.Write, scenario.CellDeviceWritten},
		{hwevent.LineRead, hwevent.Stale, scenario.CellStale},
		{hwevent.DCOp, 0, scenario.CellCleaned},
		{hwevent.WriteBack, 0, scenario.CellCleaned},
		{hwevent.WriteBack, hwevent.Lost, scenario.CellLost},
		{hwevent.LineRead, 0, scenario.CellLost},
		{hwevent.DMABurst, 0, scenario.CellLost}, // a device read changes nothing
	} {
		assert.Equal(t, tc.want, ev(tc.kind, tc.f, 150), "%s %b", tc.kind, tc.f)
	}
	tl := rec.Recorder().Finish(200)
	assert.Equal(t, sim.Time(50), tl.Events[len(tl.Events)-1].T, "Origin shifts time")
}

// Every correctness event has a cause in words naming the fix.
func TestCauseOf(t *testing.T) {
	for _, tc := range []struct {
		e    hwevent.Event
		want string
	}{
		{hwevent.Event{Kind: hwevent.LineRead, Flags: hwevent.Stale}, "missing dma_sync_*_for_cpu"},
		{hwevent.Event{Kind: hwevent.LineRead, Flags: hwevent.Stale | hwevent.NC}, "Normal-NC alias"},
		{hwevent.Event{Kind: hwevent.LineRead, Flags: hwevent.Stale | hwevent.Elsewhere}, "SWIOTLB bounce slot"},
		{hwevent.Event{Kind: hwevent.LineRead, Flags: hwevent.Stale | hwevent.OwnWrite}, "its own write"},
		{hwevent.Event{Kind: hwevent.DeviceStaleRead}, "dma_sync_*_for_device"},
		{hwevent.Event{Kind: hwevent.WriteBack, Flags: hwevent.Lost, Why: hwevent.ReasonEvict}, "(evicted from the last cache level;"},
		{hwevent.Event{Kind: hwevent.WriteBack, Flags: hwevent.Lost, Why: hwevent.ReasonIVAC}, "behaves as DC CIVAC"},
		{hwevent.Event{Kind: hwevent.Discard, Flags: hwevent.Lost}, "DC IVAC discarded"},
	} {
		assert.Contains(t, scenario.CauseOf(tc.e), tc.want)
	}
}
