package hwview_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/hwview"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
	"github.com/dmaviz/dmaviz/model/timeline"
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

func countCells(cells []timeline.Cell, st timeline.CellState) int {
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
	rec := hwview.NewRecording(m, timeline.NewRecorder())
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
	// The half the CPU had cached is drawn stale from the moment the
	// device wrote it, before anything reads it; the rest as the
	// device's data.
	assert.Equal(t, 64, countCells(live.Cells[g][:64], timeline.CellStaleCopy), "the half cached before the DMA")
	assert.Equal(t, 64, countCells(live.Cells[g][64:], timeline.CellDeviceWritten))
	assert.Equal(t, m.DeviceWriter(dev), live.Cells[g][0].Writer)
	assert.EqualValues(t, 2, live.Cells[g][0].Writer)
	stale := 0
	for _, l := range live.Caches[win] {
		if l.Valid && l.Stale {
			stale++
			assert.Less(t, l.Tag, b.PA(4096), "only the buffer's cached half is stale: %#x", l.Tag)
		}
	}
	assert.Equal(t, 4, stale, "the window's sets 0..3 hold one line of the cached half each")
	wait(t)(m.Read(b.VA, b.Size, 16))
	tl := rec.Recorder().Finish(m.Now())
	since, why, ok := tl.CellCause(g, 0, tl.EventsUntil(done))
	require.True(t, ok)
	assert.Equal(t, timeline.WhyDeviceWrite, why)
	assert.Greater(t, since, sim.Time(0))
	assert.LessOrEqual(t, since, done, "stale from when the burst landed")

	var end timeline.State
	tl.StateAt(len(tl.Events), &end)
	assert.Equal(t, 64, countCells(end.Cells[g], timeline.CellStale), "the half cached before the DMA")
	assert.Equal(t, 64, countCells(end.Cells[g], timeline.CellCached), "freshly cached")
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
	hz := hwview.HazardsOf(m.Hazards())
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
	rec := hwview.NewRecording(m, timeline.NewRecorder())
	g := rec.Grid("buf", "buf", b, 64)
	rec.Origin = 100
	ev := func(k hwevent.Kind, f hwevent.Flags, t sim.Time) timeline.CellState {
		rec.Event(&hwevent.Event{T: t, Kind: k, Flags: f, Addr: b.PA(0), Bytes: 64, Agent: 2, Writer: 2, Level: -1})
		return rec.Recorder().Live().Cells[g][0].State
	}
	for _, tc := range []struct {
		kind hwevent.Kind
		f    hwevent.Flags
		want timeline.CellState
	}{
		{hwevent.LineRead, hwevent.NC | hwevent.Copy, timeline.CellUncachedRead},
		{hwevent.LineRead, hwevent.Copy, timeline.CellCopied},
		{hwevent.LineRead, 0, timeline.CellCached},
		{hwevent.LineRead, hwevent.Stale | hwevent.Copy, timeline.CellStale},
		{hwevent.LineWrite, 0, timeline.CellStale},
		{hwevent.LineRead, hwevent.Copy, timeline.CellStale},
		{hwevent.DMABurst, hwevent.Write, timeline.CellDeviceWritten},
		{hwevent.LineRead, hwevent.Stale, timeline.CellStale},
		{hwevent.DCOp, 0, timeline.CellCleaned},
		{hwevent.WriteBack, 0, timeline.CellCleaned},
		{hwevent.WriteBack, hwevent.Lost, timeline.CellLost},
		{hwevent.LineRead, 0, timeline.CellLost},
		{hwevent.DMABurst, 0, timeline.CellLost}, // a device read changes nothing
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
		{hwevent.Event{Kind: hwevent.LineRead, Flags: hwevent.Stale | hwevent.Lost}, "write-back left in DRAM"},
		{hwevent.Event{Kind: hwevent.LineRead, Flags: hwevent.Stale | hwevent.OwnWrite}, "its own write"},
		{hwevent.Event{Kind: hwevent.DeviceStaleRead}, "dma_sync_*_for_device"},
		{hwevent.Event{Kind: hwevent.WriteBack, Flags: hwevent.Lost, Why: hwevent.ReasonEvict}, "(evicted from the last cache level;"},
		{hwevent.Event{Kind: hwevent.WriteBack, Flags: hwevent.Lost, Why: hwevent.ReasonIVAC}, "behaves as DC CIVAC"},
		{hwevent.Event{Kind: hwevent.Discard, Flags: hwevent.Lost}, "DC IVAC discarded"},
	} {
		assert.Contains(t, hwview.CauseOf(tc.e), tc.want)
	}
}

