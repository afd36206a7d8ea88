package soc

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// Each unit alone, on testConfig's numbers (DRAM 100 ns at 10 GB/s: a
// 64-byte line occupies the channel 6.4 ns).

func TestDRAMAlone(t *testing.T) {
	d := newDRAM(testConfig().DRAM, 64)
	line := 6400 * sim.Picosecond
	require.Equal(t, line, d.lineXfer)
	require.Equal(t, line, d.xfer(16), "a 16-byte transfer still takes one 64-byte burst")
	// An idle channel answers a read at its latency; a second read asked
	// at the same time waits for the first one's transfer.
	require.Equal(t, 100*sim.Nanosecond, d.load(0, 0, line))
	require.Equal(t, 100*sim.Nanosecond+line, d.load(0, 0, line))
	// A posted write at 10 ns queues behind both reads; DSB waits for it.
	done := d.post(10*sim.Nanosecond, line)
	require.Equal(t, 100*sim.Nanosecond+2*line, done)
	require.Equal(t, DRAMState{Free: done, Posted: done, LineXfer: line}, d.Snapshot())
	// A master asking before the core's last ask is a reorder; in order is not.
	d.devAsk(10 * sim.Nanosecond)
	require.Zero(t, d.Snapshot().Reorders)
	d.devAsk(5 * sim.Nanosecond)
	require.Equal(t, uint64(1), d.Snapshot().Reorders)
	d.coreResumes(8 * sim.Nanosecond) // the core resuming before the master's ask at 10 ns
	require.Equal(t, uint64(2), d.Snapshot().Reorders)
}

func TestHierarchyAlone(t *testing.T) {
	cfg := testConfig()
	cfg.L2.Policy = cache.PLRU // the recent hint answers for PLRU
	h, err := newHierarchy(&cfg, sim.NewRNG(1))
	require.NoError(t, err)
	const line = 0x1234
	require.True(t, h.absent(line))
	held, _ := h.holds(line)
	require.False(t, held)

	// A fill in L2, then lookups: claimRecent finds it through the hint,
	// find without marking it used; L1 still misses.
	e, hit := h.lv[1].Claim(line, true)
	require.False(t, hit)
	h.lv[1].Meta[e] = cache.Line{Ready: 7, Ver: 3, Dirty: true}
	require.Equal(t, e, h.lv[1].Recent(line), "the fill set the recent hint")
	got, hit := h.claimRecent(1, line)
	require.True(t, hit)
	require.Equal(t, e, got)
	require.Equal(t, e, h.find(1, line))
	require.Equal(t, -1, h.find(0, line))
	require.False(t, h.absent(line))
	held, dirty := h.holds(line)
	require.True(t, held)
	require.True(t, dirty)

	s := h.Snapshot()
	require.Len(t, s.Levels, 2)
	require.Equal(t, LevelState{Name: "l1d", Sets: 128, Ways: 4, LineBytes: 64, Latency: 4 * sim.Nanosecond}, s.Levels[0])
	require.Equal(t, uint64(1), s.Levels[1].Fills)
	require.Equal(t, uint64(1), h.fills())
	set := line % 512 // L2: 256 KiB / 64 B / 8 ways
	w := h.window(1, set, 1)
	require.Len(t, w, 8)
	require.Equal(t, EntryState{Valid: true, Dirty: true, Line: line, Ver: 3, Ready: 7}, w[e-set*8])
	require.Nil(t, h.window(2, 0, 1), "no L3")
}

func TestCoreAlone(t *testing.T) {
	c := newCore(CoreConfig{MLP: 2}, PrefetchConfig{})
	// Two fills in flight until 100 ns; the third waits for the first.
	for range 2 {
		start, wait := c.fillSlot()
		require.Zero(t, start)
		require.Zero(t, wait)
		c.fillDone(100 * sim.Nanosecond)
	}
	require.Equal(t, CoreState{FillsInUse: 2}, c.Snapshot())
	start, wait := c.fillSlot()
	require.Equal(t, 100*sim.Nanosecond, start)
	require.Equal(t, 100*sim.Nanosecond, wait)
	require.Equal(t, 100*sim.Nanosecond, c.now, "the core waited for the slot")
	// Idling moves the clock only; spending moves both.
	c.wait(150 * sim.Nanosecond)
	c.spend(5 * sim.Nanosecond)
	c.wait(10 * sim.Nanosecond) // in the past: nothing
	s := c.Snapshot()
	require.Equal(t, 155*sim.Nanosecond, s.Now)
	require.Equal(t, 5*sim.Nanosecond, s.Busy)
}

func TestMaintAlone(t *testing.T) {
	cfg := testConfig().Maint
	cfg.Inflight = 2
	u := newMaint(cfg)
	require.Equal(t, cfg.CleanLatency, u.latency(CVAC))
	require.Equal(t, cfg.InvalLatency, u.latency(IVAC))
	require.Equal(t, cfg.InvalLatency, u.latency(CIVAC))
	// Two ops issue at once; the third waits for the first to complete.
	for _, done := range []sim.Time{50 * sim.Nanosecond, 60 * sim.Nanosecond} {
		free, wait := u.issue(0)
		require.Equal(t, cfg.Issue, free)
		require.Zero(t, wait)
		u.complete(done)
	}
	require.Equal(t, MaintState{InFlight: 2, Done: 60 * sim.Nanosecond}, u.Snapshot(0))
	free, wait := u.issue(2 * sim.Nanosecond)
	require.Equal(t, 50*sim.Nanosecond+cfg.Issue, free)
	require.Equal(t, 48*sim.Nanosecond, wait)
	require.Equal(t, 1, u.Snapshot(55*sim.Nanosecond).InFlight)
}

