package dmaapi

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
)

// testConfig is a small round-numbered machine (the soc tests' one).
func testConfig() soc.Config {
	clk := sim.Clocks{CPU: 1 * sim.GHz, Platform: 1 * sim.GHz, DRAM: 1 * sim.GHz}
	return soc.Config{
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
	}
}

func TestCPUOpsAndDeviceOps(t *testing.T) {
	const L = 64
	for _, tc := range []struct {
		name   string
		va, n  uint64
		dir    Dir
		device []string
		cpu    []string
	}{
		{"aligned", 0x1000, 0x100, FromDevice,
			[]string{"dc cvac 0x1000 +256"}, []string{"dc ivac 0x1000 +256"}},
		{"partial last line", 0x1000, 0xf0, FromDevice,
			[]string{"dc cvac 0x1000 +256"}, []string{"dc civac 0x10c0 +64", "dc ivac 0x1000 +192"}},
		{"partial first line", 0x1010, 0xf0, Bidirectional,
			[]string{"dc cvac 0x1000 +256"}, []string{"dc civac 0x1000 +64", "dc ivac 0x1040 +192"}},
		{"partial both", 0x1010, 0x100, FromDevice,
			[]string{"dc cvac 0x1000 +320"}, []string{"dc civac 0x1100 +64", "dc civac 0x1000 +64", "dc ivac 0x1040 +192"}},
		{"inside one line", 0x1010, 0x20, FromDevice,
			[]string{"dc cvac 0x1000 +64"}, []string{"dc civac 0x1000 +64", "dc civac 0x1000 +64"}},
		{"one partial line from its start (the loop body runs once)", 0x1000, 0x20, FromDevice,
			[]string{"dc cvac 0x1000 +64"}, []string{"dc civac 0x1000 +64", "dc ivac 0x1000 +64"}},
		{"two partial lines", 0x1030, 0x20, FromDevice,
			[]string{"dc cvac 0x1000 +128"}, []string{"dc civac 0x1040 +64", "dc civac 0x1000 +64"}},
		{"to device: nothing back", 0x1010, 0x100, ToDevice,
			[]string{"dc cvac 0x1000 +320"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.device, strs(DeviceOps(tc.va, tc.n, L)), "toward the device")
			assert.Equal(t, tc.cpu, strs(CPUOps(tc.va, tc.n, L, tc.dir)), "back to the CPU")
		})
	}
}

func strs(ops []Op) []string {
	var out []string
	for _, o := range ops {
		out = append(out, o.String())
	}
	return out
}

// logger records every op, wait and copy relative to the buffer ("b") and
// the pool ("s"), one line per run of DC ops.
type logger struct {
	buf, pool uint64
	lines     []string
}

func (l *logger) addr(va uint64) string {
	if l.pool != 0 && va >= l.pool {
		return fmt.Sprintf("s+%#x", va-l.pool)
	}
	return fmt.Sprintf("b+%#x", va-l.buf)
}

func (l *logger) Maint(op soc.DCOp, entry int, va, n uint64, t0, t1 sim.Time) {
	l.lines = append(l.lines, fmt.Sprintf("%d: %s %s x%d", entry, strings.TrimPrefix(op.String(), "dc "), l.addr(va), n/64))
}
func (l *logger) Wait(t0, t1 sim.Time) { l.lines = append(l.lines, "dsb") }
func (l *logger) Bounce(entry int, toSlot bool, t0, t1 sim.Time) {
	if toSlot {
		l.lines = append(l.lines, fmt.Sprintf("%d: copy to slot", entry))
	} else {
		l.lines = append(l.lines, fmt.Sprintf("%d: copy back", entry))
	}
}

type fixture struct {
	m   *soc.Machine
	d   *Device
	buf soc.Buffer
	log *logger
}

func newFixture(t *testing.T, cfg Config) *fixture {
	t.Helper()
	m, err := soc.New(testConfig(), 1)
	require.NoError(t, err)
	id, err := m.AddDevice(soc.DeviceConfig{Name: "dev", Coherent: cfg.Coherent, Burst: 64, Bandwidth: 1e9})
	require.NoError(t, err)
	if cfg.Path == SWIOTLB && cfg.PoolBytes == 0 {
		cfg.PoolBytes = 64 << 10
	}
	d, err := New(m, id, cfg)
	require.NoError(t, err)
	buf, err := m.Alloc("buf", 64<<10, mem.Normal)
	require.NoError(t, err)
	require.NoError(t, m.Track(buf))
	if cfg.Path == SWIOTLB {
		require.NoError(t, m.Track(d.Pool()))
	}
	f := &fixture{m: m, d: d, buf: buf, log: &logger{buf: buf.VA, pool: d.Pool().VA}}
	d.Listener = f.log
	return f
}

