package soc

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// withL3 adds a 30 ns L3 to the test machine (L2 10 ns, DRAM 100 ns).
func withL3(c *Config) {
	c.L3 = cache.Config{Name: "l3", Size: 1 << 20, Ways: 16, LineBytes: 64, Policy: cache.LRU, Latency: 30 * sim.Nanosecond}
}

// The I/O times come from the core's latencies, less its own cluster (an
// L2 hit): L3 30-10, DRAM 100-10, a snoop twice the home trip plus the
// cluster's L2. Moving DRAM's latency moves a device's DRAM read by as
// much, and nothing else.
func TestIOTimesFromTheCoreLatencies(t *testing.T) {
	m := newMachine(t, withL3)
	ns := sim.Nanosecond
	assert.Equal(t, IOTimes{L3: 20 * ns, DRAM: 90 * ns, Snoop: 50 * ns, Write: 20 * ns}, m.IOTimes())
	slow := newMachine(t, func(c *Config) { withL3(c); c.DRAM.Latency += 30 * ns })
	want := m.IOTimes()
	want.DRAM += 30 * ns
	assert.Equal(t, want, slow.IOTimes())
	// Without an L3 the trip to the home node is one L2 hit time.
	assert.Equal(t, IOTimes{L3: 10 * ns, DRAM: 90 * ns, Snoop: 30 * ns, Write: 10 * ns}, newMachine(t, nil).IOTimes())
}

// A device read is answered where the line is: a line the core wrote is
// snooped (and cleaned: DRAM gets it), a line only in the L3 comes from
// there, a line no cache holds from DRAM, each at the derived time after
// the agent's port.
func TestIOReadServedWhereTheLineIs(t *testing.T) {
	m := newMachine(t, withL3)
	io := m.IOTimes()
	b := alloc(t, m, "b", 4096, mem.Normal, false)
	must[sim.Time](t)(m.Write(b.VA, 64, 8))   // line 0: dirty in L1
	must[sim.Time](t)(m.Read(b.VA+64, 64, 8)) // line 1: in every level
	line1 := b.PA(64) >> 6
	for i := 0; i < 2; i++ { // line 1 left in the L3 alone
		c := m.hier.lv[i]
		c.Drop(c.Find(line1))
	}
	port := 7 * sim.Nanosecond
	at := m.Now() + sim.Microsecond
	done, s := m.IOAccess(at, b.PA(0), 64, false, port, 0, 2)
	assert.Equal(t, ServedSnoop, s)
	assert.Equal(t, at+port+io.Snoop, done)
	e := m.hier.lv[0].Find(b.PA(0) >> 6)
	require.GreaterOrEqual(t, e, 0, "a read snoop leaves the core its copy")
	assert.False(t, m.hier.lv[0].Meta[e].Dirty, "forwarded and cleaned")

	done, s = m.IOAccess(at, b.PA(64), 64, false, port, 0, 2)
	assert.Equal(t, ServedL3, s)
	assert.Equal(t, at+port+io.L3, done)

	done, s = m.IOAccess(at, b.PA(128), 64, false, port, 0, 2)
	assert.Equal(t, ServedDRAM, s)
	assert.Equal(t, at+port+io.DRAM, done, "the channel is free: the DRAM time exactly")
	// A 192-byte read over the three lines waits for its slowest, DRAM.
	done, s = m.IOAccess(at+sim.Microsecond, b.PA(0), 192, false, port, 0, 2)
	assert.Equal(t, ServedDRAM, s)
	assert.Equal(t, at+sim.Microsecond+port+io.DRAM, done)
}

// A device write invalidates the core's copies; its stashed first line
// arrives clean in the core's L2 (where the core's next read hits), the
// rest only in DRAM.
func TestIOWriteInvalidatesAndStashes(t *testing.T) {
	m := newMachine(t, withL3)
	b := alloc(t, m, "b", 4096, mem.Normal, false)
	must[sim.Time](t)(m.Write(b.VA, 128, 8)) // both lines dirty in L1
	at := m.Now() + sim.Microsecond
	done, _ := m.IOAccess(at, b.PA(0), 128, true, 0, 1, 2)
	assert.Equal(t, at+m.IOTimes().Write, done, "acknowledged by the home node")
	l0, l1 := b.PA(0)>>6, b.PA(64)>>6
	for i, c := range m.hier.lv {
		assert.Less(t, c.Find(l1), 0, "line 1 invalidated in level %d", i)
		if i != 1 {
			assert.Less(t, c.Find(l0), 0, "line 0 only in L2 (level %d)", i)
		}
	}
	e := m.hier.lv[1].Find(l0)
	require.GreaterOrEqual(t, e, 0, "line 0 stashed into L2")
	assert.False(t, m.hier.lv[1].Meta[e].Dirty)
	m.WaitUntil(done)
	refills := m.Count(L2DCacheRefill)
	t0 := m.Now()
	must[sim.Time](t)(m.Read(b.VA, 8, 8))
	assert.Equal(t, refills, m.Count(L2DCacheRefill), "the core's read hits L2")
	assert.Less(t, m.Now()-t0, m.cfg.L3.Latency)
}
