package auxmap

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// trbe-aux's core counters come from the branch test's footprint, not a
// one-page loop: by default 512 KiB of code and 64 KiB of data. On N1 its
// 16 data pages fit the 48-entry L1 DTLB (one refill and one walk each per
// session) and its 128 code pages do not fit the 48-entry L1 ITLB (every
// fetch of every pass refills it) but stay in the L2 TLB (one walk each
// per session). On juno-r2 the data does not fit the A53's ten-entry
// micro TLB: every pass refills it for every data page, without walks.
func TestBranchTestFootprintDrivesTheCoreCounters(t *testing.T) {
	s := NewTRBE()
	spec := s.Spec()
	assert.Equal(t, "512KiB", spec.Param(ParamCode).Default)
	assert.Equal(t, "64KiB", spec.Param(ParamWorkingSet).Default)
	passes := float64(1 << 30 / 4096) // a pass per 4 KiB burst of the 1 GiB buffer
	for _, pol := range []string{Order0, PreferLarge} {
		res := runP(t, s, pol, ParamIterations, "2")
		assert.Equal(t, 16.0, metric(t, res, MetricL1Refill), pol)
		assert.Equal(t, 16.0, metric(t, res, MetricDTLBWalk), pol)
		assert.Equal(t, 128.0, metric(t, res, MetricITLBWalk), pol)
		assert.Equal(t, 128*passes, metric(t, res, MetricL1IRefill), "%s: 128 pages through 48 entries miss every pass", pol)
	}
	juno := runP(t, s, PreferLarge, ParamIterations, "2", ParamPreset, "juno-r2")
	assert.Equal(t, 16*passes, metric(t, juno, MetricL1Refill), "16 data pages through ten entries")
	assert.Equal(t, 16.0, metric(t, juno, MetricDTLBWalk), "refilled from the L2 TLB, walked once")
}

// spe-aux samples dd if=/dev/zero of=/dev/null as perf's SPE test runs it:
// bs 512 B, count 100,000, and SPE at its minimum interval with 64-byte
// records. dd reuses one buffer: one data page, walked once per session;
// SPE writes count x ops per block / interval x 64 B per iteration. With
// bs=1MiB the buffer is 256 pages: past the L1 DTLB (every block refills
// each of its entries) and walked once per session (consecutive pages
// share coalesced entries).
func TestDDReusesOneBuffer(t *testing.T) {
	s := NewSPE()
	spec := s.Spec()
	for k, want := range map[string]string{ParamBS: "512B", ParamCount: "100000", ParamInterval: "1024"} {
		assert.Equal(t, want, spec.Param(k).Default, k)
	}
	res := runP(t, s, Order0, ParamIterations, "2")
	assert.Equal(t, 1.0, metric(t, res, MetricDTLBWalk), "the one buffer page")
	assert.Equal(t, 1.0, metric(t, res, MetricL1Refill))
	assert.Equal(t, 4.0, metric(t, res, MetricITLBWalk), "dd's four code pages")
	ops := 2000.0 + 3*512/8 // two system calls and clear_user's 64 stores
	bytes := 100000 * ops / 1024 * 64
	assert.InDelta(t, math.Ceil(bytes/4096), metric(t, res, "spe_translations"), 1, "a 4 KiB burst per 4 KiB of records")

	c, err := s.parse(scenario.Params{ParamBS: {Text: "1MiB"}, ParamCount: {Text: "2000"}, ParamIterations: {Text: "1"}})
	require.NoError(t, err)
	r, err := newRun(c, Order0, nil)
	require.NoError(t, err)
	require.NoError(t, r.simulate(1))
	big := r.result()
	walks := metric(t, big, MetricDTLBWalk)
	assert.GreaterOrEqual(t, walks, 64.0, "256 buffer pages, at most four per (coalesced) entry")
	assert.LessOrEqual(t, walks, 256.0, "each walked once")
	assert.Equal(t, 2000*walks, metric(t, big, MetricL1Refill), "past the 48-entry L1 DTLB: every block refills every entry")
}
