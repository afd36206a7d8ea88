package soc

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// sgSync runs DC op over entries x lines, with a DSB after each entry
// (the old arch hooks) or one DSB at the end (batched), and returns the
// elapsed time.
func sgSync(t *testing.T, m *Machine, b Buffer, op DCOp, entries, lines int, batched bool) sim.Time {
	t0 := m.Now()
	for e := 0; e < entries; e++ {
		must[sim.Time](t)(m.DC(op, b.VA+uint64(e*lines*64), uint64(lines*64)))
		if !batched {
			m.DSB()
		}
	}
	if batched {
		m.DSB()
	}
	return m.Now() - t0
}

// With enough maintenance slots, N entries each followed by a DSB cost
// exactly (N-1) completion latencies and (N-1) barrier costs (maint.dsb)
// more than issuing all and waiting once: the drains and barriers the
// batching removes. The barrier's cost follows the drain, it does not
// overlap it.
func TestBarrierPerEntryVsBatchedExact(t *testing.T) {
	const entries, lines = 10, 8
	const dsb = 7 * sim.Nanosecond
	for _, c := range []struct {
		op  DCOp
		lat sim.Time
	}{{CVAC, 50 * sim.Nanosecond}, {IVAC, 60 * sim.Nanosecond}, {CIVAC, 60 * sim.Nanosecond}} {
		var got [2]sim.Time
		for i, batched := range []bool{false, true} {
			m := newMachine(t, func(c *Config) { c.Maint.DSB = dsb })
			b := alloc(t, m, "sg", entries*lines*64, mem.Normal, false)
			got[i] = sgSync(t, m, b, c.op, entries, lines, batched)
			{
				n := m.Count(DCOps)
				require.EqualValues(t, entries*lines, n, "%v: %d DC ops, want %d", c.op, n, entries*lines)
			}
			wantDSB := uint64(entries)
			if batched {
				wantDSB = 1
			}
			require.Equal(t, wantDSB, m.Count(DSBCount), "%v batched=%v: %d DSBs", c.op, batched, m.Count(DSBCount))
		}
		issue := sim.Time(entries*lines) * sim.Nanosecond
		{
			want := issue + entries*(c.lat+dsb)
			assert.Equal(t, want, got[0], "%v per-entry: %v, want %v", c.op, got[0], want)
		}
		{
			want := issue + c.lat + dsb
			assert.Equal(t, want, got[1], "%v batched: %v, want %v", c.op, got[1], want)
		}
		{
			d := got[0] - got[1]
			assert.Equal(t, (entries-1)*(c.lat+dsb), d, "%v: difference %v, want %d drains of %v and barriers of %v", c.op, d, entries-1, c.lat, dsb)
		}
	}
}

// With few maintenance slots the batched loop becomes throughput-bound:
// every Inflight ops take one issue plus one completion latency.
func TestBarrierLimitedInflight(t *testing.T) {
	m := newMachine(t, func(c *Config) { c.Maint.Inflight = 4 })
	b := alloc(t, m, "sg", 80*64, mem.Normal, false)
	got := sgSync(t, m, b, CVAC, 10, 8, true)
	// 80 ops in 20 groups of 4; a group starts when the op 4 earlier completes (51 ns later).
	want := 19*51*sim.Nanosecond + 4*sim.Nanosecond + 50*sim.Nanosecond
	require.Equal(t, want, got, "batched with 4 slots: %v, want %v", got, want)
	require.NotEqualValues(t, 0, m.Count(DCStall), "no dc_stall counted with a full maintenance queue")
}

func TestDSBWaitsForPostedStoresAndFixedCost(t *testing.T) {
	m := newMachine(t, func(c *Config) { c.Maint.DSB = 7 * sim.Nanosecond })
	{
		d := m.DSB()
		require.EqualValues(t, 7*sim.Nanosecond, d, "idle DSB took %v, want 7ns", d)
	}
	nc := alloc(t, m, "nc", 4096, mem.NormalNC, false)
	must[sim.Time](t)(m.Write(nc.VA, 64, 8)) // 8 posted NC stores
	{
		d := m.DSB()
		require.False(t, d <= 7*sim.Nanosecond, "DSB after posted NC stores took only %v", d)
	}
	require.EqualValues(t, 8, m.Count(BusWriteNC), "bus_write_nc %d, want 8", m.Count(BusWriteNC))
}

// Cleaning a dirty line writes it back; cleaning a clean one does not.
func TestDCStateChanges(t *testing.T) {
	m := newMachine(t, nil)
	b := alloc(t, m, "b", 4096, mem.Normal, false)
	must[sim.Time](t)(m.Write(b.VA, 128, 16)) // two dirty lines
	line := b.PA(0) >> 6
	l1 := m.Cache(0)
	e := l1.Find(line)
	require.False(t, e < 0, "written line not dirty in L1")
	require.True(t, l1.Meta[e].Dirty, "written line not dirty in L1")
	must[sim.Time](t)(m.DC(CVAC, b.VA, 256)) // 4 lines, 2 dirty
	require.False(t, l1.Find(line) < 0, "CVAC must keep the line and clear dirty")
	require.False(t, l1.Meta[e].Dirty, "CVAC must keep the line and clear dirty")
	require.EqualValues(t, 2, m.Count(BusWriteLine), "bus_write_line %d, want 2", m.Count(BusWriteLine))
	must[sim.Time](t)(m.DC(CIVAC, b.VA, 64))
	for i := 0; i < m.Levels(); i++ {
		require.False(t, m.Cache(i).Find(line) >= 0, "CIVAC left the line in level %d", i)
	}
}

func TestOutstandingDC(t *testing.T) {
	m := newMachine(t, nil)
	b := alloc(t, m, "b", 4096, mem.Normal, false)
	must[sim.Time](t)(m.DC(CVAC, b.VA, 640)) // 10 ops, 1 ns apart, 50 ns each
	{
		n := m.OutstandingDC()
		require.EqualValues(t, 10, n, "outstanding after issue: %d, want 10", n)
	}
	m.WaitUntil(m.Now() + 45*sim.Nanosecond) // ops 0..4 done
	{
		n := m.OutstandingDC()
		require.EqualValues(t, 5, n, "outstanding 45ns later: %d, want 5", n)
	}
	m.DSB()
	{
		n := m.OutstandingDC()
		require.EqualValues(t, 0, n, "outstanding after DSB: %d", n)
	}
}
