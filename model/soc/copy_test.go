package soc

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// Copying out of a Normal-NC mapping is one bus transaction per load,
// nc.inflight at a time; out of the cacheable mapping it is one fill per
// line, core.mlp at a time.
func TestNCVersusCacheableCopy(t *testing.T) {
	const size = 256 << 10
	lines := uint64(size / 64)
	var took [2]sim.Time
	for i, attr := range []mem.Attr{mem.NormalNC, mem.Normal} {
		m := newMachine(t, func(c *Config) { c.Core.WriteStreamAfter = 2 })
		src := alloc(t, m, "src", size, mem.Normal, false)
		if attr == mem.NormalNC {
			src = must[Buffer](t)(m.Alias(src, "src-nc", mem.NormalNC))
		}
		dst := alloc(t, m, "dst", size, mem.Normal, false)
		took[i] = must[sim.Time](t)(m.Copy(dst.VA, src.VA, size, 16))
		loads := uint64(size / 16)
		require.Equal(t, 2*loads, m.Count(MemAccess), "%v: mem_access %d, want %d", attr, m.Count(MemAccess), 2*loads)
		if attr == mem.NormalNC {
			require.Equal(t, loads, m.Count(BusReadNC), "NC: bus_read_nc %d (want %d), bus_read_line %d (want only the 2 dst fills before streaming)", m.Count(BusReadNC), loads, m.Count(BusReadLine))
			require.EqualValues(t, 2, m.Count(BusReadLine), "NC: bus_read_nc %d (want %d), bus_read_line %d (want only the 2 dst fills before streaming)", m.Count(BusReadNC), loads, m.Count(BusReadLine))
			// 100 ns per load, 2 in flight.
			want := float64(loads) * 50
			{
				got := took[i].Nanoseconds()
				require.False(t, math.Abs(got-want)/want > 0.02, "NC copy %.0f ns, want %.0f +-2%%", got, want)
			}
		} else {
			require.EqualValues(t, 0, m.Count(BusReadNC), "cacheable: bus_read_nc %d, bus_read_line %d (want %d)", m.Count(BusReadNC), m.Count(BusReadLine), lines+2)
			require.Equal(t, lines+2, m.Count(BusReadLine), "cacheable: bus_read_nc %d, bus_read_line %d (want %d)", m.Count(BusReadNC), m.Count(BusReadLine), lines+2)
			require.Equal(t, lines-2, m.Count(BusWriteStream), "write streaming: %d lines, want %d", m.Count(BusWriteStream), lines-2)
			// One fill per line, 4 in flight at 100 ns: 25 ns per line.
			want := float64(lines) * 25
			{
				got := took[i].Nanoseconds()
				require.False(t, math.Abs(got-want)/want > 0.05, "cacheable copy %.0f ns, want %.0f +-5%%", got, want)
			}
		}
	}
	{
		r := float64(took[0]) / float64(took[1])
		require.False(t, r < 7.5, "NC/cacheable ratio %.2f, want about 8 (4 loads per line / 2 in flight vs 1 fill per line / 4)", r)
		require.False(t, r > 8.5, "NC/cacheable ratio %.2f, want about 8 (4 loads per line / 2 in flight vs 1 fill per line / 4)", r)
	}
}

// A second copy of data already in L1 runs at the issue rate.
func TestCopyHitsRunAtIssueRate(t *testing.T) {
	m := newMachine(t, nil)
	src := alloc(t, m, "src", 8192, mem.Normal, false)
	dst := alloc(t, m, "dst", 8192, mem.Normal, false)
	must[sim.Time](t)(m.Copy(dst.VA, src.VA, 8192, 16))
	refills := m.Count(L1DCacheRefill)
	got := must[sim.Time](t)(m.Copy(dst.VA, src.VA, 8192, 16))
	require.Equal(t, refills, m.Count(L1DCacheRefill), "warm copy missed in L1")
	// 512 loads + 512 stores at 1 ns each (hits already complete).
	require.EqualValues(t, 1024*sim.Nanosecond, got, "warm copy %v, want 1.024us", got)
}

