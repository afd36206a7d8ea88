package soc

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

func readTime(t *testing.T, mut func(*Config), size uint64) (sim.Time, *Machine) {
	t.Helper()
	m := newMachine(t, mut)
	b := alloc(t, m, "b", size, mem.Normal, false)
	return must[sim.Time](t)(m.Read(b.VA, size, 64)), m
}

// Demand misses overlap up to core.mlp: a cold sequential read of L lines
// takes about L*latency/mlp.
func TestMLPBoundsMissOverlap(t *testing.T) {
	const size = 64 << 10
	lines := float64(size / 64)
	for _, mlp := range []int{1, 2, 8} {
		got, m := readTime(t, func(c *Config) { c.Core.MLP = mlp }, size)
		want := lines * 100 / float64(mlp) // ns
		{
			g := got.Nanoseconds()
			assert.False(t, math.Abs(g-want)/want > 0.05, "mlp %d: %.0f ns, want about %.0f", mlp, g, want)
		}
		assert.EqualValues(t, size/64, m.Count(L1DCacheRefill), "mlp %d: refills l1 %d l2 %d", mlp, m.Count(L1DCacheRefill), m.Count(L2DCacheRefill))
		assert.EqualValues(t, size/64, m.Count(L2DCacheRefill), "mlp %d: refills l1 %d l2 %d", mlp, m.Count(L1DCacheRefill), m.Count(L2DCacheRefill))
	}
}

// With unlimited overlap the stream is DRAM-bandwidth bound.
func TestDRAMBandwidthBound(t *testing.T) {
	const size = 256 << 10
	got, _ := readTime(t, func(c *Config) { c.Core.MLP = 256; c.Core.LoadIssue = 0 }, size)
	want := float64(size) / 10e9 * 1e9 // ns at 10 GB/s
	{
		g := got.Nanoseconds()
		require.GreaterOrEqual(t, g, want, "bandwidth-bound read %.0f ns, want about %.0f (+latency)", g, want)
		require.LessOrEqual(t, g, want*1.05+100, "bandwidth-bound read %.0f ns, want about %.0f (+latency)", g, want)
	}
}

// The stride prefetcher runs ahead of a sequential stream: fewer demand
// misses reach DRAM and the read is faster; prefetch_lines counts them.
func TestPrefetcherSpeedsSequentialRead(t *testing.T) {
	const size = 64 << 10
	off, _ := readTime(t, nil, size)
	on, m := readTime(t, func(c *Config) {
		c.Prefetch = PrefetchConfig{PrefetchConfig: cache.PrefetchConfig{Streams: 2, Degree: 8, Confirm: 2, MaxStride: 4, PageLines: 64}, Inflight: 8}
	}, size)
	require.NotEqualValues(t, 0, m.Count(PrefetchLines), "prefetch on %v (%d lines) vs off %v: want at least 25%% faster", on, m.Count(PrefetchLines), off)
	require.Less(t, on, off*3/4, "prefetch on %v (%d lines) vs off %v: want at least 25%% faster", on, m.Count(PrefetchLines), off)
	require.EqualValues(t, size/64, m.Count(BusReadLine), "bus_read_line %d, want each line fetched once (%d)", m.Count(BusReadLine), size/64)
}

// An L3 between L2 and DRAM serves L2 misses at its latency.
func TestL3Hit(t *testing.T) {
	mut := func(c *Config) {
		c.L3 = cache.Config{Name: "l3", Size: 1 << 20, Ways: 16, LineBytes: 64, Policy: cache.LRU, Latency: 30 * sim.Nanosecond}
		c.Core.MLP = 1
	}
	m := newMachine(t, mut)
	b := alloc(t, m, "b", 512<<10, mem.Normal, false) // larger than L2, fits L3
	must[sim.Time](t)(m.Read(b.VA, b.Size, 64))
	got := must[sim.Time](t)(m.Read(b.VA, 64<<10, 64)) // evicted from L2 by now, in L3
	require.NotEqualValues(t, 0, m.Count(L3DCache), "l3d_cache %d, l3d_cache_refill %d", m.Count(L3DCache), m.Count(L3DCacheRefill))
	require.EqualValues(t, 512<<10/64, m.Count(L3DCacheRefill), "l3d_cache %d, l3d_cache_refill %d", m.Count(L3DCache), m.Count(L3DCacheRefill))
	want := float64(64<<10/64) * 30
	{
		g := got.Nanoseconds()
		require.False(t, math.Abs(g-want)/want > 0.05, "re-read from L3: %.0f ns, want about %.0f", g, want)
	}
}
