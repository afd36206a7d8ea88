package soc

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// A device write to a SWIOTLB slot makes exactly the buffer lines that
// slot stands for stale, whatever order the slots were declared in (the
// machine sorts them) and only until Unshadow.
func TestShadowWriteSupersedesTheLinesItStandsFor(t *testing.T) {
	m := newMachine(t, nil)
	buf := alloc(t, m, "buf", 4096, mem.Normal, true)
	slot := alloc(t, m, "slot", 4096, mem.Normal, true)
	dev := addDev(t, m, false)
	must[sim.Time](t)(m.Read(buf.VA, buf.Size, 16))
	// Declared in descending slot order: slot's upper half stands for the
	// buffer's lower half and the other way round; a small third shadow
	// lies inside the first.
	require.NoError(t, m.Shadow(slot.PA(2048), buf.PA(0), 2048))
	require.NoError(t, m.Shadow(slot.PA(0), buf.PA(2048), 1024))
	require.NoError(t, m.Shadow(slot.PA(1024), buf.PA(3072), 1024))

	// The device writes slot bytes [0, 1024): buffer bytes [2048, 3072).
	m.WaitUntil(must[sim.Time](t)(m.DeviceWrite(dev, slot.PA(0), 1024)))
	must[sim.Time](t)(m.Read(buf.VA, 2048, 16))
	assert.Zero(t, m.Count(StaleLinesRead), "lines no written slot byte stands for")
	must[sim.Time](t)(m.Read(buf.VA+2048, 1024, 16))
	assert.EqualValues(t, 16, m.Count(StaleLinesRead), "the 16 lines slot bytes [0, 1024) stand for")
	must[sim.Time](t)(m.Read(buf.VA+3072, 1024, 16))
	assert.EqualValues(t, 16, m.Count(StaleLinesRead), "lines of a slot the device did not write")

	// Once the slots are released, device writes to them are only writes
	// to the slot.
	m.Unshadow(slot.PA(0), 4096)
	m.WaitUntil(must[sim.Time](t)(m.DeviceWrite(dev, slot.PA(2048), 2048)))
	must[sim.Time](t)(m.Read(buf.VA, 2048, 16))
	assert.EqualValues(t, 16, m.Count(StaleLinesRead), "a released slot still stood for the buffer")
}
