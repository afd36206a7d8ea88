package sgsync

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// On path=iommu every entry of the list has an IOVA range in the
// device's domain, recorded for the page-mapping view from the first
// dma_map_sg on: 4 KiB pages (io-pgtable blocks need 2 MiB runs)
// covering the list. Other paths record no mappings.
func TestIOMMUPathRecordsIOVAs(t *testing.T) {
	r := runP(t, PolicyBatched, "path", "iommu", "total", "256KiB", "iterations", "1")
	x := r.Timeline.Translation
	require.NotNil(t, x)
	var bytes uint64
	for _, m := range x.Mappings {
		assert.Equal(t, "iova", m.Buffer)
		assert.Zero(t, m.VA>>48, "an IOVA is below the 48-bit limit")
		assert.Equal(t, uint64(4096), m.Leaf)
		assert.Positive(t, m.T, "mapped by dma_map_sg, not before the run")
		bytes += m.Bytes
	}
	assert.Equal(t, uint64(256<<10), bytes)
	assert.Empty(t, x.TLBs)
	d := runP(t, PolicyBatched, "path", "direct", "total", "256KiB", "iterations", "1")
	assert.Nil(t, d.Timeline.Translation)
}