// The op sequence of every call, per direction, path and wait policy, for
// aligned and partial lines, written out. A bounced entry starts on a
// slot boundary, so its slot has no partial first line.
func TestCallSequences(t *testing.T) {
	two := []Seg{{0x10, 0x80}, {0x1000, 0x40}} // entry 0: partial first and last line; entry 1: one whole line
	for _, tc := range []struct {
		name string
		cfg  Config
		run  func(f *fixture) error
		want []string
	}{
		{"map_single to-device, partial lines", Config{}, func(f *fixture) error {
			_, err := f.d.MapSingle(f.buf.VA+0x10, 0x80, ToDevice)
			return err
		}, []string{"-1: cvac b+0x0 x3", "dsb"}},
		{"unmap_single to-device: nothing", Config{}, func(f *fixture) error {
			mp, err := f.d.MapSingle(f.buf.VA+0x10, 0x80, ToDevice)
			if err != nil {
				return err
			}
			f.log.lines = nil
			return f.d.UnmapSingle(mp, 0)
		}, nil},
		{"unmap_single from-device, partial lines", Config{}, func(f *fixture) error {
			mp, err := f.d.MapSingle(f.buf.VA+0x10, 0x80, FromDevice)
			if err != nil {
				return err
			}
			f.log.lines = nil
			return f.d.UnmapSingle(mp, 0)
		}, []string{"-1: civac b+0x80 x1", "-1: civac b+0x0 x1", "-1: ivac b+0x40 x1", "dsb"}},
		{"unmap_single bidirectional, aligned", Config{}, func(f *fixture) error {
			mp, err := f.d.MapSingle(f.buf.VA+0x40, 0x80, Bidirectional)
			if err != nil {
				return err
			}
			f.log.lines = nil
			return f.d.UnmapSingle(mp, 0)
		}, []string{"-1: ivac b+0x40 x2", "dsb"}},
		{"unmap_single with DMA_ATTR_SKIP_CPU_SYNC", Config{}, func(f *fixture) error {
			mp, err := f.d.MapSingle(f.buf.VA, 0x80, FromDevice)
			if err != nil {
				return err
			}
			f.log.lines = nil
			return f.d.UnmapSingle(mp, SkipCPUSync)
		}, nil},
		{"sync_single_for_cpu / for_device on a noncoherent buffer", Config{}, func(f *fixture) error {
			_, mp, err := f.d.AllocNoncoherent("nc", 8192, FromDevice)
			if err != nil {
				return err
			}
			f.log.buf = mp.VA
			if err := f.d.SyncSingleForCPU(mp, 0x20, 0x1000); err != nil {
				return err
			}
			return f.d.SyncSingleForDevice(mp, 0x20, 0x10)
		}, []string{"-1: civac b+0x1000 x1", "-1: civac b+0x0 x1", "-1: ivac b+0x40 x63", "dsb", "-1: cvac b+0x0 x1", "dsb"}},
		{"map_sg waits once per call", Config{Wait: PerCall}, func(f *fixture) error {
			_, err := f.d.MapSG(f.segs(two), FromDevice)
			return err
		}, []string{"0: cvac b+0x0 x3", "1: cvac b+0x1000 x1", "dsb"}},
		{"map_sg waits per entry", Config{Wait: PerEntry}, func(f *fixture) error {
			_, err := f.d.MapSG(f.segs(two), FromDevice)
			return err
		}, []string{"0: cvac b+0x0 x3", "dsb", "1: cvac b+0x1000 x1", "dsb"}},
		{"unmap_sg from-device, once per call", Config{Wait: PerCall}, func(f *fixture) error {
			sg, err := f.d.MapSG(f.segs(two), FromDevice)
			if err != nil {
				return err
			}
			f.log.lines = nil
			return f.d.UnmapSG(sg, 0)
		}, []string{"0: civac b+0x80 x1", "0: civac b+0x0 x1", "0: ivac b+0x40 x1", "1: ivac b+0x1000 x1", "dsb"}},
		{"sync_sg_for_cpu / for_device per entry", Config{Wait: PerEntry}, func(f *fixture) error {
			sg, err := f.d.MapSG(f.segs(two), Bidirectional)
			if err != nil {
				return err
			}
			f.log.lines = nil
			if err := f.d.SyncSGForCPU(sg); err != nil {
				return err
			}
			return f.d.SyncSGForDevice(sg)
		}, []string{"0: civac b+0x80 x1", "0: civac b+0x0 x1", "0: ivac b+0x40 x1", "dsb", "1: ivac b+0x1000 x1", "dsb",
			"0: cvac b+0x0 x3", "dsb", "1: cvac b+0x1000 x1", "dsb"}},
		{"unmap_sg to-device: nothing", Config{}, func(f *fixture) error {
			sg, err := f.d.MapSG(f.segs(two), ToDevice)
			if err != nil {
				return err
			}
			f.log.lines = nil
			return f.d.UnmapSG(sg, 0)
		}, nil},
		{"coherent device: no op, no wait", Config{Coherent: true}, func(f *fixture) error {
			sg, err := f.d.MapSG(f.segs(two), Bidirectional)
			if err != nil {
				return err
			}
			return f.d.UnmapSG(sg, 0)
		}, nil},
		{"swiotlb map_sg from-device: copy in, clean the slot, wait per entry even when batched", Config{Path: SWIOTLB, Wait: PerCall}, func(f *fixture) error {
			_, err := f.d.MapSG(f.segs(two), FromDevice)
			return err
		}, []string{"0: copy to slot", "0: cvac s+0x0 x2", "dsb", "1: copy to slot", "1: cvac s+0x800 x1", "dsb"}},
		{"swiotlb unmap_sg from-device: invalidate the slot, wait, copy back", Config{Path: SWIOTLB}, func(f *fixture) error {
			sg, err := f.d.MapSG(f.segs(two), FromDevice)
			if err != nil {
				return err
			}
			f.log.lines = nil
			return f.d.UnmapSG(sg, 0)
		}, []string{"0: ivac s+0x0 x2", "dsb", "0: copy back",
			"1: ivac s+0x800 x1", "dsb", "1: copy back"}},
		{"swiotlb unmap_sg to-device: no copy back", Config{Path: SWIOTLB}, func(f *fixture) error {
			sg, err := f.d.MapSG(f.segs(two), ToDevice)
			if err != nil {
				return err
			}
			f.log.lines = nil
			return f.d.UnmapSG(sg, 0)
		}, nil},
		{"swiotlb sync_sg_for_device: from-device does not copy, to-device does", Config{Path: SWIOTLB}, func(f *fixture) error {
			in, err := f.d.MapSG(f.segs(two[:1]), FromDevice)
			if err != nil {
				return err
			}
			out, err := f.d.MapSG(f.segs(two[1:]), ToDevice)
			if err != nil {
				return err
			}
			f.log.lines = nil
			if err := f.d.SyncSGForDevice(in); err != nil {
				return err
			}
			return f.d.SyncSGForDevice(out)
		}, []string{"0: cvac s+0x0 x2", "dsb", "0: copy to slot", "0: cvac s+0x800 x1", "dsb"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, tc.cfg)
			require.NoError(t, tc.run(f))
			assert.Equal(t, tc.want, f.log.lines)
			assert.Zero(t, f.d.Pending(), "every call ends waited for")
		})
	}
}

