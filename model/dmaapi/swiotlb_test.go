package dmaapi

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/hwview"
	"github.com/dmaviz/dmaviz/model/soc"
)

// SWIOTLB: the device writes the bounce slot; without the unmap the CPU
// reads its buffer as it was before the DMA, which is flagged stale at the
// buffer's address. With the unmap the copy back makes it current.
func TestSWIOTLBSkipUnmapIsStale(t *testing.T) {
	for _, unmap := range []bool{false, true} {
		f := newFixture(t, Config{Path: SWIOTLB})
		seg := Seg{f.buf.VA + 0x2000, 0x1000}
		_, err := f.m.Read(seg.VA, seg.Len, 16) // cached before the DMA
		require.NoError(t, err)
		sg, err := f.d.MapSG([]Seg{seg}, FromDevice)
		require.NoError(t, err)
		for _, e := range sg.Entries {
			require.True(t, e.Bounced())
			require.NoError(t, f.d.Runs(e, func(pa, n uint64) error {
				done, err := f.m.DeviceWrite(f.d.ID(), pa, n)
				f.m.WaitUntil(done)
				return err
			}))
		}
		if unmap {
			require.NoError(t, f.d.UnmapSG(sg, 0))
		}
		_, err = f.m.Read(seg.VA, seg.Len, 16)
		require.NoError(t, err)
		if unmap {
			assert.Zero(t, f.m.Count(soc.StaleLinesRead))
			assert.Empty(t, f.m.Hazards())
			continue
		}
		assert.EqualValues(t, 64, f.m.Count(soc.StaleLinesRead))
		hs := f.m.Hazards()
		require.Len(t, hs, 1)
		assert.Equal(t, f.buf.PA(0x2000), hs[0].Addr)
		assert.EqualValues(t, 0x1000, hs[0].Bytes)
		assert.True(t, hs[0].Has(hwevent.Stale|hwevent.Elsewhere), "%+v", hs[0])
		assert.Contains(t, hwview.CauseOf(hs[0]), "SWIOTLB bounce slot")
		// Releasing the slot without the sync leaves the buffer stale.
		require.NoError(t, f.d.UnmapSG(sg, SkipCPUSync))
		_, err = f.m.Read(seg.VA, seg.Len, 16)
		require.NoError(t, err)
		assert.EqualValues(t, 128, f.m.Count(soc.StaleLinesRead))
	}
}

// Slots are taken first-fit from the pool, each mapping on a slot
// boundary, and come back on unmap; a full pool is an error, not a panic.
func TestSWIOTLBSlots(t *testing.T) {
	f := newFixture(t, Config{Path: SWIOTLB, PoolBytes: 8192})
	sg, err := f.d.MapSG(f.segs([]Seg{{0, 100}, {0x1000, 3000}, {0x2000, 2048}}), ToDevice)
	require.NoError(t, err)
	var devs []uint64
	for _, e := range sg.Entries {
		devs = append(devs, e.Dev-f.d.Pool().VA)
	}
	assert.Equal(t, []uint64{0, 0x800, 0x1800}, devs)
	_, err = f.d.MapSingle(f.buf.VA, 100, ToDevice)
	assert.ErrorContains(t, err, "swiotlb: pool full")
	require.NoError(t, f.d.UnmapSG(sg, 0))
	mp, err := f.d.MapSingle(f.buf.VA, 8192, ToDevice)
	require.NoError(t, err)
	assert.Equal(t, f.d.Pool().VA, mp.Dev)
	_, err = f.d.MapSingle(f.buf.VA, 0, ToDevice)
	assert.ErrorContains(t, err, "length 0")
	_, err = f.d.MapSingle(f.buf.VA, 64, Dir(7))
	assert.ErrorContains(t, err, "direction 7")
}
