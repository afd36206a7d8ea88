package soc

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// testConfig is a small, round-numbered machine: 1 GHz core, 1 ns per
// load/store, L1 4 ns, L2 10 ns, DRAM 100 ns at 10 GB/s, 4 outstanding
// fills, no prefetcher, 2 NC loads in flight, DC ops 1 ns issue, 50/60 ns
// completion, 64 in flight.
func testConfig() Config {
	clk := sim.Clocks{CPU: 1 * sim.GHz, Platform: 1 * sim.GHz, DRAM: 1 * sim.GHz}
	return Config{
		Name:   "test",
		Clocks: clk,
		Core:   CoreConfig{LoadIssue: sim.Nanosecond, StoreIssue: sim.Nanosecond, MLP: 4, WriteStreamAfter: 0},
		L1D:    cache.Config{Name: "l1d", Size: 32 << 10, Ways: 4, LineBytes: 64, Policy: cache.LRU, Latency: 4 * sim.Nanosecond},
		L2:     cache.Config{Name: "l2", Size: 256 << 10, Ways: 8, LineBytes: 64, Policy: cache.LRU, Latency: 10 * sim.Nanosecond},
		DRAM:   DRAMConfig{Latency: 100 * sim.Nanosecond, Bandwidth: 10e9, MinBurst: 64},
		NC:     NCConfig{Inflight: 2, DeviceInflight: 1},
		Maint: MaintConfig{Issue: sim.Nanosecond, CleanLatency: 50 * sim.Nanosecond, InvalLatency: 60 * sim.Nanosecond,
			Inflight: 64},
		MemBytes: 64 << 20,
		MaxOrder: 10,
	}
}

func newMachine(t testing.TB, mut func(*Config)) *Machine {
	t.Helper()
	cfg := testConfig()
	if mut != nil {
		mut(&cfg)
	}
	m, err := New(cfg, 1)
	require.NoError(t, err)
	return m
}

func alloc(t testing.TB, m *Machine, name string, size uint64, attr mem.Attr, track bool) Buffer {
	t.Helper()
	b, err := m.Alloc(name, size, attr)
	require.NoError(t, err)
	if track {
		require.NoError(t, m.Track(b))
	}
	return b
}

func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		require.NoError(t, err)
		return v
	}
}