// countAll is a Next observer that counts what it is given; it takes
// every kind, so the recording quiets nothing.
type countAll struct{ n int }

func (o *countAll) Event(*hwevent.Event) { o.n++ }
func (o *countAll) count() int           { return o.n }

// takesNothing is countAll saying it takes no kind (hwevent.Taker), so
// the recording may quiet the machine's line reports.
type takesNothing struct{ countAll }

func (*takesNothing) Takes() hwevent.KindSet { return 0 }

// The machine skips the line reports a recording says change nothing
// (the rest of a page-sized cell showing the same state), and the
// timeline is the same as when every line is reported: reads, writes,
// DC ops, stale reads and a device writing while the core reads.
func TestRecordingQuietKeepsTheTimeline(t *testing.T) {
	run := func(next interface {
		hwevent.Observer
		count() int
	}) (*timeline.Timeline, int) {
		m := smallMachine(t)
		dev, err := m.AddDevice(soc.DeviceConfig{Name: "dev", Burst: 256, Bandwidth: 4e9})
		require.NoError(t, err)
		pages := buffer(t, m, "pages", 64<<10, mem.Normal, true)
		lines := buffer(t, m, "lines", 8192, mem.Normal, true)
		rec := hwview.NewRecording(m, timeline.NewRecorder())
		rec.Grid("pages", "pages", pages, mem.PageSize)
		rec.Grid("lines", "lines", lines, 64)
		rec.Cache("l1d", "L1D", 0, 0, 4)
		rec.Next = next
		wait(t)(m.Write(pages.VA, 16<<10, 16))
		wait(t)(m.Copy(lines.VA, pages.VA, 8192, 16))
		wait(t)(m.DeviceWrite(dev, pages.PA(0), 32<<10))
		wait(t)(m.Read(pages.VA, 48<<10, 16)) // stale where cached, then fresh
		wait(t)(m.DC(soc.IVAC, pages.VA, pages.Size))
		j, err := m.StartDMA(dev, pages.PA(16<<10), 32<<10, true)
		require.NoError(t, err)
		wait(t)(m.Read(pages.VA, pages.Size, 16)) // the device lands bursts meanwhile
		_, err = m.FinishDMA(j)
		require.NoError(t, err)
		// The device writing the second half of the page the core reads
		// from DRAM, from the same time: its bursts land in the cell
		// the core is reading, ahead of it.
		wait(t)(m.DC(soc.CIVAC, pages.VA, pages.Size))
		j, err = m.StartDMA(dev, pages.PA(2048), 8192, true)
		require.NoError(t, err)
		wait(t)(m.Read(pages.VA, 16<<10, 16))
		_, err = m.FinishDMA(j)
		require.NoError(t, err)
		wait(t)(m.DC(soc.CVAC, pages.VA, pages.Size))
		wait(t)(m.Copy(pages.VA+32<<10, lines.VA, 8192, 16))
		// A page whose middle the core wrote after the device wrote it
		// all: its reads go device, core, device again.
		last := pages.Size - mem.PageSize
		wait(t)(m.DC(soc.CIVAC, pages.VA+last, mem.PageSize))
		wait(t)(m.DeviceWrite(dev, pages.PA(last), mem.PageSize))
		wait(t)(m.Write(pages.VA+last+1024, 1024, 16))
		wait(t)(m.Read(pages.VA+last, mem.PageSize, 16))
		// A page the core wrote and cleaned but one line, which it wrote
		// again: DC IVAC discards that line's newest data (Lost) amid
		// invalidates of the same writer's lines.
		prev := last - mem.PageSize
		wait(t)(m.Write(pages.VA+prev, mem.PageSize, 16))
		wait(t)(m.DC(soc.CVAC, pages.VA+prev, mem.PageSize))
		wait(t)(m.Write(pages.VA+prev+320, 64, 16))
		wait(t)(m.DC(soc.IVAC, pages.VA+prev, mem.PageSize))
		m.DSB()
		return rec.Recorder().Finish(m.Now()), next.count()
	}
	all, given := run(&countAll{})
	quiet, quietGiven := run(&takesNothing{})
	require.Equal(t, all, quiet)
	assert.Less(t, quietGiven, given/2, "most line reports skipped")
	assert.Greater(t, len(all.Events), 100)
}
