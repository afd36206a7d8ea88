//go:build e2e

package e2e

import (
	"image"
	"math"
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
	openReady(t, b, "?scenario=etr&size=paper")
	b.do(t, "playing to the end", chromedp.Click(chromedp.ID("btn-end")))
	b.waitFor(t, "the end", `document.getElementById("scrub").value === "1000"`)

	// The coherent time is calibrated (juno-r2's dram.latency is fitted to
	// it); the merged driver's time and the ratio are predictions, shown
	// within tolerance or not as the model has them.
	a, bv := metricCell(t, b, "update_etr_buffer_us", "a"), metricCell(t, b, "update_etr_buffer_us", "b")
	assert.InEpsilon(t, 8148.32, a, 0.001, "update_etr_buffer_us A; calibrated to 8148.32")
	refs := eval[string](t, b, `document.querySelector('#metrics tr[data-ref="update_etr_buffer_us"] td.ref').textContent`)
	for _, want := range []string{"A 8148.3", "B 2525.4", "A/B 3.31x"} {
		assert.Contains(t, refs, want, "published figures")
	}
	// The coherent time is calibrated: no verdict, it names its fitted
	// parameter.
	cal := eval[[]string](t, b, `Array.from(document.querySelectorAll('#metrics tr[data-ref="update_etr_buffer_us"] td.ref .calibrated')).map(e => e.textContent)`)
	require.Len(t, cal, 1, "calibrated figures in the panel: %q", cal)
	assert.Contains(t, cal[0], "published A 8148.3")
	assert.Contains(t, cal[0], "calibrated to this figure (fitted: dram.latency)")
	assert.NotContains(t, cal[0], "✓")
	within := 0
	for _, p := range [][2]float64{{bv, 2525.42}, {a / bv, 3.31}} {
		if math.Abs(p[0]-p[1]) <= 0.1*p[1] {
			within++
		}
	}
	n := eval[int](t, b, `document.querySelectorAll('#metrics tr[data-ref="update_etr_buffer_us"] td.ref .ok').length`)
	assert.Equal(t, within, n, "predictions within tolerance in the panel (B %.1f us)", bv)
	off := eval[int](t, b, `document.querySelectorAll('#metrics tr[data-ref="update_etr_buffer_us"] td.ref .off').length`)
	assert.Equal(t, 2-within, off, "predictions outside tolerance in the panel (B %.1f us)", bv)
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
