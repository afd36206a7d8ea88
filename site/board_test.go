package site

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dmaviz/dmaviz/model/provenance"
)

// Each parameter is a row with its value and kind, and its provenance in
// words on hover; text is escaped; no parameters, no list.
func TestBoardHTML(t *testing.T) {
	assert.Empty(t, (&Board{Preset: "x"}).HTML())
	b := &Board{Preset: "juno-r2",
		Params: []provenance.Param{
			{Entry: provenance.Fit("dram.latency", "etr/update_etr_buffer_us/coherent", "solved <here>"), Unit: "ns", Value: 124, Text: "124 ns"},
			{Entry: provenance.Assume("l2.latency", 12, 21, "not found"), Unit: "cycles", Value: 15, Text: "15 cycles"},
		},
		Constants: []provenance.Param{{Entry: provenance.Measure("etr.width", "memcpy.S"), Unit: "B", Value: 16, Text: "16 B"}}}
	got := b.HTML()
	assert.Contains(t, got, `<summary>Hardware: juno-r2 · 2 parameters: 0 measured, 0 derived, 1 assumed, 1 fitted</summary>`)
	assert.Contains(t, got, `<tr data-path="dram.latency" class="fitted" title="fitted: fitted to etr/update_etr_buffer_us/coherent: solved &lt;here&gt;"><td class="path">dram.latency</td><td class="num">124 ns</td><td class="kind">fitted</td></tr>`)
	assert.Contains(t, got, `title="assumed: range [12, 21] cycles: not found"`)
	assert.Contains(t, got, `<table id="board-scenario"><tr data-path="etr.width" class="measured" title="measured: memcpy.S">`)
	assert.Equal(t, 3, strings.Count(got, "<tr "))
}
