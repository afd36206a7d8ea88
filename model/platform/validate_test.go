package platform

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every built-in board is valid.
func TestPresetsValidate(t *testing.T) {
	for _, name := range Names() {
		b, err := LookupBoard(name)
		require.NoError(t, err)
		assert.NoError(t, b.Validate(), name)
	}
}

// Impossible boards are refused: the error names the parameter's path
// and what it allows, checked after the overrides.
func TestImpossibleBoardsRefused(t *testing.T) {
	for _, tc := range []struct {
		preset string
		hw     map[string]float64
		want   string
	}{
		{"juno-r2", map[string]float64{"l2.ways": 0}, "l2.ways: 0 is out of range; allowed 1..64"},
		{"juno-r2", map[string]float64{"l1d.ways": 0}, "l1d.ways: 0 is out of range; allowed 1..64"},
		{"juno-r2", map[string]float64{"l2.ways": 128, "l2.policy": 0}, "l2.ways: 128 is out of range; allowed 1..64"},
		{"neoverse-n1", map[string]float64{"l3.size": 128 << 20}, "l3.size: 128MiB is out of range; allowed up to 64MiB"},
		{"juno-r2", map[string]float64{"l2.size": 16 << 10}, "l2.size: 16KiB is smaller than l1d.size (32KiB); allowed 32KiB or more"},
		{"juno-r2", map[string]float64{"l2.size": 3 << 20}, "l2.size: 3MiB gives 3072 sets of 1KiB (ways x line_bytes), not a power of two; allowed a power-of-two number of sets up to 16777216"},
		{"juno-r2", map[string]float64{"l2.size": 1<<20 + 512}, "l2.size: 1049088B is not a whole number of sets of 1KiB (ways x line_bytes)"},
		{"juno-r2", map[string]float64{"l2.line_bytes": 128}, "l2.line_bytes: 128; must equal l1d.line_bytes (64)"},
		{"neoverse-n1", map[string]float64{"l3.line_bytes": 32}, "l3.line_bytes: 32; must equal l1d.line_bytes (64)"},
		{"juno-r2", map[string]float64{"tlb.l2.entries": 0}, "tlb.l2.entries: 0 is out of range; allowed 1..4096"},
		{"juno-r2", map[string]float64{"tlb.l1.entries": 0}, "tlb.l1.entries: 0 is out of range; allowed 1..4096"},
		{"juno-r2", map[string]float64{"tlb.l2.ways": 3}, "tlb.l2.ways: 3 does not divide the 512 entries; allowed a divisor giving a power-of-two number of sets"},
		{"juno-r2", map[string]float64{"tlb.l2.entries": 4096, "tlb.l2.ways": 4096}, "tlb.l2.ways: 4096 is out of range; allowed 1..128"},
		{"juno-r2", map[string]float64{"tlb.l2.entries": 384}, "tlb.l2.ways: 4 gives 96 sets, not a power of two"},
		{"juno-r2", map[string]float64{"tlb.walk.l2.ways": 3}, "tlb.walk.l2.ways: 3 does not divide the 64 entries"},
		{"juno-r2", map[string]float64{"core.mlp": 0}, "core.mlp: 0 is out of range; allowed 1..256"},
		{"juno-r2", map[string]float64{"nc.inflight": 0}, "nc.inflight: 0 is out of range; allowed 1..256"},
		{"juno-r2", map[string]float64{"maint.inflight": 0}, "maint.inflight: 0 is out of range; allowed 1..4096"},
		{"juno-r2", map[string]float64{"dram.min_burst": 0}, "dram.min_burst: 0 is out of range; allowed 1..4096"},
		{"juno-r2", map[string]float64{"prefetch.inflight": 0}, "prefetch.inflight: 0 with 4 streams; allowed 1..256"},
		{"juno-r2", map[string]float64{"mem.bytes": 4096}, "mem.bytes: 4KiB is out of range; allowed 1MiB..1TiB"},
		{"ls2088a", map[string]float64{"smmu.tbu.tlb_entries": 0}, "smmu.tbu.tlb_entries: 0 is out of range; allowed 1..4096"},
		{"ls2088a", map[string]float64{"smmu.tbu.tlb_ways": 3}, "smmu.tbu.tlb_ways: 3 does not give a power-of-two number of sets; allowed a divisor of the"},
		{"ls2088a", map[string]float64{"smmu.tcu.walk.l2.entries": 6, "smmu.tcu.walk.l2.ways": 4}, "smmu.tcu.walk.l2.ways: 4 does not divide"},
	} {
		b, err := BoardWith(tc.preset, tc.hw)
		require.NoError(t, err, "%v: the override itself is in the field's range", tc.hw)
		err = b.Validate()
		if assert.Error(t, err, "%s %v", tc.preset, tc.hw) {
			assert.True(t, strings.HasPrefix(err.Error(), tc.want), "%q\nwant %q", err, tc.want)
			path, _, _ := strings.Cut(tc.want, ":")
			assert.Equal(t, 1, strings.Count(err.Error(), path+":"), "%q names the path once", err)
		}
	}
}
