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

// stopper is a ticker that ends the RunSteps batch at its step stopAt.
type stopper struct {
	ticker
	stopAt int
}

func (k *stopper) Step(t sim.Time, ev int) {
	k.ticker.Step(t, ev)
	if len(k.ran) == k.stopAt {
		k.m.EndSteps()
	}
}

// RunSteps runs what as many RunNext calls would, in the same order and
// at the same times and DRAM answers, and stops at its limit, at its
// count and after a step that calls EndSteps.
func TestRunStepsIsRunNextInABatch(t *testing.T) {
	run := func(batch bool) ([]sim.Time, sim.Time) {
		m := newMachine(t, nil)
		k := &stopper{ticker: ticker{t: t, m: m, period: 20 * sim.Nanosecond, n: 40}, stopAt: 25}
		id, err := m.AddAgent(k)
		require.NoError(t, err)
		k.id = id
		require.NoError(t, m.Schedule(0, id, 0))
		if !batch {
			for m.RunNext(sim.Never) {
			}
			return k.ran, m.PortAccess(sim.Microsecond, 0, 64, false, 0)
		}
		assert.Equal(t, 6, m.RunSteps(100*sim.Nanosecond, 100), "steps at 0, 20, .. 100 ns are due by the limit")
		assert.Equal(t, 4, m.RunSteps(sim.Never, 4), "at most n")
		assert.Equal(t, 15, m.RunSteps(sim.Never, 100), "the 25th step ends the batch")
		assert.Equal(t, 15, m.RunSteps(sim.Never, 100), "the rest")
		assert.Zero(t, m.RunSteps(sim.Never, 100), "an empty queue")
		return k.ran, m.PortAccess(sim.Microsecond, 0, 64, false, 0)
	}
	one, dramOne := run(false)
	batch, dramBatch := run(true)
	require.Len(t, one, 40)
	assert.Equal(t, one, batch)
	assert.Equal(t, dramOne, dramBatch, "the DRAM channel saw the same asks")
}
