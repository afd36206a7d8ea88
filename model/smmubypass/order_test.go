package smmubypass

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/sim"
)

// simulated runs one side with the machine's batched path on or off and
// every DRAM ask of the SMMU's agents seen by a hook.
func simulated(t *testing.T, c config, policy string, batched bool) (*run, []sim.Time) {
	t.Helper()
	r, err := setup(c, policy, false)
	require.NoError(t, err)
	r.m.SetBatching(batched)
	var asks []sim.Time
	r.m.SetPortHook(func(at sim.Time, _ uint64, _ int, _ bool) { asks = append(asks, at) })
	require.NoError(t, r.simulate())
	return r, asks
}

// Random multi-agent runs (the NIC, the translated engine, the TCU's walks
// and the core on one DRAM channel): every agent's DRAM ask comes in
// non-decreasing global time, none is earlier than one the core already
// made, and the result does not depend on the core's batched path (how
// far it runs before catching the queue up).
func TestOneGlobalTimeOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(14))
	for i := 0; i < 6; i++ {
		kv := []string{"packets", fmt.Sprint(300 + rng.Intn(1500)), "ring", fmt.Sprint(1 + rng.Intn(256)),
			"ws", fmt.Sprintf("%dKiB", 64<<rng.Intn(8)), "engine-rate", fmt.Sprintf("%.2f", 0.5+3*rng.Float64()),
			"engine-streams", fmt.Sprint(1 + rng.Intn(32)), "cpu-work", fmt.Sprint(rng.Intn(400)),
			"flows", fmt.Sprint(1 + rng.Intn(60000)), "seed", fmt.Sprint(rng.Intn(1000))}
		c, _ := params(t, kv...)
		for _, pol := range []string{PolicyOff, PolicyOn} {
			name := fmt.Sprintf("%v %s", kv, pol)
			a, asks := simulated(t, c, pol, true)
			require.Greater(t, len(asks), 1000, name)
			for k := 1; k < len(asks); k++ {
				require.GreaterOrEqual(t, asks[k], asks[k-1], "%s: DRAM ask %d", name, k)
			}
			assert.Zero(t, a.m.DRAMAskReorders(), name)
			assert.Greater(t, a.tbu.Stats.Walks, uint64(0), "%s: the TCU walked", name)
			b, asksB := simulated(t, c, pol, false)
			assert.Equal(t, asks, asksB, name)
			assert.Equal(t, a.st, b.st, name)
			assert.Equal(t, a.tbu.Stats, b.tbu.Stats, name)
			assert.Equal(t, a.m.Hash(), b.m.Hash(), "%s: machine state", name)
			assert.Equal(t, a.last, b.last, name)
		}
	}
}
