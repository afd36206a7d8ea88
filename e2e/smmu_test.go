//go:build e2e

package e2e

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// publishedValues returns the published figures the metrics table shows
// under metric, in order (A's then B's).
func publishedValues(t *testing.T, b *browser, metric string) []float64 {
	t.Helper()
	text := eval[string](t, b, `Array.from(document.querySelectorAll('#metrics tr[data-ref="`+metric+`"] td.ref .ok, #metrics tr[data-ref="`+metric+`"] td.ref .calibrated')).map(e => e.textContent).join("\n")`)
	var out []float64
	for _, m := range regexp.MustCompile(`published [AB]? ?([0-9.]+)`).FindAllStringSubmatch(text, -1) {
		v, err := strconv.ParseFloat(m[1], 64)
		require.NoError(t, err, "published figure %q", m[0])
		out = append(out, v)
	}
	return out
}

// Opened by URL with 5000 packets and the engine's working set at the
// default 2 MiB (inside the TBU TLB's reach), then raised to 8 MiB in the
// field (past it), as the model's TestContentionGrowsWithWorkingSet does:
// the translated stream's hit rate falls on both sides and ends lower
// with SMTNMB_TLBEN on (B), whose cached bypass takes a TLB entry, than
// off (A). Then, at the default setting, the table shows the bypass
// latency beside the published 140 and 50 cycles and says they are
// calibrated.
func TestSMMUBypassFigureAndContention(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=smmu-bypass&packets=5000")
	hitA, hitB := metricCell(t, b, "translated_hit_rate", "a"), metricCell(t, b, "translated_hit_rate", "b")

	gen := eval[int](t, b, `dmaviz.runState().gen`)
	setParam(t, b, "ws", "8MiB")
	b.waitFor(t, "the new run", runDone(gen)+` && location.search.includes("ws=8MiB")`)
	bigA, bigB := metricCell(t, b, "translated_hit_rate", "a"), metricCell(t, b, "translated_hit_rate", "b")
	msg := "raising ws 2 MiB -> 8 MiB: translated_hit_rate A %.3f -> %.3f, B %.3f -> %.3f; want a fall on both (past the TLB's reach), ending lower on B"
	assert.Less(t, bigA, hitA-10, msg, hitA, bigA, hitB, bigB)
	assert.Less(t, bigB, hitB-10, msg, hitA, bigA, hitB, bigB)
	assert.Less(t, bigB, bigA, msg, hitA, bigA, hitB, bigB)

	openReady(t, b, "?scenario=smmu-bypass&size=paper")
	latA, latB := metricCell(t, b, "bypass_read_latency_cycles", "a"), metricCell(t, b, "bypass_read_latency_cycles", "b")
	pub := publishedValues(t, b, "bypass_read_latency_cycles")
	require.Equal(t, []float64{140, 50}, pub, "published bypass latency shown (within tolerance)")
	for i, got := range []float64{latA, latB} {
		assert.InEpsilon(t, pub[i], got, 0.15, "side %d: bypass latency %.1f cycles, published %.0f (±15 %%)", i, got, pub[i])
	}
	note := eval[string](t, b, `Array.from(document.querySelectorAll('#metrics tr[data-ref="bypass_read_latency_cycles"] td.ref .calibrated')).map(e => e.textContent).join("\n")`)
	assert.Equal(t, 2, strings.Count(note, "calibrated to this figure (fitted: smmu."), "the published figures say they are fitted: %q", note)
}

// Each fault the SMMU programming can cause is chosen in the field and
// shows in the hazards list with its time, StreamID and address.
func TestSMMUFaultsInHazards(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=smmu-bypass&packets=2000")
	for _, c := range []struct{ setup, want string }{
		{"conflicting-smrs", "StreamID 0x20: sGFSR.SMCF (stream match conflict)"},
		{"engine-outside-mapping", "StreamID 0x20: FSR.TF (translation fault) in context bank 0 (level 3)"},
		{"clientpd", "StreamID 0x20: sCR0.CLIENTPD=1"},
	} {
		gen := eval[int](t, b, `dmaviz.runState().gen`)
		b.do(t, "choosing "+c.setup, chromedp.SetValue(chromedp.ID("param-smmu-setup"), c.setup),
			chromedp.Evaluate[chromedp.Void](`document.getElementById("param-smmu-setup").dispatchEvent(new Event("change", {bubbles: true}))`))
		b.waitFor(t, "the new run", runDone(gen)+` && location.search.includes("smmu-setup=`+c.setup+`")`)
		hz := eval[string](t, b, `document.getElementById("hazards").textContent`)
		assert.Contains(t, hz, c.want, c.setup)
		assert.Regexp(t, `A at [0-9.]+[nuµm]?s: IOVA 0x4[0-9a-f]+`, hz, "%s: the hazard's time and address", c.setup)
	}
}
