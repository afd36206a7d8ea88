package soc

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// kinds counts the events of each kind in log.
func kinds(log *hwevent.Log) map[hwevent.Kind]int {
	n := map[hwevent.Kind]int{}
	for _, e := range log.Events {
		n[e.Kind]++
	}
	return n
}

// The moment a non-coherent device writes lines the CPU has cached, each
// cached copy is reported stale (dirty ones doomed), before anything
// reads them; each copy then ends once, in the fate that ended it.
func TestOutdatedCopiesAndTheirFates(t *testing.T) {
	const lines = 64 // 4 KiB, all cached by the first access
	for _, c := range []struct {
		name  string
		dirty bool                                // the CPU wrote the buffer (else read it)
		after func(m *Machine, b Buffer) sim.Time // what the CPU does once the device wrote
		want  func(f Fates) (got, want uint64)    // the fate every copy must end in
		kind  hwevent.Kind                        // the event reporting the copies
		ends  map[hwevent.Kind]int                // events the ends report
	}{
		{"read stale", false, func(m *Machine, b Buffer) sim.Time { return must[sim.Time](t)(m.Read(b.VA, b.Size, 16)) },
			func(f Fates) (uint64, uint64) { return f.Read, lines }, hwevent.StaleCopy, nil},
		{"invalidated by a sync", false, func(m *Machine, b Buffer) sim.Time { return must[sim.Time](t)(m.DC(IVAC, b.VA, b.Size)) },
			func(f Fates) (uint64, uint64) { return f.Invalidated, lines }, hwevent.StaleCopy, nil},
		{"evicted by other fills", false, func(m *Machine, b Buffer) sim.Time {
			other := alloc(t, m, "other", 1<<20, mem.Normal, false) // 4x L2
			return must[sim.Time](t)(m.Read(other.VA, other.Size, 64))
		}, func(f Fates) (uint64, uint64) { return f.Evicted, lines }, hwevent.StaleCopy, map[hwevent.Kind]int{hwevent.StaleEvicted: lines}},
		{"written again by the CPU", false, func(m *Machine, b Buffer) sim.Time { return must[sim.Time](t)(m.Write(b.VA, b.Size, 16)) },
			func(f Fates) (uint64, uint64) { return f.Overwritten, lines }, hwevent.StaleCopy, nil},
		{"doomed, then written back by DC CIVAC", true, func(m *Machine, b Buffer) sim.Time { return must[sim.Time](t)(m.DC(CIVAC, b.VA, b.Size)) },
			func(f Fates) (uint64, uint64) { return f.Lost, lines }, hwevent.Doomed, nil},
		{"doomed, then still cached", true, func(m *Machine, b Buffer) sim.Time { return 0 },
			func(f Fates) (uint64, uint64) { return f.StillHeld, lines }, hwevent.Doomed, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := newMachine(t, nil)
			b := alloc(t, m, "buf", lines*64, mem.Normal, true)
			dev := addDev(t, m, false)
			if c.dirty {
				must[sim.Time](t)(m.Write(b.VA, b.Size, 16))
			} else {
				must[sim.Time](t)(m.Read(b.VA, b.Size, 16))
			}
			var log hwevent.Log
			m.SetObserver(&log)
			m.WatchPhys(b.PA(0), b.Size)
			end := must[sim.Time](t)(m.DeviceWrite(dev, b.PA(0), b.Size))
			n := kinds(&log)
			require.Equal(t, lines, n[c.kind], "%v events when the device wrote", c.kind)
			for _, e := range log.Events {
				if e.Kind == c.kind {
					assert.LessOrEqual(t, e.T, end, "reported when the burst landed")
					assert.Equal(t, m.DeviceWriter(dev), e.Agent, "the device made the copy old")
				}
			}
			f := m.Fates()
			assert.EqualValues(t, lines, f.Stale+f.Doomed)
			assert.EqualValues(t, lines, f.StillHeld, "every copy outdated until something ends it")
			m.WaitUntil(end)
			c.after(m, b)
			f = m.Fates()
			got, want := c.want(f)
			assert.EqualValues(t, want, got, "fates %+v", f)
			assert.Equal(t, f.Stale+f.Doomed, f.Read+f.Evicted+f.Invalidated+f.Lost+f.Discarded+f.Overwritten+f.StillHeld,
				"each copy ends once: %+v", f)
			for k, want := range c.ends {
				assert.Equal(t, want, kinds(&log)[k], "%v events", k)
			}
		})
	}
}

// A DC IVAC that does not clean (maint.ivac_cleans off) drops a doomed
// line: the device's data under it survives, counted as discarded.
func TestDoomedDiscardedByIVAC(t *testing.T) {
	m := newMachine(t, func(c *Config) { c.Maint.IVACCleans = false })
	b := alloc(t, m, "buf", 4096, mem.Normal, true)
	dev := addDev(t, m, false)
	must[sim.Time](t)(m.Write(b.VA, b.Size, 16))
	m.WaitUntil(must[sim.Time](t)(m.DeviceWrite(dev, b.PA(0), b.Size)))
	must[sim.Time](t)(m.DC(IVAC, b.VA, b.Size))
	f := m.Fates()
	assert.EqualValues(t, 64, f.Doomed)
	assert.EqualValues(t, 64, f.Discarded)
	assert.Zero(t, m.Count(LostBytes))
	assert.Zero(t, f.StillHeld)
}

