package app

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/report"
	"github.com/dmaviz/dmaviz/site/control"
)

// ran returns the panel state for query with both sides run.
func ran(t *testing.T, query string) *App {
	t.Helper()
	a := New(catalog.Registry(), query)
	req, err := a.Plan()
	require.NoError(t, err)
	ra, rb, err := req.Run(t.Context(), nil)
	require.NoError(t, err)
	a.SetResults(req, ra, rb, nil)
	return a
}

func TestExportsNeedResults(t *testing.T) {
	a := New(catalog.Registry(), "?scenario=demo")
	for _, f := range []func() (string, bool){a.MetricsCSV, a.ReportJSON, a.TraceJSON} {
		_, ok := f()
		assert.False(t, ok)
	}
}

func TestExports(t *testing.T) {
	a := ran(t, "?scenario=etr&size=paper") // the published setting: the references compare against it
	assert.Equal(t, "dmaviz-etr-coherent-vs-cached-sync-whole-when-full.json", a.FileName("json"))

	text, ok := a.MetricsCSV()
	require.True(t, ok)
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	require.NoError(t, err)
	assert.Equal(t, []string{"metric", "unit", "A", "B", "B/A", "published", "source", "kind", "verdict"}, rows[0])
	require.Equal(t, "update_etr_buffer_us", rows[1][0])
	assert.Equal(t, "us", rows[1][1])
	assert.Contains(t, rows[1][5], "published A 8148.3 · simulated")
	assert.Equal(t, "calibrated; prediction; prediction", rows[1][7])
	assert.Equal(t, "calibrated; outside; outside", rows[1][8], "the calibrated coherent time; the merged driver's time and the ratio as the model predicts them")
	assert.Len(t, rows, len(a.Rows())+1)

	js, ok := a.ReportJSON()
	require.True(t, ok)
	var rep report.Report
	require.NoError(t, json.Unmarshal([]byte(js), &rep))
	assert.Equal(t, report.SchemaVersion, rep.SchemaVersion)
	assert.Len(t, rep.References, 3)
	assert.Equal(t, "coherent", rep.A.Policy)

	tr, ok := a.TraceJSON()
	require.True(t, ok)
	var doc struct {
		TraceEvents []map[string]any `json:"traceEvents"`
		Metadata    struct {
			Params map[string]string `json:"params"`
		} `json:"metadata"`
	}
	require.NoError(t, json.Unmarshal([]byte(tr), &doc))
	assert.Equal(t, "4MiB", doc.Metadata.Params["buffer"])
	assert.NotEmpty(t, doc.TraceEvents)
}

// The headline is computed once per setting of everything but the varied
// parameter; changing that parameter only moves the marker.
func TestHeadline(t *testing.T) {
	a := ran(t, "?scenario=etr&size=paper") // the published setting: the references compare against it
	req, ok := a.NextHeadline()
	require.True(t, ok)
	assert.Nil(t, a.HeadlineChart())
	_, again := a.NextHeadline()
	assert.False(t, again, "due twice for one setting")
	ch, err := req.Run(context.Background(), nil, nil)
	require.NoError(t, err)
	require.True(t, a.SetHeadline(req.Key, ch, false))
	got := a.HeadlineChart()
	require.NotNil(t, got)
	assert.Equal(t, float64(4<<20), got.Mark)

	a.SetParam("buffer", "1MiB")
	_, due := a.NextHeadline()
	assert.False(t, due, "the varied parameter changed: the curve is the same")
	require.NotNil(t, a.HeadlineChart())
	assert.Equal(t, float64(1<<20), a.HeadlineChart().Mark)

	a.SetParam("laps", "2")
	assert.Nil(t, a.HeadlineChart(), "a chart for another setting is not shown")
	stale := req.Key
	req2, due := a.NextHeadline()
	assert.True(t, due)
	assert.False(t, a.SetHeadline(stale, ch, false), "a chart for an old setting is dropped")
	assert.NotEqual(t, stale, req2.Key)

	sweeping := control.RunState{Sweeping: true}
	running, _ := a.HeadlineStatus(sweeping)
	assert.True(t, running, "computing for the new setting")
	a.SetScenario("sg-sync")
	running, _ = a.HeadlineStatus(sweeping)
	assert.False(t, running, "a computation for another scenario is not shown as running")

	// sg-sync has its own chart in its results, no headline.
	b := ran(t, "?scenario=sg-sync&iterations=2&total=64KiB")
	_, due = b.NextHeadline()
	assert.False(t, due)
}
