package soc

import (
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/hwevent"
	"testing"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

func addDev(t *testing.T, m *Machine, coherent bool) DeviceID {
	t.Helper()
	d, err := m.AddDevice(DeviceConfig{Name: "dev", Coherent: coherent, Burst: 256, Bandwidth: 4e9, SnoopLatency: 5 * sim.Nanosecond})
	require.NoError(t, err)
	return d
}

// A device writes lines the CPU has cached. Without an invalidate the CPU
// reads its old copies (stale, flagged); with DC IVAC + DSB it reads the
// device's data; with a coherent device the snoop already removed them.
func TestStaleReadDetection(t *testing.T) {
	for _, c := range []struct {
		name       string
		coherent   bool
		invalidate bool
		wantStale  uint64
	}{
		{"non-coherent, no invalidate", false, false, 64},
		{"non-coherent, DC IVAC + DSB", false, true, 0},
		{"coherent device", true, false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := newMachine(t, nil)
			b := alloc(t, m, "buf", 4096, mem.Normal, true)
			dev := addDev(t, m, c.coherent)
			must[sim.Time](t)(m.Read(b.VA, b.Size, 16)) // lines now cached, clean
			m.WaitUntil(must[sim.Time](t)(m.DeviceWrite(dev, b.PA(0), b.Size)))
			if c.invalidate {
				must[sim.Time](t)(m.DC(IVAC, b.VA, b.Size))
				m.DSB()
			}
			dst := alloc(t, m, "dst", 4096, mem.Normal, false)
			must[sim.Time](t)(m.Copy(dst.VA, b.VA, 2048, 16)) // copies 32 lines out ...
			must[sim.Time](t)(m.Read(b.VA+2048, 2048, 16))    // ... and reads the rest
			{
				got := m.Count(StaleLinesRead)
				require.Equal(t, c.wantStale, got, "stale_lines_read %d, want %d", got, c.wantStale)
			}
			hz := m.Hazards()
			if c.wantStale == 0 {
				require.Len(t, hz, 0, "hazards on a correct policy: %+v", hz)
				return
			}
			require.NotEqualValues(t, 0, len(hz), "hazards %+v: want a stale read at %#x", hz, b.PA(0))
			require.EqualValues(t, b.PA(0), hz[0].Addr, "hazards %+v: want a stale read at %#x", hz, b.PA(0))
			require.EqualValues(t, hwevent.LineRead, hz[0].Kind, "hazards %+v: want a stale read at %#x", hz, b.PA(0))
			require.True(t, hz[0].Has(hwevent.Stale), "hazards %+v: want a stale read at %#x", hz, b.PA(0))
			require.Len(t, hz, 1, "hazards %+v: want the 4096 contiguous stale bytes merged into one", hz)
			require.EqualValues(t, 4096, hz[0].Bytes, "hazards %+v: want the 4096 contiguous stale bytes merged into one", hz)
		})
	}
}

// The classic lost-data bugs: a dirty CPU line written back over device
// data, and DC IVAC discarding the CPU's own newest data.
func TestLostData(t *testing.T) {
	t.Run("write-back over DMA data", func(t *testing.T) {
		m := newMachine(t, nil)
		b := alloc(t, m, "buf", 4096, mem.Normal, true)
		dev := addDev(t, m, false)
		must[sim.Time](t)(m.Write(b.VA, 256, 16)) // 4 dirty lines
		m.WaitUntil(must[sim.Time](t)(m.DeviceWrite(dev, b.PA(0), b.Size)))
		must[sim.Time](t)(m.DC(CIVAC, b.VA, b.Size))
		m.DSB()
		{
			got := m.Count(LostBytes)
			require.EqualValues(t, 256, got, "lost_bytes %d, want 256", got)
		}
		// DRAM now holds the CPU's older data: reading it is stale too.
		must[sim.Time](t)(m.Read(b.VA, 256, 16))
		require.EqualValues(t, 4, m.Count(StaleLinesRead), "stale_lines_read %d after the lost write-back, want 4", m.Count(StaleLinesRead))
	})
	t.Run("clean before DMA, invalidate after: correct", func(t *testing.T) {
		m := newMachine(t, nil)
		b := alloc(t, m, "buf", 4096, mem.Normal, true)
		dev := addDev(t, m, false)
		must[sim.Time](t)(m.Write(b.VA, 256, 16))
		must[sim.Time](t)(m.DC(CVAC, b.VA, b.Size)) // dma_map_single
		m.DSB()
		m.WaitUntil(must[sim.Time](t)(m.DeviceWrite(dev, b.PA(0), b.Size)))
		must[sim.Time](t)(m.DC(IVAC, b.VA, b.Size)) // dma_unmap_single
		m.DSB()
		must[sim.Time](t)(m.Read(b.VA, b.Size, 16))
		require.EqualValues(t, 0, m.Count(LostBytes), "correct sequence flagged: lost %d stale %d hazards %v", m.Count(LostBytes), m.Count(StaleLinesRead), m.Hazards())
		require.EqualValues(t, 0, m.Count(StaleLinesRead), "correct sequence flagged: lost %d stale %d hazards %v", m.Count(LostBytes), m.Count(StaleLinesRead), m.Hazards())
		require.Len(t, m.Hazards(), 0, "correct sequence flagged: lost %d stale %d hazards %v", m.Count(LostBytes), m.Count(StaleLinesRead), m.Hazards())
	})
	for _, cleans := range []bool{false, true} {
		m := newMachine(t, func(c *Config) { c.Maint.IVACCleans = cleans })
		b := alloc(t, m, "buf", 4096, mem.Normal, true)
		must[sim.Time](t)(m.Write(b.VA, 64, 16))
		must[sim.Time](t)(m.DC(IVAC, b.VA, 64))
		want := uint64(64)
		if cleans {
			want = 0 // A76/N1: IVAC behaves like CIVAC
		}
		{
			got := m.Count(LostBytes)
			require.Equal(t, want, got, "ivac_cleans=%v: lost_bytes %d, want %d", cleans, got, want)
		}
	}
}