// Data a device writes into a bounce slot outdates the CPU buffer's
// cached copy (stale, even when dirty: the slot's data never lands under
// it), reported with Elsewhere.
func TestBounceSlotOutdatesTheBuffer(t *testing.T) {
	m := newMachine(t, nil)
	b := alloc(t, m, "buf", 4096, mem.Normal, true)
	slot := alloc(t, m, "slot", 4096, mem.Normal, true)
	dev := addDev(t, m, false)
	must[sim.Time](t)(m.Write(b.VA, b.Size, 16))
	require.NoError(t, m.Shadow(slot.PA(0), b.PA(0), b.Size))
	var log hwevent.Log
	m.SetObserver(&log)
	m.WatchPhys(b.PA(0), b.Size)
	m.WaitUntil(must[sim.Time](t)(m.DeviceWrite(dev, slot.PA(0), slot.Size)))
	assert.Equal(t, 64, kinds(&log)[hwevent.StaleCopy])
	assert.Zero(t, kinds(&log)[hwevent.Doomed])
	for _, e := range log.Events {
		if e.Kind == hwevent.StaleCopy {
			require.True(t, e.Has(hwevent.Elsewhere), "%v", e)
		}
	}
	assert.EqualValues(t, 64, m.Fates().Stale)
}

// Watching changes nothing: the fates and counters are the same with and
// without an observer, over a random workload.
func TestFatesDoNotDependOnObserving(t *testing.T) {
	run := func(watch bool) (Fates, []CounterValue) {
		m := newMachine(t, nil)
		b := alloc(t, m, "buf", 64<<10, mem.Normal, true)
		dev := addDev(t, m, false)
		if watch {
			m.SetObserver(&hwevent.Log{})
			m.WatchPhys(b.PA(0), b.Size)
		}
		r := m.RNG()
		for i := 0; i < 200; i++ {
			off := r.Uint64n(b.Size/64) * 64
			n := min(b.Size-off, (1+r.Uint64n(32))*64)
			switch r.Intn(5) {
			case 0:
				must[sim.Time](t)(m.Read(b.VA+off, n, 16))
			case 1:
				must[sim.Time](t)(m.Write(b.VA+off, n, 16))
			case 2:
				m.WaitUntil(must[sim.Time](t)(m.DeviceWrite(dev, b.PA(off), n)))
			case 3:
				must[sim.Time](t)(m.DC(DCOp(r.Intn(3)), b.VA+off, n))
			default:
				m.DSB()
			}
		}
		f := m.Fates()
		require.Equal(t, f.Stale+f.Doomed, f.Read+f.Evicted+f.Invalidated+f.Lost+f.Discarded+f.Overwritten+f.StillHeld, "%+v", f)
		held := 0
		for i, st := range m.chk.outdated {
			if st == copyCurrent {
				continue
			}
			held++
			line := b.PA(0)>>m.lineShift + uint64(i)
			h, _ := m.hier.holds(line)
			require.True(t, h, "line %#x outdated but not cached", line<<m.lineShift)
		}
		require.EqualValues(t, f.StillHeld, held)
		return f, m.Counters()
	}
	f0, c0 := run(false)
	f1, c1 := run(true)
	assert.Equal(t, f0, f1)
	assert.Equal(t, c0, c1)
	assert.NotZero(t, f0.Stale+f0.Doomed, "the workload outdates some copies")
}

// A read after a dirty line's write-back destroyed the device's data is
// stale for that reason (Lost), not as if the data sat in a bounce slot
// (Elsewhere): no slot was declared. The device's next write ends it.
func TestStaleReadAfterALostWriteBackNamesIt(t *testing.T) {
	m := newMachine(t, nil)
	b := alloc(t, m, "buf", 4096, mem.Normal, true)
	dev := addDev(t, m, false)
	must[sim.Time](t)(m.Write(b.VA, b.Size, 16))
	m.WaitUntil(must[sim.Time](t)(m.DeviceWrite(dev, b.PA(0), b.Size)))
	must[sim.Time](t)(m.DC(CIVAC, b.VA, b.Size))
	require.EqualValues(t, 4096, m.Count(LostBytes))
	must[sim.Time](t)(m.Read(b.VA, 64, 16))
	hs := m.Hazards()
	read := hs[len(hs)-1]
	require.Equal(t, hwevent.LineRead, read.Kind, "%+v", hs)
	assert.True(t, read.Has(hwevent.Stale|hwevent.Lost), "%v", read)
	assert.False(t, read.Has(hwevent.Elsewhere), "%v", read)
	// The device writes again: the line's copy, cached by that read, is
	// stale the ordinary way (no sync for the CPU), not destroyed.
	m.WaitUntil(must[sim.Time](t)(m.DeviceWrite(dev, b.PA(0), b.Size)))
	must[sim.Time](t)(m.Read(b.VA, 64, 16))
	hs = m.Hazards()
	again := hs[len(hs)-1]
	require.Equal(t, hwevent.LineRead, again.Kind, "%+v", hs)
	assert.True(t, again.Has(hwevent.Stale), "%v", again)
	assert.False(t, again.Has(hwevent.Lost), "the new data is there: %v", again)
}
