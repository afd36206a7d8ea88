package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The CLI's --url (and --param) take a link's hw.* keys; a bad one is
// refused naming the key and what it allows, once.
func TestRunTakesHardwareKeys(t *testing.T) {
	code, out, errs := call(t, "run", "etr", "--url", "hw.l2.size=2MiB&hw.dram.latency=95ns", "--param", "buffer=64KiB")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "board: juno-r2 with hw.l2.size=2MiB hw.dram.latency=95ns\n")

	code, _, errs = call(t, "run", "etr", "--url", "hw.l2.ways=0")
	assert.Equal(t, 2, code)
	assert.Equal(t, "dmaviz: hw.l2.ways: 0 is out of range; allowed 1..64\n", errs)
	code, _, errs = call(t, "run", "etr", "--param", "hw.l2.size=2 parsecs")
	assert.Equal(t, 2, code)
	assert.Equal(t, "dmaviz: --param hw.l2.size: \"2 parsecs\" is not a size such as 64B, 32KiB, 2MiB\n", errs)
}
