//go:build e2e

package e2e

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// publishedValues returns the published figures the metrics table shows
// under metric with the given class (calibrated; for a prediction ok:
// within tolerance, off: outside), in order (A's then B's).
func publishedValues(t *testing.T, b *browser, metric, class string) []float64 {
	t.Helper()
	text := eval[string](t, b, `Array.from(document.querySelectorAll('#metrics tr[data-ref="`+metric+`"] td.ref .`+class+`')).map(e => e.textContent).join("\n")`)
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
// latency beside the published 140 and 50 cycles: 140 calibrated (the
// preset's TBU-TCU link is fitted to it, and the page names it), 50 a
// prediction the model misses (about 38: the snoop that answers the
// NIC's reads), shown as outside its tolerance.
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
	require.Equal(t, []float64{140}, publishedValues(t, b, "bypass_read_latency_cycles", "calibrated"), "the calibrated figure")
	require.Equal(t, []float64{50}, publishedValues(t, b, "bypass_read_latency_cycles", "off"), "the predicted figure, outside it")
	assert.InEpsilon(t, 140, latA, 0.15, "A: bypass latency %.1f cycles, published 140 (±15 %%)", latA)
	assert.Less(t, latB, 50*0.85, "B: the prediction, %.1f cycles", latB)
	note := eval[string](t, b, `Array.from(document.querySelectorAll('#metrics tr[data-ref="bypass_read_latency_cycles"] td.ref .calibrated')).map(e => e.textContent).join("\n")`)
	assert.Equal(t, 1, strings.Count(note, "calibrated to this figure (fitted: smmu.link_cycles)"), "the calibrated figure names its one fitted parameter: %q", note)
	assert.NotContains(t, note, "the fit no longer reproduces it", "the fit reproduces 140")
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
		chooseParam(t, b, "smmu-setup", c.setup)
		hz := eval[string](t, b, `document.getElementById("hazards").textContent`)
		assert.Contains(t, hz, c.want, c.setup)
		assert.Regexp(t, `A at [0-9.]+[nuµm]?s: IOVA 0x4[0-9a-f]+`, hz, "%s: the hazard's time and address", c.setup)
	}
}

// chooseParam picks a value in a parameter's list (a choice or a
// boolean) and waits for the run it starts and for the URL to carry it.
func chooseParam(t *testing.T, b *browser, name, value string) {
	t.Helper()
	gen := eval[int](t, b, `dmaviz.runState().gen`)
	b.change(t, "choosing "+name+"="+value, "param-"+name, value)
	b.waitFor(t, "the new run", runDone(gen)+` && location.search.includes("`+name+`=`+value+`")`)
}

// Mainline's arm-smmu.disable_bypass=1 chosen in the panel: the NIC's
// unmatched StreamID faults, no frame is forwarded on either side, every
// frame is dropped and the hazards list names the USF. Then tbu-tlb: with
// 16 entries the cached bypass costs the engine hits it keeps at 512.
func TestSMMUDisableBypassAndTBUTLBInThePage(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=smmu-bypass&packets=2000&ws=64KiB")
	chooseParam(t, b, "disable-bypass", "true")
	for _, side := range []string{"a", "b"} {
		assert.Equal(t, 0.0, metricCell(t, b, "forward_pps", side), "side %s forwards nothing", side)
		assert.Equal(t, 2000.0, metricCell(t, b, "dropped_packets", side), "side %s drops every frame", side)
	}
	assert.Contains(t, eval[string](t, b, `document.getElementById("hazards").textContent`), "StreamID 0x1c00: sGFSR.USF")

	chooseParam(t, b, "disable-bypass", "false")
	a, on := metricCell(t, b, "translated_hit_rate", "a"), metricCell(t, b, "translated_hit_rate", "b")
	assert.InDelta(t, a, on, 0.5, "512 entries: room for the bypass entry and the engine's 16 pages")
	assert.Greater(t, metricCell(t, b, "forward_pps", "b"), 1e6)
	chooseParam(t, b, "tbu-tlb", "16")
	a, on = metricCell(t, b, "translated_hit_rate", "a"), metricCell(t, b, "translated_hit_rate", "b")
	assert.Less(t, on, a-2, "16 entries: the cached bypass takes a way the engine needs (A %.2f %%, B %.2f %%)", a, on)
}
