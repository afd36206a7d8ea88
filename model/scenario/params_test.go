package scenario

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParamParse(t *testing.T) {
	p := Param{Name: "buffer", Kind: KindBytes, Min: 64 << 10, Max: 64 << 20}
	{
		v, err := p.Parse("4MiB")
		require.NoError(t, err, "Parse(4MiB) = %+v, %v", v, err)
		require.EqualValues(t, 4<<20, v.Num, "Parse(4MiB) = %+v, %v", v, err)
		require.EqualValues(t, "4MiB", v.Text, "Parse(4MiB) = %+v, %v", v, err)
	}
	for _, bad := range []string{"1KiB", "65MiB", "x", "NaN", "1.5"} {
		_, err := p.Parse(bad)
		require.Error(t, err, "Parse(%q) accepted", bad)
		{
			msg := err.Error()
			assert.Contains(t, msg, "buffer", "Parse(%q) error %q does not name the field and range", bad, msg)
			assert.Contains(t, msg, "64KiB..64MiB", "Parse(%q) error %q does not name the field and range", bad, msg)
		}
	}
}

// Held lists every parameter but the varied ones, in the spec's order,
// with its canonical text (a number given without text as a number).
func TestHeldListsTheOtherParametersInOrder(t *testing.T) {
	s := &Spec{Params: []Param{
		{Name: "buffer", Kind: KindBytes, Default: "4MiB", Min: 1, Max: 1 << 30},
		{Name: "aux", Kind: KindBytes, Default: "4MiB", Min: 1, Max: 1 << 30},
		{Name: "laps", Kind: KindFloat, Default: "1", Min: 1, Max: 10},
	}}
	p, err := s.Defaults()
	require.NoError(t, err)
	assert.Equal(t, []string{"aux=4MiB", "laps=1"}, s.Held(p, "buffer"))
	p["laps"] = Value{Num: 1.5}
	assert.Equal(t, []string{"buffer=4MiB", "aux=4MiB", "laps=1.5"}, s.Held(p))
	assert.Empty(t, s.Held(p, "buffer", "aux", "laps"))
}

// A scenario on a board keeps hardware overrides through Resolve (the
// run checks their paths); with any the setting is not the published one.
func TestResolveKeepsHardwareOverrides(t *testing.T) {
	sp := &Spec{ID: "s", OnBoard: true, Params: []Param{{Name: "preset", Kind: KindChoice, Default: "p", Choices: Choices("p", "P")}}}
	full, err := sp.Resolve(Params{"hw.dram.latency": {Num: 150}})
	require.NoError(t, err)
	assert.Equal(t, map[string]float64{"dram.latency": 150}, full.Hardware())
	assert.False(t, sp.AtDefaults(full))
	def, _ := sp.Defaults()
	assert.True(t, sp.AtDefaults(def))
	assert.Nil(t, def.Hardware())
	_, err = sp.Resolve(Params{"hw.dram.latency": {Num: math.NaN()}})
	assert.ErrorContains(t, err, "hw.dram.latency: NaN is not a number")
	sp.OnBoard = false
	_, err = sp.Resolve(Params{"hw.dram.latency": {Num: 150}})
	assert.ErrorContains(t, err, "hw.dram.latency: unknown parameter for scenario s")
}
