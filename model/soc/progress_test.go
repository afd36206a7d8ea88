package soc

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// DC ops over a large range call Progress every ProgressLines lines, with
// counts that add up to no more than the lines done, and the machine ends
// in the same state and time as without the hook.
func TestDCReportsProgress(t *testing.T) {
	const lines = 3*ProgressLines + 100
	run := func(progress func(int)) (*Machine, sim.Time) {
		m := newMachine(t, nil)
		m.Progress = progress
		b := alloc(t, m, "buf", lines*64, mem.Normal, false)
		must[sim.Time](t)(m.Read(b.VA, b.Size, 16))
		done := must[sim.Time](t)(m.DC(CIVAC, b.VA, b.Size))
		m.DSB()
		return m, done
	}
	var steps []int
	hooked, done := run(func(n int) { steps = append(steps, n) })
	require.Len(t, steps, 3)
	sum := 0
	for _, n := range steps {
		assert.GreaterOrEqual(t, n, ProgressLines)
		sum += n
	}
	assert.LessOrEqual(t, sum, lines)
	plain, plainDone := run(nil)
	assert.Equal(t, plainDone, done)
	assert.Equal(t, plain.Now(), hooked.Now())
	assert.Equal(t, plain.Counters(), hooked.Counters())
}