// A dirty cacheable line aliasing Normal-NC memory: the NC read sees DRAM,
// which is older. Cleaning the linear map first fixes it.
func TestNCAliasHazard(t *testing.T) {
	for _, clean := range []bool{false, true} {
		m := newMachine(t, nil)
		b := alloc(t, m, "buf", 4096, mem.Normal, true)
		nc := must[Buffer](t)(m.Alias(b, "buf-nc", mem.NormalNC))
		must[sim.Time](t)(m.Write(b.VA, 512, 16)) // 8 dirty lines
		if clean {
			must[sim.Time](t)(m.DC(CVAC, b.VA, 512))
			m.DSB()
		}
		refills := m.Count(L1DCacheRefill)
		must[sim.Time](t)(m.Read(nc.VA, 512, 16))
		want := uint64(8)
		if clean {
			want = 0
		}
		{
			got := m.Count(StaleLinesRead)
			require.Equal(t, want, got, "clean=%v: stale_lines_read %d, want %d", clean, got, want)
		}
		if !clean {
			require.NotEmpty(t, m.Hazards())
			require.True(t, m.Hazards()[0].Has(hwevent.Stale|hwevent.NC), "hazard %+v: want a stale read through the Normal-NC alias", m.Hazards()[0])
		}
		{
			n := m.Count(L1DCacheRefill) - refills
			require.EqualValues(t, 0, n, "NC reads filled L1 (%d refills)", n)
		}
	}
}

// A non-coherent device reading memory the CPU dirtied without a clean
// gets stale data; a coherent one gets the CPU's data through the snoop.
func TestDeviceReadsStale(t *testing.T) {
	for _, c := range []struct {
		coherent, clean bool
		want            uint64
	}{{false, false, 16}, {false, true, 0}, {true, false, 0}} {
		m := newMachine(t, nil)
		b := alloc(t, m, "buf", 4096, mem.Normal, true)
		dev := addDev(t, m, c.coherent)
		must[sim.Time](t)(m.Write(b.VA, 1024, 16))
		if c.clean {
			must[sim.Time](t)(m.DC(CVAC, b.VA, 1024))
			m.DSB()
		}
		must[sim.Time](t)(m.DeviceRead(dev, b.PA(0), b.Size))
		{
			got := m.Count(DeviceStaleLines)
			require.Equal(t, c.want, got, "%+v: device_stale_lines %d, want %d", c, got, c.want)
		}
		require.EqualValues(t, 4096, m.Count(DMAReadBytes), "dma_read_bytes %d", m.Count(DMAReadBytes))
	}
}

// Hazards are bounded: scattered stale lines beyond MaxHazards are counted
// but not kept.
func TestHazardsBounded(t *testing.T) {
	m := newMachine(t, nil)
	b := alloc(t, m, "buf", 1<<20, mem.Normal, true)
	dev := addDev(t, m, false)
	lines := uint64(MaxHazards + 44)
	for i := uint64(0); i < lines; i++ { // every other line: no merging
		must[sim.Time](t)(m.Read(b.VA+i*128, 64, 64))
	}
	m.WaitUntil(must[sim.Time](t)(m.DeviceWrite(dev, b.PA(0), b.Size)))
	for i := uint64(0); i < lines; i++ {
		must[sim.Time](t)(m.Read(b.VA+i*128, 64, 64))
	}
	{
		n := len(m.Hazards())
		require.EqualValues(t, MaxHazards, n, "%d hazards kept, want %d", n, MaxHazards)
	}
	require.EqualValues(t, 44, m.HazardsDropped(), "dropped %d (want 44), stale lines %d (want %d)", m.HazardsDropped(), m.Count(StaleLinesRead), lines)
	require.Equal(t, lines, m.Count(StaleLinesRead), "dropped %d (want 44), stale lines %d (want %d)", m.HazardsDropped(), m.Count(StaleLinesRead), lines)
}
