package firstview

import (
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/lesson"
	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/site/app"
)

// The first view of the page's opening URL is the default scenario at its
// opening cursor: a stage, a panel whose metrics table is filled and whose
// headline chart is being computed (as the live panel's is when it takes
// over), and the results as data.
func TestRenderOpeningView(t *testing.T) {
	reg := catalog.Registry()
	v, err := Render(reg, platform.Parameters, "scenario=demo", 1100, 900)
	require.NoError(t, err)
	assert.Equal(t, "demo", v.Scenario)
	assert.Equal(t, "0ps", v.Cursor, "the page opens at the start")
	assert.True(t, strings.HasPrefix(string(v.SVG), "<svg"), "stage: %.40q", v.SVG)
	panel := string(v.Panel)
	assert.Contains(t, panel, `<div id="metrics-host" class="metrics"><table id="metrics">`, "the metrics table in its host")
	sc, err := reg.Get("demo")
	require.NoError(t, err)
	lesson, err := sc.Spec().SizeParams(scenario.SizeLesson)
	require.NoError(t, err)
	assert.Contains(t, panel, `id="param-buffer" value="`+lesson.Text("buffer")+`"`, "the parameter's text at the lesson size a bare link opens with (a property in the live panel)")
	assert.Contains(t, panel, `id="scrub" value="0"`, "the scrubber at the start")
	assert.Contains(t, panel, "What changes with the setting", "the headline chart's place")
	var d app.FirstViewData
	require.NoError(t, json.Unmarshal(v.Results, &d))
	assert.Equal(t, "demo", d.Scenario)
	assert.NotEmpty(t, d.Rows)
	assert.NotEmpty(t, d.Narration[0])

	e, err := Render(reg, platform.Parameters, "scenario=demo&embed=1", 960, 600)
	require.NoError(t, err)
	assert.Equal(t, "end", e.Cursor, "an embed without a time opens at the end")
	assert.Nil(t, e.Panel, "an embed has no panel to pre-render")
}

// A URL the page would correct with a message has no first view: the
// builder says why.
func TestRenderRefusesBadURL(t *testing.T) {
	_, err := Render(catalog.Registry(), platform.Parameters, "scenario=demo&buffer=3", 1100, 900)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "buffer")
}

// A lesson stop's first view is the stop's setting at the lesson size at
// its start, with the lesson card asking the stop's question: in the
// panel for the page, alone for an embed (which has no panel).
func TestRenderLessonStop(t *testing.T) {
	reg := catalog.Registry()
	p, err := lesson.Get("dma")
	require.NoError(t, err)
	for n, stop := range p.Stops {
		q := fmt.Sprintf("lesson=dma&stop=%d", n+1)
		for _, embed := range []bool{false, true} {
			u, w, h := q, 1100, 900
			if embed {
				u, w, h = q+"&embed=1", 960, 560
			}
			v, err := Render(reg, platform.Parameters, u, w, h)
			require.NoError(t, err, u)
			assert.Equal(t, stop.Scenario, v.Scenario, u)
			assert.Equal(t, "0ps", v.Cursor, "%s: a stop opens at its start, the question before the run", u)
			assert.Equal(t, "dma", v.Lesson, u)
			assert.Equal(t, n+1, v.Stop, u)
			card := string(v.Panel)
			assert.Contains(t, card, `<div id="lesson" `, "%s: the lesson card", u)
			assert.Contains(t, card, `<div id="lesson-question" class="lesson-question">`, u)
			assert.Contains(t, card, html.EscapeString(stop.Question), "%s: the stop's question", u)
			assert.Contains(t, card, html.EscapeString(stop.Title), u)
			assert.Contains(t, card, fmt.Sprintf("Stop %d of %d", n+1, len(p.Stops)), u)
			assert.NotContains(t, card, `id="lesson-answer"`, "%s: the answer waits for the reveal", u)
			assert.Equal(t, embed, !strings.Contains(card, `id="metrics-host"`), "%s: the page's panel, or the embed's card alone", u)
			assert.True(t, strings.HasPrefix(string(v.SVG), "<svg"), u)
			vals, err := url.ParseQuery(v.Query)
			require.NoError(t, err)
			for k, want := range stop.Query() {
				assert.Equal(t, want, vals[k], "%s: the live page's query keeps the stop's %s", u, k)
			}
		}
	}
}
