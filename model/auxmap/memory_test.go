package auxmap

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// A run whose AUX and workload pages are more than half the board's
// memory is refused naming the memory, each part, the shortfall and the
// largest value allowed of the parameter to change; that value is
// accepted and the next power of two is not. When not even the smallest
// AUX buffer fits, the biggest workload part is named with its largest
// value, which is accepted.
func TestMemoryRefusalNamesTheShortfallAndTheLargestAllowed(t *testing.T) {
	mem := scenario.Value{Num: 1 << 30} // hw.mem.bytes: a board with 1 GiB
	_, err := NewTRBE().parse(scenario.Params{"preset": {Text: "juno-r2"}, "hw.mem.bytes": mem})
	require.Error(t, err)
	for _, want := range []string{"aux: AUX 1GiB and workload 576KiB (code 512KiB + working_set 64KiB)", "juno-r2",
		"1GiB of memory", "hw.mem.bytes", "524864KiB short", "largest aux allowed here: 256MiB"} {
		assert.Contains(t, err.Error(), want)
	}
	_, err = NewTRBE().parse(scenario.Params{"preset": {Text: "juno-r2"}, "hw.mem.bytes": mem, ParamAUX: {Text: "256MiB"}})
	assert.NoError(t, err, "the largest aux the refusal allows")
	_, err = NewTRBE().parse(scenario.Params{"preset": {Text: "juno-r2"}, "hw.mem.bytes": mem, ParamAUX: {Text: "512MiB"}})
	assert.ErrorContains(t, err, "largest aux allowed here: 256MiB")

	small := scenario.Value{Num: 64 << 20} // 32 MiB for AUX and workload
	_, err = NewSPE().parse(scenario.Params{"preset": {Text: "juno-r2"}, "hw.mem.bytes": small, ParamAUX: {Text: "64KiB"}, ParamBS: {Text: "64MiB"}, ParamCount: {Text: "1"}, ParamIterations: {Text: "1"}})
	require.Error(t, err)
	for _, want := range []string{"bs: AUX 64KiB", "bs 64MiB", "even with the smallest AUX buffer (64KiB)", "largest bs allowed here: 32688KiB"} {
		assert.Contains(t, err.Error(), want)
	}
	_, err = NewSPE().parse(scenario.Params{"preset": {Text: "juno-r2"}, "hw.mem.bytes": small, ParamAUX: {Text: "64KiB"}, ParamBS: {Text: "32688KiB"}, ParamCount: {Text: "1"}, ParamIterations: {Text: "1"}})
	assert.NoError(t, err, "the largest bs the refusal allows")
}
