package etr

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// A finding of the model: dma_alloc_noncoherent zeroes the buffer through
// the cacheable linear map and nothing cleans it (kernel/dma/direct.c
// dma_direct_alloc_pages; the merged driver never syncs for the device).
// The zero lines still dirty in the cache when the ETR writes its first
// session are written back over that trace by the sync's DC IVAC (which
// cleans on every modelled core). The patch's alloc_pages(__GFP_ZERO) +
// dma_map_page cleans them at map time, dma_alloc_coherent zeroes through
// its Normal-NC alias, and the fix syncs the zeroed buffer for the device:
// none of them loses anything.
func TestAllocationZeroesWrittenBack(t *testing.T) {
	for _, preset := range []string{"juno-r2", "juno-r2-a72", "neoverse-n1", "dimensity-9500", "ls2088a"} {
		kv := []string{ParamPreset, preset, ParamBuffer, "1MiB", ParamLaps, "0.5", ParamPrior, PriorCold, ParamBarrier, "false"}
		r := runWith(t, string(WholeWhenFull), kv...)
		lost := metric(t, r, MetricLost)
		assert.Positive(t, lost, "%s merged: lost %v", preset, lost)
		assert.Equal(t, lost, metric(t, r, "dram_lost_bytes"), "%s merged: every lost byte is a written-back zero line", preset)
		var zero *scenario.Hazard
		for i, h := range r.Hazards {
			if strings.Contains(h.Cause, "zero line of the allocation") && strings.Contains(h.Cause, "written back over the trace") {
				zero = &r.Hazards[i]
			}
		}
		require.NotNil(t, zero, "%s: no hazard names the allocation's zero line: %+v", preset, r.Hazards)
		assert.Contains(t, zero.Cause, "dma_alloc_noncoherent", preset)
		var result *scenario.Step
		for i, s := range r.Narration {
			if s.Title == "Result" {
				result = &r.Narration[i]
			}
		}
		require.NotNil(t, result, preset)
		assert.Contains(t, result.Text, "not a bug policy", preset)
		assert.Contains(t, result.Text, "cached-sync-for-cpu-and-device", preset)

		for _, pol := range []PolicyID{Coherent, TwoChunks, SyncBoth} {
			r := runWith(t, string(pol), kv...)
			assert.Zero(t, metric(t, r, MetricLost), "%s %s", preset, pol)
			assert.Zero(t, metric(t, r, MetricStale), "%s %s", preset, pol)
			assert.Empty(t, r.Hazards, "%s %s", preset, pol)
		}
		// Only the first session meets them: in the steady state the
		// merged form loses nothing without barriers.
		steady := runWith(t, string(WholeWhenFull), ParamPreset, preset, ParamBuffer, "1MiB", ParamLaps, "0.5", ParamBarrier, "false")
		assert.Zero(t, metric(t, steady, MetricLost), "%s merged, steady", preset)
	}
}

// Error 5: a Normal-NC load wider than the core's nc.read_bytes is split
// into bus reads of nc.read_bytes, each taking an nc.inflight slot, so 64-
// byte loads do not make the coherent copy faster than the cacheable one
// (nor than 16-byte loads: Cortex-A53 TRM Table 7-5 caps non-cacheable
// reads at 4, and no source says a 64-byte load is one burst).
func TestNCLoadWidthBoundedByTheBus(t *testing.T) {
	at := func(pol PolicyID, width string) float64 {
		return metric(t, runWith(t, string(pol), ParamWidth, width), MetricUpdate)
	}
	c16, c64, b64 := at(Coherent, "16"), at(Coherent, "64"), at(WholeWhenFull, "64")
	t.Logf("juno-r2 4 MiB: coherent %.2f us at 16 B, %.2f us at 64 B; cacheable %.2f us at 64 B", c16, c64, b64)
	assert.GreaterOrEqual(t, c64, b64, "coherent copy at width=64 beats the cacheable one")
	assert.InEpsilon(t, c16, c64, 0.01, "wider NC loads moved more than nc.inflight x nc.read_bytes")
	r := runWith(t, string(Coherent), ParamWidth, "64")
	assert.GreaterOrEqual(t, metric(t, r, "bus_read_nc"), float64(4<<20/16), "64-byte loads of 4 MiB: bus reads of 16 B each")
}
