package etr

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The first step says the cached copies went stale only when there are
// some: through the Normal-NC alias the previous session cached nothing,
// and "0 of the buffer's lines ... those copies are now older than DRAM"
// named copies that do not exist.
func TestTraceStepNamesStaleCopiesOnlyWhenCached(t *testing.T) {
	for _, c := range []struct {
		policy string
		none   bool
	}{{string(Coherent), true}, {string(WholeWhenFull), false}} {
		r := runWith(t, c.policy, "buffer", "64KiB")
		require.NotEmpty(t, r.Narration)
		text := r.Narration[0].Text
		if c.none {
			assert.Contains(t, text, "None of the buffer's lines is in the CPU caches", c.policy)
			assert.NotContains(t, text, "older than DRAM", c.policy)
		} else {
			assert.Regexp(t, `[1-9][0-9]* of the buffer's lines are in the CPU caches .*older than DRAM`, text, c.policy)
		}
	}
}
