package sgsync

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/dmaapi"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// The per-entry DMA-API cost is an assumed constant a run takes as a
// hardware override (as the uncertainty bands set it): "hw.sg-sync.kernel.map"
// changes dma_map_sg's time by the cycles per entry, and a bad path or
// value is refused naming it.
func TestKernelCostIsAnOverridableConstant(t *testing.T) {
	base := params(t, small...)
	slow := params(t, small...)
	slow[scenario.HardwarePrefix+"sg-sync.kernel.map"] = scenario.Value{Num: kernelCost.Map + 1000}
	a, err := New().Run(t.Context(), base, PolicyBatched, nil)
	require.NoError(t, err)
	b, err := New().Run(t.Context(), slow, PolicyBatched, nil)
	require.NoError(t, err)
	// 16 entries x 1000 cycles at the preset's 2.6 GHz, per call.
	assert.InDelta(t, 16*1000/2600.0, metric(t, b, "map_sg_us")-metric(t, a, "map_sg_us"), 0.01)
	assert.InDelta(t, metric(t, a, "unmap_sg_us"), metric(t, b, "unmap_sg_us"), 1e-9, "only the map's cost changed")

	sp := New().Spec()
	for _, k := range kernelPaths {
		require.Contains(t, sp.Overridable, k.path)
		var c *float64
		for i := range sp.Constants {
			if sp.Constants[i].Path == k.path {
				c = &sp.Constants[i].Value
			}
		}
		require.NotNil(t, c, "%s has provenance", k.path)
		kc := kernelCost
		assert.Equal(t, *k.f(&kc), *c, "%s: the table holds the value the run uses", k.path)
	}

	for path, v := range map[string]float64{"sg-sync.kernel.mapp": 1, "sg-sync.kernel.unmap": -1} {
		p := params(t, small...)
		p[scenario.HardwarePrefix+path] = scenario.Value{Num: v}
		_, err := New().Run(t.Context(), p, PolicyBatched, nil)
		assert.ErrorContains(t, err, "hw."+path)
	}
	k, err := kernelWith(map[string]float64{"sg-sync.kernel.iommu_map": 10})
	require.NoError(t, err)
	assert.Equal(t, dmaapi.EntryCost{Map: kernelCost.Map, Unmap: kernelCost.Unmap, Sync: kernelCost.Sync, IOMMUMap: 10}, k)
}
