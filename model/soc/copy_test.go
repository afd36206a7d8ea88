package soc

import (
	"math"
	"strings"
	"testing"

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
		if m.Count(MemAccess) != 2*loads {
			t.Fatalf("%v: mem_access %d, want %d", attr, m.Count(MemAccess), 2*loads)
		}
		if attr == mem.NormalNC {
			if m.Count(BusReadNC) != loads || m.Count(BusReadLine) != 2 {
				t.Fatalf("NC: bus_read_nc %d (want %d), bus_read_line %d (want only the 2 dst fills before streaming)",
					m.Count(BusReadNC), loads, m.Count(BusReadLine))
			}
			// 100 ns per load, 2 in flight.
			want := float64(loads) * 50
			if got := took[i].Nanoseconds(); math.Abs(got-want)/want > 0.02 {
				t.Fatalf("NC copy %.0f ns, want %.0f +-2%%", got, want)
			}
		} else {
			if m.Count(BusReadNC) != 0 || m.Count(BusReadLine) != lines+2 {
				t.Fatalf("cacheable: bus_read_nc %d, bus_read_line %d (want %d)", m.Count(BusReadNC), m.Count(BusReadLine), lines+2)
			}
			if m.Count(BusWriteStream) != lines-2 {
				t.Fatalf("write streaming: %d lines, want %d", m.Count(BusWriteStream), lines-2)
			}
			// One fill per line, 4 in flight at 100 ns: 25 ns per line.
			want := float64(lines) * 25
			if got := took[i].Nanoseconds(); math.Abs(got-want)/want > 0.05 {
				t.Fatalf("cacheable copy %.0f ns, want %.0f +-5%%", got, want)
			}
		}
	}
	if r := float64(took[0]) / float64(took[1]); r < 7.5 || r > 8.5 {
		t.Fatalf("NC/cacheable ratio %.2f, want about 8 (4 loads per line / 2 in flight vs 1 fill per line / 4)", r)
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
	if m.Count(L1DCacheRefill) != refills {
		t.Fatal("warm copy missed in L1")
	}
	// 512 loads + 512 stores at 1 ns each (hits already complete).
	if got != 1024*sim.Nanosecond {
		t.Fatalf("warm copy %v, want 1.024us", got)
	}
}

// Misaligned copies touch each source and destination line and still
// move n bytes.
func TestMisalignedCopy(t *testing.T) {
	m := newMachine(t, nil)
	src := alloc(t, m, "src", 8192, mem.Normal, false)
	dst := alloc(t, m, "dst", 8192, mem.Normal, false)
	must[sim.Time](t)(m.Copy(dst.VA+8, src.VA+40, 4096, 8))
	if m.Count(L1DCacheRefill) != 65+65 {
		t.Fatalf("l1d refills %d, want 130 (65 source + 65 destination lines)", m.Count(L1DCacheRefill))
	}
}

func TestValidationErrorsNameTheField(t *testing.T) {
	for _, c := range []struct {
		mut  func(*Config)
		want string
	}{
		{func(c *Config) { c.L1D.Ways = 0 }, "l1d.ways: 0 is out of range; allowed 1..4096"},
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
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want it to contain %q", err, c.want)
		}
	}
	m := newMachine(t, nil)
	if _, err := m.Alloc("huge", 1<<30, mem.Normal); err == nil || !strings.Contains(err.Error(), "buffer: 1GiB is larger than memory (64MiB)") {
		t.Errorf("oversized buffer: %v", err)
	}
	if _, err := m.Alloc("zero", 0, mem.Normal); err == nil || !strings.Contains(err.Error(), "buffer") {
		t.Errorf("empty buffer: %v", err)
	}
	b := alloc(t, m, "b", 4096, mem.Normal, false)
	if _, err := m.Copy(b.VA, b.VA+64, 64, 3); err == nil || !strings.Contains(err.Error(), "width: 3") {
		t.Errorf("width 3: %v", err)
	}
	if _, err := m.Read(0xdead0000, 64, 8); err == nil || !strings.Contains(err.Error(), "not mapped") {
		t.Errorf("unmapped read: %v", err)
	}
	if _, err := m.Copy(b.VA, b.VA+2048, 8192, 8); err == nil || !strings.Contains(err.Error(), "not mapped") {
		t.Errorf("copy running off the mapping: %v", err)
	}
	if _, err := m.DC(DCOp(9), b.VA, 64); err == nil {
		t.Error("bad DC op accepted")
	}
	if _, err := m.DeviceWrite(3, 0, 64); err == nil || !strings.Contains(err.Error(), "device") {
		t.Errorf("unknown device: %v", err)
	}
	if _, err := m.AddDevice(DeviceConfig{Name: "x", Burst: 0, Bandwidth: 1e9}); err == nil || !strings.Contains(err.Error(), "burst") {
		t.Errorf("burst 0: %v", err)
	}
}
