package site

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/site/app"
)

func runDefault(t *testing.T, id string, side int) *scenario.Result {
	t.Helper()
	sc, err := catalog.Registry().Get(id)
	require.NoError(t, err)
	p, err := sc.Spec().Defaults()
	require.NoError(t, err)
	r, err := sc.Run(t.Context(), p, [2]string{sc.Spec().DefaultA, sc.Spec().DefaultB}[side], nil)
	require.NoError(t, err)
	return r
}

// trbe-aux simulates 10 sessions and the stage plays the last: the run
// status says both, so "simulated: A 10.75s" beside a scrubber "of
// 1.075s" is not left unexplained; a run the stage plays whole says one
// figure per side.
func TestSimulatedTextNamesThePlayedSession(t *testing.T) {
	a, b := runDefault(t, "trbe-aux", 0), runDefault(t, "trbe-aux", 1)
	require.NotEqual(t, a.End, a.Timeline.End, "trbe-aux no longer plays part of its run: the test needs another scenario")
	got := SimulatedText(a, b)
	assert.Contains(t, got, "simulated: A "+a.End.String())
	assert.Contains(t, got, "the stage plays one recorded session: A "+a.Timeline.End.String())
	d := &scenario.Result{End: 5000, Timeline: nil}
	assert.Equal(t, "simulated: A "+d.End.String()+", B "+d.End.String(), SimulatedText(d, d))
}

// smmu-bypass carries its own charts under "What changes with the
// setting"; its headline chart, below them, does not repeat the heading.
func TestHeadlineUntitledUnderTheRunsCharts(t *testing.T) {
	for _, c := range []struct {
		id   string
		want bool
	}{{"smmu-bypass", true}, {"etr", false}} {
		root := &Root{App: &app.App{}}
		root.App.A, root.App.B = runDefault(t, c.id, 0), runDefault(t, c.id, 1)
		assert.Equal(t, c.want, root.hasCharts(), c.id)
	}
}
