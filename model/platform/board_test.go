package platform

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/sim"
)

// Setting any parameter to the value it reads gives the same board, and
// an override reads back as set.
func TestBoardApplyRoundTrip(t *testing.T) {
	for _, name := range Names() {
		b, err := LookupBoard(name)
		require.NoError(t, err)
		before := values(&b)
		for path, v := range before {
			require.NoError(t, b.Apply([]Override{{path, v}}), "%s %s", name, path)
		}
		assert.Equal(t, before, values(&b), "%s: writing each value back changed the board", name)
	}
	b, _ := LookupBoard("juno-r2")
	require.NoError(t, b.Apply([]Override{{"dram.latency", 150}, {"l2.latency", 20}, {"maint.ivac_cleans", 1}, {"l1d.policy", 2}}))
	assert.Equal(t, 150*sim.Nanosecond, b.DRAM.Latency)
	v, ok := b.Value("l2.latency")
	assert.True(t, ok)
	assert.Equal(t, 20.0, v)
	assert.True(t, b.Maint.IVACCleans)
	assert.Equal(t, "random", b.L1D.Policy.String())
	require.NoError(t, b.Config.Validate())
}

// A clock keeps the cycle counts of what is counted in its cycles and
// leaves times in nanoseconds alone.
func TestBoardClockKeepsCycles(t *testing.T) {
	b, _ := LookupBoard("juno-r2")
	require.NoError(t, b.Apply([]Override{{"clocks.cpu", 800}}))
	l2, _ := b.Value("l2.latency")
	assert.Equal(t, 15.0, l2, "a 15-cycle L2 stays 15 cycles")
	assert.InDelta(t, 18750, int64(b.L2.Latency), 1, "15 cycles at 800 MHz, to the picosecond")
	assert.Equal(t, junoDRAMLatency, b.DRAM.Latency, "DRAM latency is in ns")

	s, _ := LookupBoard("ls2088a")
	require.NoError(t, s.Apply([]Override{{"clocks.platform", 700}}))
	assert.Equal(t, 700*sim.MHz, s.SMMU.Clock, "the SMMU runs on the platform clock")
	port, _ := s.Value("smmu.bus.port")
	assert.Equal(t, 4.0, port, "a 4-platform-cycle port stays 4")
}

// Bad overrides are refused with the path and what is allowed.
func TestBoardApplyErrors(t *testing.T) {
	b, _ := LookupBoard("juno-r2")
	for _, c := range []struct {
		o    Override
		want string
	}{
		{Override{"dram.latnecy", 1}, "hw.dram.latnecy: unknown hardware parameter; known in dram: dram.latency, dram.bandwidth, dram.min_burst"},
		{Override{"core.mlp", 2.5}, "hw.core.mlp: 2.5 is not a whole number"},
		{Override{"maint.ivac_cleans", 2}, "hw.maint.ivac_cleans: 2 is not 0 (false) or 1 (true)"},
		{Override{"l3.ways", 8}, "hw.l3.ways: juno-r2 has no such unit"},
		{Override{"smmu.link_cycles", 8}, "hw.smmu.link_cycles: juno-r2 has no such unit"},
		{Override{"clocks.cpu", 0}, "hw.clocks.cpu: 0 MHz is out of range"},
		{Override{"dram.latency", -1}, "hw.dram.latency: -1 ns is out of range"},
	} {
		err := b.Apply([]Override{c.o})
		if assert.Error(t, err, "%v", c.o) {
			assert.Contains(t, err.Error(), c.want)
		}
	}
}
