package soc

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// ticker is an agent that asks DRAM every period until n asks, noting
// when each step ran.
type ticker struct {
	t      *testing.T
	m      *Machine
	id     int
	period sim.Time
	n      int
	ran    []sim.Time
}

func (k *ticker) Step(t sim.Time, ev int) {
	k.ran = append(k.ran, t)
	k.m.PortAccess(t, uint64(ev)*64, 64, false, 10*sim.Nanosecond)
	if len(k.ran) < k.n {
		require.NoError(k.t, k.m.Schedule(t+k.period, k.id, ev+1))
	}
}

// An agent's steps run in time order whether the workload runs the queue
// or the core catches it up before touching a line; its DRAM asks share
// the core's channel and come in order.
func TestAgentsShareTheQueueAndDRAM(t *testing.T) {
	m := newMachine(t, nil)
	k := &ticker{t: t, m: m, period: 20 * sim.Nanosecond, n: 50}
	id, err := m.AddAgent(k)
	require.NoError(t, err)
	k.id = id
	require.NoError(t, m.Schedule(0, id, 0))
	require.Error(t, m.Schedule(0, id+1, 0), "no such agent")
	require.Error(t, m.Schedule(0, id, -1), "negative event")
	b := alloc(t, m, "buf", 64<<10, mem.Normal, false)
	// The core reads 16 KiB: before each line it runs the agent's steps
	// due by its time.
	_, err = m.Read(b.VA, 16<<10, 8)
	require.NoError(t, err)
	ranByCore := len(k.ran)
	assert.Greater(t, ranByCore, 0)
	for i, at := range k.ran {
		assert.LessOrEqual(t, at, m.Now(), "step %d ran after the core's time", i)
	}
	for m.RunNext(sim.Never) {
	}
	require.Len(t, k.ran, 50)
	for i := 1; i < len(k.ran); i++ {
		assert.Equal(t, k.period, k.ran[i]-k.ran[i-1])
	}
	assert.Zero(t, m.DRAMAskReorders())
	// An ask earlier than the core's last one is a reorder.
	m.PortAccess(0, 0, 64, false, 0)
	assert.Equal(t, uint64(1), m.DRAMAskReorders())
}
