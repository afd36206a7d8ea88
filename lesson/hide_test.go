package lesson

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// Hide keeps back the numbers that print an answer figure and leaves the
// rest: the question's own numbers, numbers inside words and hex.
func TestHide(t *testing.T) {
	st := Stop{Question: "How many walks for 64 pages of 4 KiB?"}
	vals := []float64{64, 4, 2.9468, 208, 148}
	got := st.Hide("vmapped the 64 pages (2.9 us here); l2d_tlb_refill 208.0, then 148 at 0x2000, 2 of 4 KiB", vals)
	assert.Equal(t, "vmapped the 64 pages (? us here); l2d_tlb_refill ?, then ? at 0x2000, 2 of 4 KiB", got)
	assert.Equal(t, "took ? us", Stop{}.Hide("took 1,234.5 us", []float64{1234.46}))
	assert.Equal(t, "took 1,234.6 us", Stop{}.Hide("took 1,234.6 us", []float64{1234.46}))
	assert.Equal(t, "no figures", st.Hide("no figures", nil))
}

// At each stop the figures the answer quotes from the stop's own runs
// are among the values kept back, and a narration step that states one
// (trbe-aux's first step gives the trace unit's wait) loses it.
func TestAnswerValuesHideTheStopsFigures(t *testing.T) {
	p, err := Get("dma")
	require.NoError(t, err)
	reg := catalog.Registry()
	for i, st := range p.Stops {
		s, err := reg.Get(st.Scenario)
		require.NoError(t, err)
		r := runs{s: s, stop: st, got: map[string][2]*scenario.Result{}}
		res, err := r.pair(t.Context(), scenario.SizeLesson, st.A, st.B)
		require.NoError(t, err)
		vals := st.AnswerValues(res[0], res[1])
		require.NotEmpty(t, vals, "stop %d", i+1)
		for _, f := range st.Figures {
			if f.Paper || f.Policy != "" || f.Given || strings.Contains(st.Question, f.Text) {
				continue
			}
			assert.Equal(t, Hidden, st.Hide(f.Text, vals), "stop %d: %s (%s) is not kept back", i+1, f.Text, f.Metric)
		}
		if st.Scenario == "etr" {
			first := res[1].Narration[0].Text
			require.Contains(t, first, "256 of the buffer's lines")
			assert.Equal(t, first, st.Hide(first, vals), "the setting (a given figure) stays")
		}
		if st.Scenario == "trbe-aux" {
			first := res[0].Narration[0].Text
			require.Contains(t, first, "(2.9 us per iteration here)")
			assert.Contains(t, st.Hide(first, vals), "(? us per iteration here)")
			assert.Contains(t, st.Hide(first, vals), "the 64 pages", "the question's own number stays")
		}
	}
}