func (f *fixture) segs(ss []Seg) []Seg {
	out := make([]Seg, len(ss))
	for i, s := range ss {
		out[i] = Seg{f.buf.VA + s.VA, s.Len}
	}
	return out
}

// The machine executes what the listener saw: DC op and DSB counters
// match the sequence, and per-entry waiting costs more DSB stall than
// one wait per call on the same list.
func TestCountersFollowTheSequence(t *testing.T) {
	var segs []Seg
	for i := uint64(0); i < 16; i++ {
		segs = append(segs, Seg{i * 4096, 4096})
	}
	stall := map[Wait]uint64{}
	for _, w := range []Wait{PerEntry, PerCall} {
		f := newFixture(t, Config{Wait: w})
		sg, err := f.d.MapSG(f.segs(segs), FromDevice)
		require.NoError(t, err)
		require.NoError(t, f.d.UnmapSG(sg, 0))
		assert.EqualValues(t, 2*16*64, f.m.Count(soc.DCOps))
		assert.EqualValues(t, 16*64, f.m.Count(soc.DCCVAC))
		assert.EqualValues(t, 16*64, f.m.Count(soc.DCIVAC))
		want := uint64(2)
		if w == PerEntry {
			want = 32
		}
		assert.Equal(t, want, f.m.Count(soc.DSBCount))
		stall[w] = f.m.Count(soc.DSBStall)
	}
	assert.Greater(t, stall[PerEntry], stall[PerCall])
}

