//go:build e2e

package e2e

import (
	"image"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// metricCell reads one cell ("a" or "b") of a metrics row as a number.
func metricCell(t *testing.T, b *browser, metric, side string) float64 {
	t.Helper()
	text := eval[string](t, b, `(document.querySelector('#metrics tr[data-metric="`+metric+`"] td.`+side+`')||{}).textContent || ""`)
	v, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
	if err != nil {
		t.Fatalf("metric %s side %s shows %q", metric, side, text)
	}
	return v
}

func TestETRScenarioReproducesTheFigureAndShowsTheBug(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=etr")
	b.do(t, "playing to the end", chromedp.Click(chromedp.ID("btn-end")))
	b.waitFor(t, "the end", `document.getElementById("scrub").value === "1000"`)

	a, bv := metricCell(t, b, "update_etr_buffer_us", "a"), metricCell(t, b, "update_etr_buffer_us", "b")
	if a < 8148.32*0.9 || a > 8148.32*1.1 || bv < 2463.98*0.9 || bv > 2463.98*1.1 {
		t.Errorf("update_etr_buffer_us A %.1f, B %.1f; published 8148.32 and 2463.98 (±10 %%)", a, bv)
	}
	refs := eval[string](t, b, `document.querySelector('#metrics tr[data-ref="update_etr_buffer_us"] td.ref').textContent`)
	for _, want := range []string{"A 8148.3", "B 2464", "A/B 3.31x"} {
		if !strings.Contains(refs, want) {
			t.Errorf("published figures %q lack %q", refs, want)
		}
	}
	if n := eval[int](t, b, `document.querySelectorAll('#metrics tr[data-ref="update_etr_buffer_us"] td.ref .ok').length`); n != 3 {
		t.Errorf("%d of 3 published figures are within tolerance in the panel", n)
	}
	before := b.screenshot(t)

	// A 1 MiB buffer stays in the caches between sessions, so skipping the
	// sync reads stale trace.
	b.do(t, "choosing the no-sync bug at 1 MiB", chromedp.Navigate(siteURL+"?scenario=etr&buffer=1MiB&b=cached-no-sync"))
	b.waitFor(t, "the new run", `window.dmaviz && dmaviz.stageReadyAt > 0 && document.getElementById("hazards").textContent.includes("stale")`)
	b.do(t, "playing to the end", chromedp.Click(chromedp.ID("btn-end")))
	b.waitFor(t, "the end", `document.getElementById("scrub").value === "1000"`)
	hz := eval[string](t, b, `document.getElementById("hazards").textContent`)
	if !strings.Contains(hz, "stale_bytes") || !strings.Contains(hz, "0x") {
		t.Errorf("hazards list %q lacks the stale bytes and an address", hz)
	}
	if v := metricCell(t, b, "stale_bytes", "b"); v <= 0 {
		t.Errorf("stale_bytes on B = %v", v)
	}
	area := stageRect(t, b)
	right := image.Rect(area.Min.X+area.Dx()/2, 60, area.Max.X, 290)
	after := b.screenshot(t)
	if n := countNear(after, right, stale, 20); n < 50 {
		t.Errorf("only %d stale-coloured pixels on side B's buffer", n)
	}
	if n := countNear(before, right, stale, 20); n != 0 {
		t.Errorf("%d stale-coloured pixels with the correct policy", n)
	}
}
