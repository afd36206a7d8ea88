package platform

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/soc"
)

// DC IVAC on a dirty line writes it back first on every preset's core:
// Cortex-A53 (TRM DDI 0500 6.2.4; AMD/Xilinx UG643), Cortex-A76/N1 (TRM
// A6.2.4: treated as DC CIVAC), and, assumed where the core's manual says
// nothing (A72, C1-Ultra), as every core does at EL1 under KVM
// (HCR_EL2.{DC,VM} != 00). A device write under the dirty line is then
// destroyed by the write-back: the hazard the ETR scenario shows.
func TestIVACCleansDirtyLinesOnEveryPreset(t *testing.T) {
	for _, name := range Names() {
		m, err := New(name, 1)
		require.NoError(t, err)
		b, err := m.Alloc("b", 4096, mem.Normal)
		require.NoError(t, err)
		require.NoError(t, m.Track(b))
		id, err := m.AddDevice(soc.DeviceConfig{Name: "dev", Burst: 64, Bandwidth: 1e9})
		require.NoError(t, err)
		_, err = m.Write(b.VA, 64, 16) // a dirty line
		require.NoError(t, err)
		done, err := m.DeviceWrite(id, b.PA(0), 64) // the device writes DRAM underneath
		require.NoError(t, err)
		m.WaitUntil(done)
		wb := m.Count(soc.BusWriteLine)
		_, err = m.DC(soc.IVAC, b.VA, 64)
		require.NoError(t, err)
		m.DSB()
		assert.EqualValues(t, 1, m.Count(soc.BusWriteLine)-wb, "%s: DC IVAC did not write the dirty line back", name)
		assert.EqualValues(t, 64, m.Count(soc.LostBytes), "%s: the write-back destroyed the device's line", name)
	}
}