func TestNCPathAlone(t *testing.T) {
	p := newNCPath(NCConfig{Inflight: 4, DeviceInflight: 1, ReadBytes: 16})
	require.Same(t, &p.dev, p.queue(mem.Device))
	require.Same(t, &p.nc, p.queue(mem.NormalNC))
	per, size := p.split(64, false)
	require.Equal(t, uint64(4), per, "a 64-byte load is four 16-byte reads")
	require.Equal(t, 16, size)
	per, size = p.split(64, true)
	require.Equal(t, uint64(1), per, "a store is one posted write")
	require.Equal(t, 64, size)
	per, _ = p.split(8, false)
	require.Equal(t, uint64(1), per)
	p.queue(mem.Device).Done(30)
	require.Equal(t, NCState{DeviceInFlight: 1}, p.Snapshot(20))
	require.Equal(t, NCState{}, p.Snapshot(30))
}

func TestMastersAlone(t *testing.T) {
	u := newMasters()
	_, err := u.add(DeviceConfig{Name: "etr", Burst: 0, Bandwidth: 1e9})
	require.ErrorContains(t, err, "device etr: burst: 0 is out of range; allowed 1..65536")
	a, err := u.add(DeviceConfig{Name: "etr", Burst: 64, Bandwidth: 1e9})
	require.NoError(t, err)
	b, err := u.add(DeviceConfig{Name: "nic", Burst: 64, Bandwidth: 1e9, Coherent: true})
	require.NoError(t, err)
	require.Equal(t, uint8(2), u.writer(a))
	require.Equal(t, uint8(3), u.writer(b))
	require.Equal(t, mem.Nobody, u.writer(7))
	// A job runs; one queued behind it; a retired slot is reused.
	j := u.newJob(dmaJob{dev: a, n: 4096})
	u.activate(a, j, 5)
	require.Equal(t, sim.Time(5), u.horizon)
	u.devices[a].queued = append(u.devices[a].queued, u.newJob(dmaJob{dev: a, n: 64}))
	require.Equal(t, MastersState{Steps: 1, Devices: []MasterState{
		{Name: "etr", Writer: 2, Busy: true, Queued: 1},
		{Name: "nic", Coherent: true, Writer: 3},
	}}, u.Snapshot())
	require.Equal(t, uint64(4096), u.retire(j).n)
	require.Equal(t, j, u.newJob(dmaJob{dev: b}))
	require.ErrorIs(t, u.enqueue(1, 0, 0), errSchedule, "no agent registered")
}

// TestStateIsPlainAndChangesNothing: the composed machine's State after a
// run agrees with its counters, and taking it changes no state.
func TestStateIsPlainAndChangesNothing(t *testing.T) {
	m := newMachine(t, nil)
	buf := alloc(t, m, "buf", 64<<10, mem.Normal, true)
	dev := must[DeviceID](t)(m.AddDevice(DeviceConfig{Name: "dev", Burst: 256, Bandwidth: 4e9}))
	must[sim.Time](t)(m.DeviceWrite(dev, buf.PA(0), 16<<10))
	must[sim.Time](t)(m.Read(buf.VA, 32<<10, 16))
	must[sim.Time](t)(m.DC(CIVAC, buf.VA, 8<<10))
	h := m.Hash()
	s := m.State()
	require.Equal(t, h, m.Hash())
	require.Equal(t, m.Now(), s.Core.Now)
	require.Equal(t, m.Count(L1DCacheRefill), s.Caches.Levels[0].Fills)
	require.Equal(t, m.Outstanding(), s.Maint.Done)
	require.Equal(t, m.OutstandingDC(), s.Maint.InFlight)
	require.Equal(t, m.DeviceTime(dev), s.Masters.Devices[0].Now)
	require.Equal(t, m.DRAMAskReorders(), s.DRAM.Reorders)
	require.GreaterOrEqual(t, s.DRAM.Free, s.DRAM.Posted)
	w := m.CacheWindow(0, 0, 128)
	valid := 0
	for _, e := range w {
		if e.Valid {
			valid++
			held, _ := m.Holds(e.Line)
			require.True(t, held)
		}
	}
	require.Equal(t, 32<<10/64-8<<10/64, valid, "L1D holds what the read brought in, less what DC CIVAC dropped")
}

// The translation hardware's state counts what the PMU events count for
// the core's own accesses (no foreign translator, so nothing else adds).
func TestTranslationState(t *testing.T) {
	require.Equal(t, TranslationState{}, newMachine(t, nil).State().TLB)
	m := newMachine(t, translating(false))
	src := alloc(t, m, "src", 4<<20, mem.Normal, false)
	dst := alloc(t, m, "dst", 4<<20, mem.Normal, false)
	must[sim.Time](t)(m.Copy(dst.VA, src.VA, src.Size, 16))
	// A trace unit's walk refills the shared L2 TLB but is not the core's.
	aux := alloc(t, m, "aux", 4<<20, mem.Normal, false)
	p, err := m.AddTracePort("trbe", 5)
	require.NoError(t, err)
	_, err = p.Translate(aux.VA, true, m.Now())
	require.NoError(t, err)
	s := m.State().TLB
	require.True(t, s.Enabled)
	require.NotZero(t, s.CoreWalks)
	require.Greater(t, s.L2Refills, s.CoreWalks)
	require.Equal(t, m.Count(DTLBWalk), s.CoreWalks)
	require.Equal(t, m.Count(L2DTLBRefill), s.L2Refills)
	require.Equal(t, m.Count(L1DTLBRefill), s.L1DRefills)
	m.InvalidateTLBs()
	must[sim.Time](t)(m.Read(src.VA, 64, 16))
	require.Equal(t, s.CoreWalks+1, m.State().TLB.CoreWalks, "after TLBI the first access walks again")
}
