package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStepAndPow2AreOneRuleTheRangeStates(t *testing.T) {
	buf := Param{Name: "buffer", Kind: KindBytes, Min: 64 << 10, Max: 64 << 20, Step: 4096}
	assert.Equal(t, "64KiB..64MiB, whole 4KiB pages", buf.Range())
	for _, bad := range []string{"2000000B", "1000001", "65537"} {
		_, err := buf.Parse(bad)
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), "buffer: ")
		assert.Contains(t, err.Error(), "not a whole number of 4KiB pages; allowed 64KiB..64MiB, whole 4KiB pages")
	}
	v, err := buf.Parse("68KiB")
	require.NoError(t, err)
	assert.Equal(t, "68KiB", v.Text)

	aux := Param{Name: "aux", Kind: KindBytes, Min: 4 << 10, Max: 256 << 20, Step: 4096, Pow2: true}
	assert.Equal(t, "4KiB..256MiB, a power-of-two number of 4KiB pages", aux.Range())
	_, err = aux.Parse("12KiB")
	assert.ErrorContains(t, err, "not a power-of-two number of 4KiB pages")
	_, err = aux.Parse("8KiB")
	assert.NoError(t, err)

	n := Param{Name: "iterations", Kind: KindInt, Min: 1, Max: 100}
	assert.Equal(t, "1..100", n.Range(), "no step, no words")
}
