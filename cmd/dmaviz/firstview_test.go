package main

import (
	"fmt"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/lesson"
	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/site/firstview"
)

// The site builder's pre-rendered stage for each scenario's opening
// setting, and for an embed, is `dmaviz export` of the same URL at the
// opening cursor, byte for byte.
func TestFirstViewIsTheExport(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every scenario's paper setting twice")
	}
	queries := []string{"scenario=etr&embed=1"}
	for _, s := range catalog.Registry().All() {
		queries = append(queries, "scenario="+s.Spec().ID)
	}
	for _, q := range queries {
		v, err := firstview.Render(catalog.Registry(), platform.Parameters, q, 1100, 900)
		require.NoError(t, err, q)
		code, out, errs := call(t, "export", v.Scenario, "--url", v.Query, "--at", v.Cursor, "--size", "1100x900", "--svg", "-")
		require.Equal(t, 0, code, errs)
		assert.True(t, out == string(v.SVG), "%s: the pre-rendered stage (%d bytes) is not the export (%d bytes)", q, len(v.SVG), len(out))
		assert.NotEmpty(t, v.Results, q)
		if !v.Embed {
			assert.Contains(t, string(v.Panel), fmt.Sprintf(`<option selected="selected" value="%s">`, v.Scenario), "%s: the panel's scenario choice", q)
		}
	}
}

// A lesson stop's pre-rendered stage, as a page, in presentation mode and
// as an embed, is `dmaviz export` of the stop's lesson URL, byte for
// byte: the stop's setting at its opening cursor as the page shows it
// before the reveal, the counters' values "?" (and so not the export of
// the stop's scenario URL, which shows them).
func TestLessonFirstViewIsTheExport(t *testing.T) {
	p, err := lesson.Get("dma")
	require.NoError(t, err)
	for n, stop := range p.Stops {
		stopURL := url.Values(stop.Query()).Encode()
		for _, c := range []struct {
			query string
			w, h  int
		}{
			{fmt.Sprintf("lesson=dma&stop=%d", n+1), 1100, 745},
			{fmt.Sprintf("lesson=dma&stop=%d&panel=collapsed", n+1), 1280, 557},
			{fmt.Sprintf("lesson=dma&stop=%d&embed=1", n+1), 960, 381},
		} {
			v, err := firstview.Render(catalog.Registry(), platform.Parameters, c.query, c.w, c.h)
			require.NoError(t, err, c.query)
			size := fmt.Sprintf("%dx%d", c.w, c.h)
			code, out, errs := call(t, "export", "--url", "?"+c.query, "--size", size, "--svg", "-")
			require.Equal(t, 0, code, errs)
			assert.True(t, out == string(v.SVG), "%s: the pre-rendered stage (%d bytes) is not the export of its URL (%d bytes)", c.query, len(v.SVG), len(out))
			if stop.Scenario != "smmu-bypass" && c.h != 557 { // charts, not counters; narration in presentation mode
				assert.Regexp(t, `data-id="counters/values"[^>]*>\?</text>`, out, "%s: the counters' values before the reveal", c.query)
			}
			assert.NotRegexp(t, `data-id="counters/values"[^>]*>[^?<][^<]*</text>`, out, "%s: a counter's value before the reveal", c.query)
			_, open, errs := call(t, "export", stop.Scenario, "--url", stopURL, "--at", v.Cursor, "--size", size, "--svg", "-")
			assert.NotEqual(t, open, out, "%s: drawn as the stop's scenario URL, answer shown (%s)", c.query, errs)
		}
	}
}

// A lesson URL is exported as the page opens it: flags that would change
// the setting or the cursor are refused, naming the flag.
func TestLessonExportRefusesSettingFlags(t *testing.T) {
	for _, flag := range [][]string{{"--at", "end"}, {"--light"}, {"--b", "coherent"}} {
		code, _, errs := call(t, append([]string{"export", "--url", "lesson=dma&stop=2", "--svg", "-"}, flag...)...)
		assert.Equal(t, 2, code, "%v", flag)
		assert.Contains(t, errs, "a lesson URL draws its stop as the page opens it", "%v", flag)
	}
	code, _, errs := call(t, "export", "--url", "lesson=nope", "--svg", "-")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "nope")
}
