//go:build e2e

package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// waitFile waits for a finished JSON download named name in dir.
func waitFile(t *testing.T, dir, name string) []byte {
	t.Helper()
	return waitDownload(t, dir, name, json.Valid)
}

// "Download trace" saves the run as a trace whose CPU slices add up to the
// update time the table shows; "Download JSON" saves the report with the
// published figures; the headline chart appears after the results.
func TestDownloadTraceAndJSON(t *testing.T) {
	b := newBrowser(t)
	dir := t.TempDir()
	allowDownloads(t, b, dir)
	openReady(t, b, "?scenario=etr&buffer=1MiB")
	b.waitFor(t, "the export buttons", `!document.getElementById("download-trace").disabled`)
	b.do(t, "clicking Download trace", chromedp.Click(chromedp.ID("download-trace")))
	b.waitFor(t, "the saved message", `document.getElementById("export-status").textContent.startsWith("saved")`)
	const base = "dmaviz-etr-coherent-vs-cached-sync-whole-when-full"
	var tr struct {
		TraceEvents []struct {
			Name string  `json:"name"`
			Ph   string  `json:"ph"`
			Ts   float64 `json:"ts"`
			Dur  float64 `json:"dur"`
			Pid  int     `json:"pid"`
			Tid  int     `json:"tid"`
			Args struct {
				Name string `json:"name"`
			} `json:"args"`
		} `json:"traceEvents"`
		DisplayTimeUnit string `json:"displayTimeUnit"`
		Metadata        struct {
			Scenario string            `json:"scenario"`
			Params   map[string]string `json:"params"`
		} `json:"metadata"`
	}
	require.NoError(t, json.Unmarshal(waitFile(t, dir, base+".trace.json"), &tr))
	assert.Equal(t, "etr", tr.Metadata.Scenario, "trace metadata scenario")
	assert.Equal(t, "1MiB", tr.Metadata.Params["buffer"], "trace metadata buffer")
	assert.Equal(t, "ns", tr.DisplayTimeUnit, "trace displayTimeUnit")
	cpu := map[int]int{} // pid -> tid of the "cpu" thread
	for _, e := range tr.TraceEvents {
		if e.Ph == "M" && e.Name == "thread_name" && e.Args.Name == "cpu" {
			cpu[e.Pid] = e.Tid
		}
	}
	var sum [3]float64
	for _, e := range tr.TraceEvents {
		if e.Ph == "X" && e.Pid >= 1 && e.Pid <= 2 && cpu[e.Pid] == e.Tid {
			sum[e.Pid] += e.Dur
		}
	}
	for pid, side := range map[int]string{1: "a", 2: "b"} {
		want := metricCell(t, b, "update_etr_buffer_us", side)
		// The table shows five significant digits.
		assert.InDelta(t, want, sum[pid], want*1e-4, "side %s: cpu slices (us) against the table", side)
	}

	b.do(t, "clicking Download JSON", chromedp.Click(chromedp.ID("download-json")))
	var rep struct {
		SchemaVersion int `json:"schema_version"`
		Params        map[string]any
		References    []any `json:"references"`
		A             struct{ Policy string }
	}
	require.NoError(t, json.Unmarshal(waitFile(t, dir, base+".json"), &rep))
	assert.Equal(t, 2, rep.SchemaVersion, "report schema_version")
	assert.Equal(t, "coherent", rep.A.Policy, "report A policy")
	assert.Equal(t, float64(1<<20), rep.Params["buffer"], "report buffer")
	assert.NotNil(t, rep.References, "report lacks references")

	// "Copy as CSV" hands the table to the clipboard (stubbed here, so
	// the test reads what was copied).
	eval[bool](t, b, `navigator.clipboard.writeText = text => { window.copiedText = text; return Promise.resolve() }, true`)
	b.do(t, "clicking Copy as CSV", chromedp.Click(chromedp.ID("copy-csv")))
	b.waitFor(t, "the copied table", `typeof window.copiedText === "string"`)
	copied := eval[string](t, b, `window.copiedText`)
	assert.True(t, strings.HasPrefix(copied, "metric,unit,A,B,B/A,published,source,kind,verdict\nupdate_etr_buffer_us,us,"), "copied CSV starts %q", copied[:min(len(copied), 120)])

	b.waitFor(t, "the headline chart", `!!document.querySelector("#chart-headline-update_etr_buffer_us img")`)
	// Both sides' published figures are marked (the page is at 1 MiB, so
	// the marker line is not at them: they are the 4 MiB figures).
	marks := eval[int](t, b, `atob(document.querySelector("#chart-headline-update_etr_buffer_us img").src.split(",")[1]).split('data-id="chart/published"').length - 1`)
	assert.Equal(t, 2, marks, "published figures marked on the headline chart")
	assert.Empty(t, b.consoleErrors(), "console errors")
}
