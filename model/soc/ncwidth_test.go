package soc

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// A Normal-NC load wider than nc.read_bytes is that many bus reads, each
// in its own nc.inflight slot: 64-byte loads move no more data per round
// trip than 16-byte ones (the cap is the core's outstanding NC reads,
// Cortex-A53 TRM Table 7-5). Without the bound a 64-byte load is one
// transaction, four times the throughput.
func TestNCReadsSplitAtReadBytes(t *testing.T) {
	const size = 64 << 10
	copyNC := func(readBytes, width int) (sim.Time, uint64) {
		m := newMachine(t, func(c *Config) { c.NC.ReadBytes = readBytes })
		src := alloc(t, m, "src", size, mem.Normal, false)
		nc := must[Buffer](t)(m.Alias(src, "src-nc", mem.NormalNC))
		dst := alloc(t, m, "dst", size, mem.Normal, false)
		took := must[sim.Time](t)(m.Copy(dst.VA, nc.VA, size, width))
		return took, m.Count(BusReadNC)
	}
	t16, n16 := copyNC(16, 16)
	t64, n64 := copyNC(16, 64)
	assert.Equal(t, uint64(size/16), n16)
	assert.Equal(t, uint64(size/16), n64, "64-byte loads with nc.read_bytes 16: four bus reads each")
	assert.InEpsilon(t, float64(t16), float64(t64), 0.02, "16 B: %v, 64 B: %v", t16, t64)
	wide, n := copyNC(0, 64)
	assert.Equal(t, uint64(size/64), n, "no bound: one transaction per load")
	assert.Less(t, float64(wide), 0.3*float64(t64), "unbounded 64-byte NC loads: %v, bounded: %v", wide, t64)
	// Stores are posted and merged: never split.
	m := newMachine(t, func(c *Config) { c.NC.ReadBytes = 16 })
	b := alloc(t, m, "b", size, mem.Normal, false)
	nc := must[Buffer](t)(m.Alias(b, "b-nc", mem.NormalNC))
	must[sim.Time](t)(m.Write(nc.VA, size, 64))
	assert.Equal(t, uint64(size/64), m.Count(BusWriteNC))
}

// Zero is DC ZVA over the range: through a cacheable mapping the zero
// lines are dirty in the cache until write streaming starts (then they go
// to DRAM), nothing is cleaned; through Normal-NC they all go to DRAM.
func TestZeroLeavesDirtyLines(t *testing.T) {
	const size = 16 << 10
	dirty := func(m *Machine, b Buffer) int {
		n := 0
		for off := uint64(0); off < b.Size; off += 64 {
			line := b.PA(off) >> 6
			for i := 0; i < m.Levels(); i++ {
				if c := m.Cache(i); c.Find(line) >= 0 && c.Meta[c.Find(line)].Dirty {
					n++
					break
				}
			}
		}
		return n
	}
	for _, tc := range []struct {
		streamAfter, want int
	}{{0, size / 64}, {4, 4}} {
		m := newMachine(t, func(c *Config) { c.Core.WriteStreamAfter = tc.streamAfter })
		b := alloc(t, m, "b", size, mem.Normal, false)
		must[sim.Time](t)(m.Zero(b.VA, b.Size))
		assert.Equal(t, tc.want, dirty(m, b), "write streaming after %d", tc.streamAfter)
		assert.Zero(t, m.Count(DCOps))
	}
	m := newMachine(t, nil)
	b := alloc(t, m, "b", size, mem.Normal, false)
	nc := must[Buffer](t)(m.Alias(b, "b-nc", mem.NormalNC))
	must[sim.Time](t)(m.Zero(nc.VA, nc.Size))
	require.Zero(t, dirty(m, b))
	assert.Equal(t, uint64(size/64), m.Count(BusWriteNC))
}
