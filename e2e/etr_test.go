//go:build e2e

package e2e

import (
	"image"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// metricCell reads one cell ("a" or "b") of a metrics row as a number.
func metricCell(t *testing.T, b *browser, metric, side string) float64 {
	t.Helper()
	text := eval[string](t, b, `(document.querySelector('#metrics tr[data-metric="`+metric+`"] td.`+side+`')||{}).textContent || ""`)
	v, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
	require.NoError(t, err, "metric %s side %s shows %q", metric, side, text)
	return v
}

func TestETRScenarioReproducesTheFigureAndShowsTheBug(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=etr")
	b.do(t, "playing to the end", chromedp.Click(chromedp.ID("btn-end")))
	b.waitFor(t, "the end", `document.getElementById("scrub").value === "1000"`)

	a, bv := metricCell(t, b, "update_etr_buffer_us", "a"), metricCell(t, b, "update_etr_buffer_us", "b")
	assert.InEpsilon(t, 8148.32, a, 0.1, "update_etr_buffer_us A; published 8148.32 (±10 %%)")
	assert.InEpsilon(t, 2463.98, bv, 0.1, "update_etr_buffer_us B; published 2463.98 (±10 %%)")
	refs := eval[string](t, b, `document.querySelector('#metrics tr[data-ref="update_etr_buffer_us"] td.ref').textContent`)
	for _, want := range []string{"A 8148.3", "B 2464", "A/B 3.31x"} {
		assert.Contains(t, refs, want, "published figures")
	}
	// The two times are calibrated (juno-r2 parameters are fitted to
	// them): no verdict; the ratio is a prediction within tolerance.
	cal := eval[[]string](t, b, `Array.from(document.querySelectorAll('#metrics tr[data-ref="update_etr_buffer_us"] td.ref .calibrated')).map(e => e.textContent)`)
	assert.Len(t, cal, 2, "calibrated figures in the panel: %q", cal)
	for _, c := range cal {
		assert.Contains(t, c, "calibrated to this figure (fitted: ")
		assert.NotContains(t, c, "✓")
	}
	ok := eval[string](t, b, `Array.from(document.querySelectorAll('#metrics tr[data-ref="update_etr_buffer_us"] td.ref .ok')).map(e => e.textContent).join("|")`)
	assert.Contains(t, ok, "A/B 3.31x", "the ratio, a prediction, within tolerance")
	assert.NotContains(t, ok, "|", "only the ratio is a verdict: %q", ok)
	before := b.screenshot(t)

	// A 1 MiB buffer stays in the caches between sessions, so skipping the
	// sync reads stale trace.
	b.do(t, "choosing the no-sync bug at 1 MiB", chromedp.Navigate(siteURL+"?scenario=etr&buffer=1MiB&b=cached-no-sync"))
	b.waitFor(t, "the new run", `window.dmaviz && dmaviz.stageReadyAt > 0 && document.getElementById("hazards")?.textContent.includes("stale")`)
	b.do(t, "playing to the end", chromedp.Click(chromedp.ID("btn-end")))
	b.waitFor(t, "the end", `document.getElementById("scrub").value === "1000"`)
	hz := eval[string](t, b, `document.getElementById("hazards").textContent`)
	assert.Contains(t, hz, "stale_bytes", "hazards list lacks the stale bytes")
	assert.Contains(t, hz, "0x", "hazards list lacks an address")
	assert.Positive(t, metricCell(t, b, "stale_bytes", "b"), "stale_bytes on B")
	area := stageRect(t, b)
	right := image.Rect(area.Min.X+area.Dx()/2, 60, area.Max.X, 290)
	after := b.screenshot(t)
	assert.GreaterOrEqual(t, countNear(after, right, stale, 20), 50, "stale-coloured pixels on side B's buffer")
	assert.Zero(t, countNear(before, right, stale, 20), "stale-coloured pixels with the correct policy")
}
