package dmaapi

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/mem"
)

// On the IOMMU path every entry gets its own IOVA range in the device's
// domain, top-down below the DMA limit and aligned to its size; the
// device's runs are what the io-pgtable translates the IOVA to (the same
// physical bytes as the direct path); unmapping removes the range and the
// next mapping reuses it.
func TestIOMMUMapsIOVAs(t *testing.T) {
	direct, f := newFixture(t, Config{}), newFixture(t, Config{Path: IOMMU})
	require.NotNil(t, f.d.IOSpace())
	assert.Nil(t, direct.d.IOSpace())
	segs := []Seg{{0x10, 8192}, {0x3000, 100}}
	runs := func(f *fixture, sg SG) [][2]uint64 {
		var out [][2]uint64
		for _, e := range sg.Entries {
			require.NoError(t, f.d.Runs(e, func(pa, n uint64) error {
				out = append(out, [2]uint64{pa, n})
				return nil
			}))
		}
		return out
	}
	dsg, err := direct.d.MapSG(direct.segs(segs), FromDevice)
	require.NoError(t, err)
	sg, err := f.d.MapSG(f.segs(segs), FromDevice)
	require.NoError(t, err)
	require.Len(t, sg.Entries, 2)
	e0, e1 := sg.Entries[0], sg.Entries[1]
	assert.Zero(t, dsg.Entries[0].IOVA, "the direct path has no IOVA")
	// Entry 0 covers 3 pages (offset 0x10): a 16 KiB-aligned range at the
	// top of the 48-bit space, 12 KiB of it used; entry 1's page is the
	// highest fit, the free page above it.
	assert.Equal(t, uint64(IOMMUDMALimit-16<<10+0x10), e0.IOVA)
	assert.Equal(t, uint64(IOMMUDMALimit-4<<10), e1.IOVA)
	buf0 := f.buf.Pages[0]
	l, err := f.d.IOSpace().PT.Lookup(e0.IOVA)
	require.NoError(t, err)
	assert.Equal(t, buf0, l.PA, "the IOVA's page is the buffer's first page")
	assert.Equal(t, uint64(4096), l.Bytes)
	// Same physical bytes as the direct path (relative to each buffer).
	rel := func(f *fixture, rs [][2]uint64) [][2]uint64 {
		for i := range rs {
			rs[i][0] -= f.buf.Pages[0]
		}
		return rs
	}
	assert.Equal(t, rel(direct, runs(direct, dsg)), rel(f, runs(f, sg)))

	require.NoError(t, f.d.UnmapSG(sg, 0))
	_, err = f.d.IOSpace().PT.Lookup(e0.IOVA)
	assert.Error(t, err, "unmapped")
	err = f.d.Runs(e0, func(pa, n uint64) error { return nil })
	assert.ErrorContains(t, err, "iova")
	again, err := f.d.MapSingle(f.buf.VA, 8192, ToDevice)
	require.NoError(t, err)
	assert.Equal(t, uint64(IOMMUDMALimit-8<<10), again.IOVA, "the freed top of the space is reused")
	l, err = f.d.IOSpace().PT.Lookup(again.IOVA + 4096)
	require.NoError(t, err)
	assert.Equal(t, buf0+mem.PageSize, l.PA)
}
