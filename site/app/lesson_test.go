package app

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/site/control"
)

// ?lesson=dma&stop=2 opens the second stop's scenario and pair at the
// lesson size; the clicker's next reveals, then moves on (the question
// first again), and back undoes each; the URL carries the stop.
func TestLessonPathSteps(t *testing.T) {
	a := New(catalog.Registry(), "?lesson=dma&stop=2&panel=collapsed")
	require.Empty(t, a.Messages)
	require.True(t, a.LessonOpen())
	assert.Equal(t, "etr", a.State.Scenario)
	assert.Equal(t, [2]string{"coherent", "cached-sync-whole-when-full"}, [2]string{a.State.A, a.State.B})
	assert.Equal(t, scenario.SizeLesson, a.State.Size)
	assert.Equal(t, "16KiB", a.State.Params.Text("buffer"))
	assert.Contains(t, a.Query(control.Snapshot{}), "lesson=dma&stop=2")

	assert.False(t, a.LessonForward(), "the reveal needs no run")
	assert.True(t, a.Lesson.Revealed)
	assert.True(t, a.LessonForward(), "the next stop is a run")
	assert.Equal(t, 3, a.State.Stop)
	assert.Equal(t, "sg-sync", a.State.Scenario)
	assert.False(t, a.Lesson.Revealed, "a new stop asks its question first")
	assert.True(t, a.State.Collapsed, "presentation mode stays")
	assert.Contains(t, a.Query(control.Snapshot{}), "lesson=dma&stop=3")

	assert.True(t, a.LessonBack())
	assert.Equal(t, "etr", a.State.Scenario)
	assert.False(t, a.GoStop(6), "past the last stop")
	assert.True(t, a.GoStop(5))
	assert.Equal(t, "smmu-bypass", a.State.Scenario)
	assert.Equal(t, "16", a.State.Params.Text("tbu-tlb"))
	a.LessonForward()
	assert.False(t, a.LessonForward(), "no stop after the last")
	assert.Equal(t, 5, a.State.Stop)

	a.CloseLesson()
	assert.NotContains(t, a.Query(control.Snapshot{}), "lesson=")
	assert.Equal(t, "smmu-bypass", a.State.Scenario, "closing keeps the scenario")
}

// A stop link keeps what it names of the stop's own scenario (a teacher's
// other B), and a link naming another scenario takes the stop's; bad
// lesson or stop values get one message each and the page goes on.
func TestLessonLinks(t *testing.T) {
	a := New(catalog.Registry(), "lesson=dma&stop=2&b=cached-wrong-wrap-sync")
	require.Empty(t, a.Messages)
	assert.Equal(t, "cached-wrong-wrap-sync", a.State.B)
	assert.Equal(t, "coherent", a.State.A)

	a = New(catalog.Registry(), "lesson=dma&stop=1&scenario=etr")
	require.Empty(t, a.Messages)
	assert.Equal(t, "demo", a.State.Scenario)
	assert.Equal(t, "cacheable-no-sync", a.State.A)

	a = New(catalog.Registry(), "lesson=dma&stop=7")
	require.Equal(t, []string{`stop: "7" is not allowed; allowed 1..5; using 1`}, a.Messages)
	assert.Equal(t, "demo", a.State.Scenario)
	assert.Equal(t, 1, a.State.Stop)

	a = New(catalog.Registry(), "lesson=dma&stop=4&embed=1")
	assert.Equal(t, control.Command{Kind: control.CmdSeek}, a.FirstCursor(), "a lesson's embed opens at the start, its question unanswered")
	assert.Equal(t, control.CmdEnd, New(catalog.Registry(), "scenario=etr&embed=1").FirstCursor().Kind)

	a = New(catalog.Registry(), "lesson=physics")
	require.Equal(t, []string{`lesson: "physics" is not allowed; allowed dma; showing no lesson`}, a.Messages)
	assert.False(t, a.LessonOpen())
}

// Until the reveal the page keeps the answer back: Masked holds, and Hide
// takes the answer's figures out of the narration; the reveal, going back
// to the question, a new stop and leaving the lesson each set it right.
func TestLessonMasksTheAnswerUntilTheReveal(t *testing.T) {
	a := New(catalog.Registry(), "?lesson=dma&stop=4")
	require.True(t, a.Masked())
	st := a.LessonStop()
	p, err := a.Spec.SizeParams(scenario.SizeLesson)
	require.NoError(t, err)
	s, err := catalog.Registry().Get(st.Scenario)
	require.NoError(t, err)
	a.A, a.B, err = scenario.RunPair(t.Context(), s, p, st.A, st.B, nil, nil)
	require.NoError(t, err)
	first := a.A.Narration[0].Text
	require.Contains(t, first, "2.9 us")
	assert.NotContains(t, a.Hide(first), "2.9 us")
	assert.Contains(t, a.Hide(first), "? us")

	a.LessonForward()
	assert.False(t, a.Masked(), "revealed")
	assert.Equal(t, first, a.Hide(first))
	a.LessonBack()
	assert.True(t, a.Masked(), "the question again")
	a.CloseLesson()
	assert.False(t, a.Masked(), "no lesson")
	assert.Equal(t, first, a.Hide(first))
}