// The IOMMU path adds its page-table work around the same maintenance.
func TestIOMMUCost(t *testing.T) {
	cost := IOMMUCost{Alloc: 100 * sim.Nanosecond, PTE: 10 * sim.Nanosecond, TLBI: sim.Microsecond}
	direct, iommu := newFixture(t, Config{}), newFixture(t, Config{Path: IOMMU, IOMMU: cost})
	segs := []Seg{{0, 8192}, {0x3000, 100}}
	var took [2]sim.Time
	for i, f := range []*fixture{direct, iommu} {
		t0 := f.m.Now()
		sg, err := f.d.MapSG(f.segs(segs), FromDevice)
		require.NoError(t, err)
		require.NoError(t, f.d.UnmapSG(sg, 0))
		took[i] = f.m.Now() - t0
		assert.Equal(t, direct.log.lines, f.log.lines, "same maintenance")
	}
	assert.Equal(t, 100*sim.Nanosecond+2*3*10*sim.Nanosecond+sim.Microsecond, took[1]-took[0])
}

// dirtyLines counts b's lines some cache level holds dirty.
func dirtyLines(m *soc.Machine, b soc.Buffer) int {
	n := 0
	for off := uint64(0); off < b.Size; off += m.LineBytes() {
		line := b.PA(off) / m.LineBytes()
		for i := 0; i < m.Levels(); i++ {
			if c := m.Cache(i); c.Find(line) >= 0 && c.Meta[c.Find(line)].Dirty {
				n++
				break
			}
		}
	}
	return n
}

// Allocation-time zeroing as kernel/dma/direct.c does it:
// dma_alloc_noncoherent memsets through the cacheable linear map and
// cleans nothing (every zero line the cache holds is dirty);
// dma_alloc_coherent maintains first, then zeroes through the Normal-NC
// alias (no dirty line); alloc_pages(__GFP_ZERO) leaves dirty lines that
// dma_map_page's clean writes back.
func TestAllocZeroing(t *testing.T) {
	f := newFixture(t, Config{})
	b, _, err := f.d.AllocNoncoherent("nc", 8192, FromDevice)
	require.NoError(t, err)
	assert.Equal(t, 128, dirtyLines(f.m, b), "dma_alloc_noncoherent: every zero line dirty (the test core never write-streams)")
	assert.Zero(t, f.m.Count(soc.DCOps), "dma_alloc_noncoherent maintains nothing")

	c, err := f.d.AllocCoherent("coh", 8192)
	require.NoError(t, err)
	assert.Zero(t, dirtyLines(f.m, c.Linear), "dma_alloc_coherent: the zeros went through the Normal-NC alias")
	assert.EqualValues(t, 128, f.m.Count(soc.BusWriteNC), "dma_alloc_coherent: one posted zero store per line")

	p, err := f.d.AllocPagesZeroed("pages", 8192)
	require.NoError(t, err)
	assert.Equal(t, 128, dirtyLines(f.m, p), "alloc_pages(__GFP_ZERO): dirty zero lines")
	wb := f.m.Count(soc.BusWriteLine)
	_, err = f.d.MapPage(p, 0, p.Size, FromDevice)
	require.NoError(t, err)
	assert.Zero(t, dirtyLines(f.m, p), "dma_map_page cleans them")
	assert.EqualValues(t, 128, f.m.Count(soc.BusWriteLine)-wb, "dma_map_page wrote every zero line back")
}

// dma_alloc_coherent cleans and invalidates the pages once and hands out a
// Normal-NC alias; dma_alloc_noncoherent does no maintenance.
func TestAlloc(t *testing.T) {
	f := newFixture(t, Config{})
	c, err := f.d.AllocCoherent("coh", 8192)
	require.NoError(t, err)
	assert.Equal(t, mem.NormalNC, c.NC.Attr)
	assert.Equal(t, mem.Normal, c.Linear.Attr)
	assert.Equal(t, c.Linear.Pages, c.NC.Pages)
	assert.EqualValues(t, 128, f.m.Count(soc.DCCIVAC))
	assert.EqualValues(t, 1, f.m.Count(soc.DSBCount))

	ops := f.m.Count(soc.DCOps)
	b, mp, err := f.d.AllocNoncoherent("nc", 8192, FromDevice)
	require.NoError(t, err)
	assert.Equal(t, ops, f.m.Count(soc.DCOps))
	assert.Equal(t, b.VA, mp.Dev)
	assert.False(t, mp.Bounced())

	g := newFixture(t, Config{Coherent: true})
	c, err = g.d.AllocCoherent("coh", 8192)
	require.NoError(t, err)
	assert.Equal(t, mem.Normal, c.NC.Attr, "a coherent device needs no alias")
	assert.Zero(t, g.m.Count(soc.DCOps))
}
