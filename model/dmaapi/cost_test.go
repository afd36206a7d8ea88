package dmaapi

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
)

// pages4K is n entries of one 4 KiB page each.
func pages4K(n int) []Seg {
	segs := make([]Seg, n)
	for i := range segs {
		segs[i] = Seg{uint64(i) * 4096, 4096}
	}
	return segs
}

// A coherent device does no maintenance, but every call still walks its
// list and runs the kernel's per-entry checks: its map, unmap and syncs
// take exactly entries x the cost at the CPU clock (1 GHz here: a cycle
// is a nanosecond), and nothing else.
func TestCoherentCallsCostTheirSoftwareWork(t *testing.T) {
	cost := EntryCost{Map: 20, Unmap: 30, Sync: 15}
	for _, n := range []int{1, 4, 16} {
		f := newFixture(t, Config{Coherent: true, Entry: cost})
		segs := f.segs(pages4K(n))
		t0 := f.m.Now()
		sg, err := f.d.MapSG(segs, FromDevice)
		require.NoError(t, err)
		t1 := f.m.Now()
		require.NoError(t, f.d.SyncSGForCPU(sg))
		require.NoError(t, f.d.SyncSGForDevice(sg))
		t2 := f.m.Now()
		require.NoError(t, f.d.UnmapSG(sg, 0))
		t3 := f.m.Now()
		assert.Equal(t, sim.Time(n)*20*sim.Nanosecond, t1-t0, "%d entries: dma_map_sg", n)
		assert.Equal(t, sim.Time(n)*2*15*sim.Nanosecond, t2-t1, "%d entries: the two syncs", n)
		assert.Equal(t, sim.Time(n)*30*sim.Nanosecond, t3-t2, "%d entries: dma_unmap_sg", n)
		assert.Zero(t, f.m.Count(soc.DCOps), "a coherent device needs no maintenance")
		assert.Zero(t, f.m.Count(soc.DSBCount), "nor a barrier")
	}
}

// On a non-coherent device the software work adds to the maintenance,
// entry by entry, on every path and for single-buffer calls; the IOMMU
// path adds its own per-entry map work; a zero cost changes nothing.
func TestEntryCostAddsToEveryPath(t *testing.T) {
	cost := EntryCost{Map: 40, Unmap: 25, Sync: 10, IOMMUMap: 7}
	const n = 4
	for _, c := range []struct {
		name  string
		cfg   Config
		extra sim.Time // per map entry beyond Map
	}{
		{"direct", Config{}, 0},
		{"iommu", Config{Path: IOMMU, IOMMU: IOMMUCost{Alloc: 100 * sim.Nanosecond}}, 7 * sim.Nanosecond},
		{"swiotlb", Config{Path: SWIOTLB}, 0},
	} {
		for _, w := range []Wait{PerEntry, PerCall} {
			var took [2][2]sim.Time // [without, with][map, unmap]
			for i, e := range []EntryCost{{}, cost} {
				cfg := c.cfg
				cfg.Wait, cfg.Entry = w, e
				f := newFixture(t, cfg)
				t0 := f.m.Now()
				sg, err := f.d.MapSG(f.segs(pages4K(n)), FromDevice)
				require.NoError(t, err)
				t1 := f.m.Now()
				require.NoError(t, f.d.UnmapSG(sg, 0))
				took[i] = [2]sim.Time{t1 - t0, f.m.Now() - t1}
			}
			assert.Equal(t, n*(40*sim.Nanosecond+c.extra), took[1][0]-took[0][0], "%s wait %d: map", c.name, w)
			assert.Equal(t, n*25*sim.Nanosecond, took[1][1]-took[0][1], "%s wait %d: unmap", c.name, w)
		}
	}
	// Single-buffer calls: one entry's work.
	var took [2]sim.Time
	for i, e := range []EntryCost{{}, cost} {
		f := newFixture(t, Config{Entry: e})
		t0 := f.m.Now()
		mp, err := f.d.MapSingle(f.buf.VA, 4096, FromDevice)
		require.NoError(t, err)
		require.NoError(t, f.d.SyncSingleForCPU(mp, 0, 4096))
		require.NoError(t, f.d.SyncSingleForDevice(mp, 0, 4096))
		require.NoError(t, f.d.UnmapSingle(mp, 0))
		took[i] = f.m.Now() - t0
	}
	assert.Equal(t, (40+10+10+25)*sim.Nanosecond, took[1]-took[0], "single-buffer calls")
}

// The cost is in cycles: the same work takes longer on a slower core.
func TestEntryCostScalesWithTheCPUClock(t *testing.T) {
	var took [2]sim.Time
	for i, ghz := range []float64{1, 2.5} {
		cfg := testConfig()
		cfg.Clocks.CPU = sim.Freq(ghz) * sim.GHz
		m, err := soc.New(cfg, 1)
		require.NoError(t, err)
		id, err := m.AddDevice(soc.DeviceConfig{Name: "dev", Coherent: true, Burst: 64, Bandwidth: 1e9})
		require.NoError(t, err)
		d, err := New(m, id, Config{Coherent: true, Entry: EntryCost{Map: 50}})
		require.NoError(t, err)
		buf, err := m.Alloc("buf", 8*4096, 0)
		require.NoError(t, err)
		segs := pages4K(8)
		for j := range segs {
			segs[j].VA += buf.VA
		}
		t0 := m.Now()
		_, err = d.MapSG(segs, ToDevice)
		require.NoError(t, err)
		took[i] = m.Now() - t0
	}
	assert.Equal(t, 8*50*sim.Nanosecond, took[0], "50 cycles at 1 GHz")
	assert.Equal(t, 8*20*sim.Nanosecond, took[1], "50 cycles at 2.5 GHz")
}

func TestEntryCostOutOfRangeNamesTheField(t *testing.T) {
	m, err := soc.New(testConfig(), 1)
	require.NoError(t, err)
	id, err := m.AddDevice(soc.DeviceConfig{Name: "dev", Burst: 64, Bandwidth: 1e9})
	require.NoError(t, err)
	for _, c := range []struct {
		cost  EntryCost
		field string
	}{{EntryCost{Map: -1}, "entry.map"}, {EntryCost{Unmap: 2e6}, "entry.unmap"}, {EntryCost{IOMMUMap: -3}, "entry.iommu_map"}} {
		_, err := New(m, id, Config{Entry: c.cost})
		require.Error(t, err, "%+v", c.cost)
		assert.Contains(t, err.Error(), c.field)
		assert.Contains(t, err.Error(), "allowed 0..")
	}
}