// Misaligned copies touch each source and destination line and still
// move n bytes.
func TestMisalignedCopy(t *testing.T) {
	m := newMachine(t, nil)
	src := alloc(t, m, "src", 8192, mem.Normal, false)
	dst := alloc(t, m, "dst", 8192, mem.Normal, false)
	must[sim.Time](t)(m.Copy(dst.VA+8, src.VA+40, 4096, 8))
	require.EqualValues(t, 65+65, m.Count(L1DCacheRefill), "l1d refills %d, want 130 (65 source + 65 destination lines)", m.Count(L1DCacheRefill))
}

func TestValidationErrorsNameTheField(t *testing.T) {
	for _, c := range []struct {
		mut  func(*Config)
		want string
	}{
		{func(c *Config) { c.L1D.Ways = 0 }, "l1d.ways: 0 is out of range; allowed 1..64"},
		{func(c *Config) { c.L2.LineBytes = 96 }, "l2.line_bytes: 96 is not a power of two"},
		{func(c *Config) { c.L2.LineBytes, c.L2.Size = 128, 256<<10 }, "l2.line_bytes: 128; must equal l1d.line_bytes (64)"},
		{func(c *Config) { c.Core.MLP = 0 }, "core.mlp: 0 is out of range; allowed 1..256"},
		{func(c *Config) { c.NC.Inflight = 0 }, "nc.inflight"},
		{func(c *Config) { c.DRAM.Bandwidth = 0 }, "dram.bandwidth"},
		{func(c *Config) { c.DRAM.Latency = 0 }, "dram.latency"},
		{func(c *Config) { c.Clocks.CPU = 0 }, "clocks.cpu"},
		{func(c *Config) { c.MemBytes = 1000 }, "mem.bytes"},
		{func(c *Config) { c.Prefetch.Streams = 2 }, "prefetch.inflight"},
		{func(c *Config) { c.L3.Size, c.L3.Name = 1<<20, "l3" }, "l3.ways"},
	} {
		cfg := testConfig()
		c.mut(&cfg)
		_, err := New(cfg, 1)
		require.Error(t, err, "error %v, want it to contain %q", err, c.want)
		assert.Contains(t, err.Error(), c.want, "error %v, want it to contain %q", err, c.want)
	}
	m := newMachine(t, nil)
	{
		_, err := m.Alloc("huge", 1<<30, mem.Normal)
		require.Error(t, err, "oversized buffer: %v", err)
		assert.Contains(t, err.Error(), "buffer: 1GiB is larger than memory (64MiB)", "oversized buffer: %v", err)
	}
	{
		_, err := m.Alloc("zero", 0, mem.Normal)
		require.Error(t, err, "empty buffer: %v", err)
		assert.Contains(t, err.Error(), "buffer", "empty buffer: %v", err)
	}
	b := alloc(t, m, "b", 4096, mem.Normal, false)
	{
		_, err := m.Copy(b.VA, b.VA+64, 64, 3)
		require.Error(t, err, "width 3: %v", err)
		assert.Contains(t, err.Error(), "width: 3", "width 3: %v", err)
	}
	{
		_, err := m.Read(0xdead0000, 64, 8)
		require.Error(t, err, "unmapped read: %v", err)
		assert.Contains(t, err.Error(), "not mapped", "unmapped read: %v", err)
	}
	{
		_, err := m.Copy(b.VA, b.VA+2048, 8192, 8)
		require.Error(t, err, "copy running off the mapping: %v", err)
		assert.Contains(t, err.Error(), "not mapped", "copy running off the mapping: %v", err)
	}
	{
		_, err := m.DC(DCOp(9), b.VA, 64)
		require.Error(t, err, "bad DC op accepted")
	}
	{
		_, err := m.DeviceWrite(3, 0, 64)
		require.Error(t, err, "unknown device: %v", err)
		assert.Contains(t, err.Error(), "device", "unknown device: %v", err)
	}
	{
		_, err := m.AddDevice(DeviceConfig{Name: "x", Burst: 0, Bandwidth: 1e9})
		require.Error(t, err, "burst 0: %v", err)
		assert.Contains(t, err.Error(), "burst", "burst 0: %v", err)
	}
}
