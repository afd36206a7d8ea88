//go:build e2e

package e2e

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The panel lists the hardware under the run, each parameter with its
// value and kind and, on hover (its title), where the value comes from;
// choosing another preset lists that preset's.
func TestHardwareListShowsKindsAndSources(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=etr")
	b.waitFor(t, "the hardware list", `!!document.querySelector("#board tr[data-path='dram.latency']")`)
	assert.Contains(t, eval[string](t, b, `document.querySelector("#board summary").textContent`), "Hardware: juno-r2 · 58 parameters")
	row := func(path string) [2]string {
		t.Helper()
		r := eval[[]string](t, b, `(() => { const r = document.querySelector("#board tr[data-path='`+path+`']"); return r ? [r.querySelector(".kind").textContent, r.title] : ["", ""] })()`)
		return [2]string{r[0], r[1]}
	}
	dram := row("dram.latency")
	assert.Equal(t, "fitted", dram[0])
	assert.Contains(t, dram[1], "fitted to etr/update_etr_buffer_us/coherent")
	l2 := row("l2.latency")
	assert.Equal(t, "assumed", l2[0])
	assert.Contains(t, l2[1], "range [12, 21] cycles")
	assert.Equal(t, "measured", row("etr.width")[0], "the scenario's own constants are listed too")

	gen := eval[int](t, b, `dmaviz.runState().gen`)
	setParam(t, b, "preset", "neoverse-n1")
	b.waitFor(t, "the new run", runDone(gen)+` && location.search.includes("preset=neoverse-n1")`)
	b.waitFor(t, "the preset's list", `document.querySelector("#board summary").textContent.includes("neoverse-n1")`)
	dram = row("dram.latency")
	assert.Equal(t, "measured", dram[0])
	assert.Contains(t, dram[1], "AnandTech")
	assert.Empty(t, b.consoleErrors(), "console errors")
}
