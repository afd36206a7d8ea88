package main

import (
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/lesson"
	"github.com/dmaviz/dmaviz/model/catalog"
)

// The loader finds a view whatever the order of the URL's keys, with or
// without autoplay (assets/web/first.js keys URLs the same way).
func TestViewKey(t *testing.T) {
	assert.Equal(t, "embed=1&scenario=etr", ViewKey("?scenario=etr&embed=1&autoplay=1"))
	assert.Equal(t, ViewKey("embed=1&scenario=etr"), ViewKey("scenario=etr&embed=1"))
	assert.Equal(t, "buffer=1MiB&scenario=etr", ViewKey("scenario=etr&buffer=1MiB"), "values decoded")
	assert.Equal(t, "", ViewKey(""))
}

// The pre-rendered panel's ids and label targets get the "first-" prefix,
// so they never shadow the live panel's.
func TestStaticIDs(t *testing.T) {
	got := string(staticIDs([]byte(`<label for="buffer">B</label><input id="buffer" data-id="x"/>`)))
	assert.Equal(t, `<label for="first-buffer">B</label><input id="first-buffer" data-id="x"/>`, got)
}

// Every lesson stop is pre-rendered as a page, in presentation mode and
// as an embed, keyed by
// the URL a teacher opens or a docs author pastes (the first stop also
// without stop=, autoplay=1 aside): the page's view has its panel with
// the lesson card, the embed's the card alone (Card), and both ask the
// stop's question over the stop's scenario.
func TestBuildFirstLessons(t *testing.T) {
	if testing.Short() {
		t.Skip("runs and draws every scenario and lesson stop")
	}
	out := t.TempDir()
	idx, err := buildFirst(out, filepath.Join(out, "no-embeds.txt"))
	reg := catalog.Registry()
	require.NoError(t, err)
	p, err := lesson.Get("dma")
	require.NoError(t, err)
	require.Len(t, idx.Lessons["dma"], len(p.Stops), "the stops' titles, for an embed with no view")
	for n, stop := range p.Stops {
		assert.Equal(t, stop.Title, idx.Lessons["dma"][n])
		for _, c := range []struct {
			suffix string
			embed  bool
			w, h   int
		}{{"", false, pageW, lessonPageH}, {"&panel=collapsed", false, presentW, lessonPresentH}, {"&embed=1&autoplay=1", true, embedW, lessonEmbedH}} {
			q := fmt.Sprintf("?stop=%d&lesson=dma", n+1) + c.suffix
			e, ok := idx.view(q)
			require.True(t, ok, "%s has no pre-rendered view", q)
			assert.Equal(t, stop.Scenario, e.Scenario, q)
			assert.Equal(t, c.embed, e.Embed, q)
			assert.Equal(t, c.embed, e.Card, "%s: an embed's card has a file of its own", q)
			assert.Equal(t, [2]int{c.w, c.h}, [2]int{e.W, e.H}, q)
			card, err := os.ReadFile(filepath.Join(out, "first", e.File+".html"))
			require.NoError(t, err, q)
			assert.Contains(t, string(card), `id="first-lesson-question"`, "%s: the card, its ids prefixed", q)
			assert.Contains(t, string(card), html.EscapeString(stop.Question), q)
			svg, err := os.ReadFile(filepath.Join(out, "first", e.File+".svg"))
			require.NoError(t, err, q)
			assert.True(t, strings.HasPrefix(string(svg), "<svg"), q)
			// No answer before the reveal: the stage's counters and the
			// panel's metrics without values.
			assert.NotRegexp(t, `data-id="counters/values"[^>]*>[^?<][^<]*</text>`, string(svg), "%s: a counter's value before the reveal", q)
			if stop.Scenario != "smmu-bypass" && c.suffix != "&panel=collapsed" { // charts, not counters; narration in presentation mode
				assert.Contains(t, string(svg), `>?</text>`, "%s: the counters before the reveal", q)
			}
			if c.suffix == "" {
				assert.Contains(t, string(card), `id="first-metrics-masked"`, "%s: the panel's metrics before the reveal", q)
			}
		}
	}
	for _, c := range [][2]string{{"lesson=dma&stop=1", "lesson=dma"}, {"lesson=dma&stop=1&embed=1", "embed=1&lesson=dma"}, {"lesson=dma&stop=1&panel=collapsed", "panel=collapsed&lesson=dma"}} {
		a, okA := idx.view(c[0])
		b, okB := idx.view(c[1])
		assert.True(t, okA && okB && a == b, "%s and %s: stop 1 with and without stop=", c[0], c[1])
	}
	assert.Len(t, idx.Files, len(reg.All())+3*len(p.Stops), "a view per scenario and per stop and mode, each listed once")
}
