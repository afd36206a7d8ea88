package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/platform"
)

// reachReport is the part of run --json an edit may reach: both sides'
// metrics, checks and hazards.
type reachReport struct {
	A, B struct {
		Metrics map[string]float64
		Checks  map[string]float64
		Hazards []map[string]any
	}
}

func runReport(t *testing.T, args ...string) reachReport {
	t.Helper()
	code, out, errs := call(t, append([]string{"run", "etr", "--json", "--param", "buffer=256KiB"}, args...)...)
	require.Equal(t, 0, code, errs)
	var r reachReport
	require.NoError(t, json.Unmarshal([]byte(out), &r))
	require.NotEmpty(t, r.A.Metrics)
	return r
}

// A run on an edited board differs from the preset's exactly where the
// edit reaches.
func TestBoardEditReachesExactly(t *testing.T) {
	// The DSB's cost: only the side that issues DSBs moves, by 90 cycles
	// per DSB in its barrier wait, its sync, its total and its cycles.
	base := runReport(t)
	dsb := runReport(t, "--url", "hw.maint.dsb=100")
	assert.Equal(t, base.A, dsb.A, "the coherent side issues no DSB")
	juno, _ := platform.LookupBoard("juno-r2")
	was, _ := juno.Value("maint.dsb")
	mhz, _ := juno.Value("clocks.cpu")
	n := base.B.Metrics["dsb_count"]
	require.Positive(t, n)
	extra := n * (100 - was) / mhz // µs
	moved := map[string]bool{"dsb_wait_us": true, "dsb_stall_us": true, "sync_us": true, "update_etr_buffer_us": true, "cpu_cycles": true}
	for name, v := range base.B.Metrics {
		if !moved[name] {
			assert.Equal(t, v, dsb.B.Metrics[name], name)
		}
	}
	for _, name := range []string{"dsb_wait_us", "sync_us", "update_etr_buffer_us"} {
		assert.InDelta(t, base.B.Metrics[name]+extra, dsb.B.Metrics[name], 2e-6, name)
	}
	assert.Equal(t, base.B.Metrics["cpu_cycles"]+n*(100-was), dsb.B.Metrics["cpu_cycles"])
	assert.Equal(t, base.B.Checks, dsb.B.Checks)

	// The L2's size: on ls2088a the cacheable side's L2 refills move;
	// the coherent side, whose reads bypass the caches, does not.
	ls := runReport(t, "--preset", "ls2088a")
	small := runReport(t, "--preset", "ls2088a", "--url", "hw.l2.size=64KiB")
	assert.Equal(t, ls.A, small.A, "Normal-NC reads never reach the L2")
	assert.Greater(t, small.B.Metrics["l2d_cache_refill"], ls.B.Metrics["l2d_cache_refill"])
	for _, name := range []string{"copied_bytes", "synced_bytes", "dc_ivac", "l1d_cache"} {
		assert.Equal(t, ls.B.Metrics[name], small.B.Metrics[name], name)
	}

	// Units etr never touches (the SMMU, the instruction TLB): nothing
	// moves.
	for _, edit := range []string{"hw.smmu.tbu.tlb_entries=64", "hw.tlb.l1i.hit=1", "hw.smmu.tcu.walk.l2.entries=16"} {
		assert.Equal(t, ls, runReport(t, "--preset", "ls2088a", "--url", edit), edit)
	}
}
