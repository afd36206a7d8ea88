//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// publishedValues returns the published figures the metrics table shows
// under metric, in order (A's then B's).
func publishedValues(t *testing.T, b *browser, metric string) []float64 {
	t.Helper()
	text := eval[string](t, b, `Array.from(document.querySelectorAll('#metrics tr[data-ref="`+metric+`"] td.ref .ok')).map(e => e.textContent).join("\n")`)
	var out []float64
	for _, m := range regexp.MustCompile(`published [AB]? ?([0-9.]+)`).FindAllStringSubmatch(text, -1) {
		v, err := strconv.ParseFloat(m[1], 64)
		require.NoError(t, err, "published figure %q", m[0])
		out = append(out, v)
	}
	return out
}

// Opened by URL with the engine's working set inside the TBU TLB's reach
// (1 MiB), then raised to the default 2 MiB in the field: the translated
// stream's hit rate falls further with SMTNMB_TLBEN on (B), whose cached
// bypass takes a TLB entry, than off (A); at the default setting the
// table shows the bypass latency beside the published 140 and 50 cycles.
func TestSMMUBypassFigureAndContention(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=smmu-bypass&ws=1MiB")
	hitA, hitB := metricCell(t, b, "translated_hit_rate", "a"), metricCell(t, b, "translated_hit_rate", "b")

	b.do(t, "raising the working set to 2 MiB", chromedp.SetValue(chromedp.ID("param-ws"), "2MiB"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("param-ws").dispatchEvent(new Event("change", {bubbles: true}))`))
	b.waitFor(t, "the new run", `!location.search.includes("ws=1MiB") && !document.getElementById("run-status").textContent.includes("simulating") && document.querySelectorAll('#metrics tr[data-ref="bypass_read_latency_cycles"]').length === 1`)
	fallA := hitA - metricCell(t, b, "translated_hit_rate", "a")
	fallB := hitB - metricCell(t, b, "translated_hit_rate", "b")
	assert.Positive(t, fallA, "raising ws 1 MiB -> 2 MiB: translated_hit_rate falls %.3f points on A and %.3f on B; want a fall, larger on B", fallA, fallB)
	assert.Greater(t, fallB, fallA, "raising ws 1 MiB -> 2 MiB: translated_hit_rate falls %.3f points on A and %.3f on B; want a fall, larger on B", fallA, fallB)

	latA, latB := metricCell(t, b, "bypass_read_latency_cycles", "a"), metricCell(t, b, "bypass_read_latency_cycles", "b")
	pub := publishedValues(t, b, "bypass_read_latency_cycles")
	require.Equal(t, []float64{140, 50}, pub, "published bypass latency shown (within tolerance)")
	for i, got := range []float64{latA, latB} {
		assert.InEpsilon(t, pub[i], got, 0.15, "side %d: bypass latency %.1f cycles, published %.0f (±15 %%)", i, got, pub[i])
	}
}

// TestSMMUScreens saves the page as a user first sees it (no cursor moved)
// at the three sizes it is shown at; only with DMAVIZ_SCREENSHOTS set.
func TestSMMUScreens(t *testing.T) {
	dir := os.Getenv("DMAVIZ_SCREENSHOTS")
	if dir == "" {
		t.Skip("DMAVIZ_SCREENSHOTS not set")
	}
	for _, c := range []struct {
		name, query string
		w, h        int64
	}{{"1440x900", "", 1440, 900}, {"1024x768", "", 1024, 768}, {"embed-960x600", "&embed=1", 960, 600}} {
		b := newBrowser(t)
		b.do(t, "sizing", chromedp.EmulateViewport(c.w, c.h))
		b.do(t, "opening the page", chromedp.Navigate(siteURL+"?scenario=smmu-bypass"+c.query))
		b.waitFor(t, "stage and results", `window.dmaviz && dmaviz.stageReadyAt > 0 && dmaviz.resultsReadyAt > 0`)
		shoot(t, b, filepath.Join(dir, "smmu-"+c.name+".png"))
		// Then after a policy change, the cursor where the new run leaves
		// it (the embed has no panel: its policy changes with its URL).
		if c.query != "" {
			b.do(t, "opening the embed with B changed", chromedp.Navigate(siteURL+"?scenario=smmu-bypass&b=smtnmb-tlben-off"+c.query))
			b.waitFor(t, "stage and results", `window.dmaviz && dmaviz.stageReadyAt > 0 && dmaviz.resultsReadyAt > 0`)
		} else {
			gen := eval[int](t, b, `dmaviz.runState().gen`)
			b.do(t, "choosing SMTNMB_TLBEN off for B", chromedp.SetValue(chromedp.ID("policy-b"), "smtnmb-tlben-off"),
				chromedp.Evaluate[chromedp.Void](`document.getElementById("policy-b").dispatchEvent(new Event("change", {bubbles: true}))`))
			b.waitFor(t, "the new run", runDone(gen))
		}
		time.Sleep(300 * time.Millisecond) // the stage draws the new results on its next frames
		shoot(t, b, filepath.Join(dir, "smmu-"+c.name+"-policy.png"))
	}
}

func shoot(t *testing.T, b *browser, path string) {
	t.Helper()
	buf, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, buf, 0o644))
}
