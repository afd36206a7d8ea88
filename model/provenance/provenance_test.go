package provenance

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEntryCheck(t *testing.T) {
	for _, c := range []struct {
		e    Entry
		v    float64
		want string // "" for no error
	}{
		{Measure("l1d.size", "dts: d-cache-size"), 32768, ""},
		{Measure("l1d.size", " "), 32768, "l1d.size: measured without a source"},
		{Derive("l1d.ways", ""), 4, "l1d.ways: derived without a source"},
		{Fit("dram.latency", "etr/x/coherent", "solved"), 124, ""},
		{Fit("dram.latency", "", "solved"), 124, "dram.latency: fitted without a figure"},
		{Assume("l2.latency", 12, 21, "no source"), 15, ""},
		{Assume("l2.latency", 12, 21, "no source"), 12, ""},
		{Assume("l2.latency", 12, 21, "no source"), 22, "l2.latency: assumed value 22 is outside its range [12, 21]"},
		{Assume("l2.latency", 21, 12, "no source"), 15, "l2.latency: assumed range [21, 12] is empty"},
		{Assume("l2.latency", 12, 21, ""), 15, "l2.latency: assumed without a reason"},
		{Entry{Path: "x"}, 1, "x: no provenance kind"},
	} {
		err := c.e.Check(c.v)
		if c.want == "" {
			assert.NoError(t, err, "%+v", c.e)
		} else if assert.Error(t, err, "%+v", c.e) {
			assert.Equal(t, c.want, err.Error())
		}
	}
	assert.True(t, Assume("a", 1, 2, "w").Varies())
	assert.False(t, Assume("a", 1, 1, "w").Varies())
	assert.False(t, Measure("a", "s").Varies())
	assert.Equal(t, "fitted", Fitted.String())
}
