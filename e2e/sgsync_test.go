//go:build e2e

package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// change is (B-A)/A in percent for a metric of the table.
func change(t *testing.T, b *browser, metric string) float64 {
	t.Helper()
	a, bv := metricCell(t, b, metric, "a"), metricCell(t, b, metric, "b")
	return (bv - a) / a * 100
}

func TestSGSyncShowsBothReductionsAndFollowsEntrySize(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=sg-sync")
	mapChange, unmapChange := change(t, b, "map_sg_us"), change(t, b, "unmap_sg_us")
	if mapChange < -64.61-3 || mapChange > -64.61+3 || unmapChange < -66.60-3 || unmapChange > -66.60+3 {
		t.Errorf("map_sg %.2f %%, unmap_sg %.2f %%; published -64.61 and -66.60 (±3 points)", mapChange, unmapChange)
	}
	if a, bv := metricCell(t, b, "dsb_count", "a"), metricCell(t, b, "dsb_count", "b"); a != 2560 || bv != 1 {
		t.Errorf("dsb_count A %v B %v, want 2560 and 1", a, bv)
	}
	if a, bv := metricCell(t, b, "dc_ops", "a"), metricCell(t, b, "dc_ops", "b"); a != 163840 || bv != 163840 {
		t.Errorf("dc_ops A %v B %v, want 163840 on both", a, bv)
	}
	for _, m := range []string{"map_sg_us", "unmap_sg_us"} {
		if n := eval[int](t, b, `document.querySelectorAll('#metrics tr[data-ref="`+m+`"] td.ref .ok').length`); n != 1 {
			t.Errorf("%s: published change not shown as within tolerance", m)
		}
	}
	if n := eval[int](t, b, `document.querySelectorAll(".charts figure img").length`); n == 0 {
		t.Errorf("no saving-vs-entry-size chart in the panel")
	}

	// Larger entries mean fewer DSBs to save: the reduction shrinks.
	b.do(t, "setting 64 KiB entries", chromedp.SetValue(chromedp.ID("param-entry"), "64KiB"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("param-entry").dispatchEvent(new Event("change", {bubbles: true}))`))
	b.waitFor(t, "the new run", `location.search.includes("entry=64KiB") && !document.getElementById("run-status").textContent.includes("simulating") && document.querySelector('#metrics tr[data-metric="dsb_count"] td.a').textContent === "160"`)
	big := change(t, b, "map_sg_us")
	if !(big > mapChange+10) {
		t.Errorf("with 64 KiB entries map_sg changes %.2f %%, want a much smaller saving than %.2f %%", big, mapChange)
	}
	if ref := eval[string](t, b, `(document.querySelector('#metrics tr[data-ref="map_sg_us"] td.ref')||{textContent:""}).textContent`); strings.TrimSpace(ref) != "" {
		t.Errorf("published figure %q still shown away from its setting", ref)
	}
}
