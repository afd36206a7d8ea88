//go:build e2e

package e2e

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// change is (B-A)/A in percent for a metric of the table.
func change(t *testing.T, b *browser, metric string) float64 {
	t.Helper()
	a, bv := metricCell(t, b, metric, "a"), metricCell(t, b, metric, "b")
	return (bv - a) / a * 100
}

func TestSGSyncShowsBothReductionsAndFollowsEntrySize(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=sg-sync&size=paper")
	mapChange, unmapChange := change(t, b, "map_sg_us"), change(t, b, "unmap_sg_us")
	assert.InDelta(t, -64.61, mapChange, 3, "map_sg change in %%; published -64.61 (±3 points)")
	assert.InDelta(t, -66.60, unmapChange, 3, "unmap_sg change in %%; published -66.60 (±3 points)")
	assert.Equal(t, [2]float64{2560, 1}, [2]float64{metricCell(t, b, "dsb_count", "a"), metricCell(t, b, "dsb_count", "b")}, "dsb_count A, B")
	assert.Equal(t, [2]float64{163840, 163840}, [2]float64{metricCell(t, b, "dc_ops", "a"), metricCell(t, b, "dc_ops", "b")}, "dc_ops A, B")
	// map_sg's reduction is calibrated (dimensity-9500's maint.dsb is
	// fitted to it), unmap_sg's a prediction with its verdict.
	c := eval[string](t, b, `Array.from(document.querySelectorAll('#metrics tr[data-ref="map_sg_us"] td.ref .calibrated')).map(e => e.textContent).join("|")`)
	assert.Contains(t, c, "calibrated to this figure (fitted: maint.dsb)", "map_sg_us: published change not shown as calibrated")
	u := eval[string](t, b, `Array.from(document.querySelectorAll('#metrics tr[data-ref="unmap_sg_us"] td.ref .ok, #metrics tr[data-ref="unmap_sg_us"] td.ref .off')).map(e => e.textContent).join("|")`)
	assert.Regexp(t, `tolerance$`, u, "unmap_sg_us: a prediction with its verdict")
	assert.NotZero(t, eval[int](t, b, `document.querySelectorAll(".charts figure img").length`), "no saving-vs-entry-size chart in the panel")

	// Larger entries mean fewer DSBs to save: the reduction shrinks.
	b.change(t, "setting 64 KiB entries", "param-entry", "64KiB")
	b.waitFor(t, "the new run", `location.search.includes("entry=64KiB") && !document.getElementById("run-status").textContent.includes("simulating") && document.querySelector('#metrics tr[data-metric="dsb_count"] td.a').textContent === "160"`)
	big := change(t, b, "map_sg_us")
	assert.Greater(t, big, mapChange+10, "with 64 KiB entries map_sg's change (%%) should be a much smaller saving than %.2f %%", mapChange)
	ref := eval[string](t, b, `(document.querySelector('#metrics tr[data-ref="map_sg_us"] td.ref')||{textContent:""}).textContent`)
	assert.Empty(t, strings.TrimSpace(ref), "published figure still shown away from its setting")
}
