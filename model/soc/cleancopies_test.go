package soc

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/mem"
)

// A line read (L1 and L2 hold version v), then written (L1 dirty, v+1,
// L2 still v), then cleaned by DC CVAC or by a coherent device's read
// snoop, then evicted from L1 silently (it is clean): the next read comes
// from L2 and must get v+1, not v.
func TestCleanUpdatesLowerCopies(t *testing.T) {
	for _, how := range []string{"dc cvac", "coherent snoop"} {
		m := newMachine(t, nil)
		buf := alloc(t, m, "buf", 1<<20, mem.Normal, true)
		dev := addDev(t, m, true)
		{
			_, err := m.Read(buf.VA, 64, 16)
			require.NoError(t, err)
		}
		{
			_, err := m.Write(buf.VA, 16, 16)
			require.NoError(t, err)
		}
		if how == "dc cvac" {
			{
				_, err := m.DC(CVAC, buf.VA, 64)
				require.NoError(t, err)
			}
			m.DSB()
		} else {
			_, err := m.DeviceRead(dev, buf.PA(0), 64)
			require.NoError(t, err)
		}
		// Same L1 set, ways+1 other lines: the cleaned line leaves L1.
		l1 := m.Cache(0)
		stride := uint64(l1.Sets()) * 64
		for i := uint64(1); i <= uint64(l1.Ways())+1; i++ {
			{
				_, err := m.Read(buf.VA+i*stride, 64, 16)
				require.NoError(t, err)
			}
		}
		{
			_, err := m.Read(buf.VA, 64, 16)
			require.NoError(t, err)
		}
		{
			n := m.Count(StaleLinesRead)
			assert.EqualValues(t, 0, n, "%s: %d stale lines read after the clean (%v)", how, n, m.Hazards())
		}
	}
}
