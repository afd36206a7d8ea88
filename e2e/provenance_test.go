//go:build e2e

package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/platform"
)

// The Board section lists the hardware under the run, each parameter
// with its value and kind and, on hover (its title), where the value
// comes from; choosing another preset lists that preset's.
func TestHardwareListShowsKindsAndSources(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=etr")
	params, err := platform.Parameters("juno-r2")
	require.NoError(t, err)
	assert.Contains(t, eval[string](t, b, `document.getElementById("board-toggle").textContent`), fmt.Sprintf("Board: juno-r2 · %d parameters", len(params)))
	b.do(t, "opening the Board section", chromedp.Click(chromedp.ID("board-toggle")))
	b.waitFor(t, "the hardware list", `!!document.querySelector(".board-field[data-path='dram.latency']")`)
	row := func(path string) [2]string {
		t.Helper()
		r := eval[[]string](t, b, `(() => { const r = document.querySelector(".board-field[data-path='`+path+`']"); return r ? [r.querySelector(".kind").textContent, r.title] : ["", ""] })()`)
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
	b.waitFor(t, "the preset's list", `document.getElementById("board-toggle").textContent.includes("neoverse-n1")`)
	dram = row("dram.latency")
	assert.Equal(t, "measured", dram[0])
	assert.Contains(t, dram[1], "AnandTech")
	assert.Empty(t, b.consoleErrors(), "console errors")
}

// The error-bar button runs the pair at the assumed parameters' extremes
// in the page, with progress, and lists each figure's band with the
// parameter that dominates it (at 256 KiB the published figures, measured
// at 4 MiB, are not compared); a second run can be canceled, and a change
// of setting hides the bars.
func TestErrorBarsButton(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=etr&buffer=256KiB")
	b.do(t, "clicking Error bars", chromedp.Click(chromedp.ID("btn-uncertainty")))
	b.waitFor(t, "the progress", `!!document.getElementById("uncertainty-progress") || !!document.querySelector("#uncertainty-bands li")`)
	b.waitFor(t, "the bands", `!!document.querySelector("#uncertainty-bands li")`)
	lines := eval[[]string](t, b, `Array.from(document.querySelectorAll("#uncertainty-bands li")).map(l => l.dataset.figure + "|" + l.textContent)`)
	t.Logf("bands: %q", lines)
	require.Len(t, lines, 3, "the published figures' metric on A, B and A/B")
	for i, side := range []string{"A", "B", "A/B"} {
		assert.Regexp(t, `^update_etr_buffer_us `+side+`\|update_etr_buffer_us `+side+`: \S+ in \[\S+, \S+\], most from \S+$`, lines[i])
	}
	assert.Contains(t, eval[string](t, b, `document.getElementById("uncertainty-status").textContent`), "pair runs")
	assert.Equal(t, "Error bars computed", eval[string](t, b, `document.getElementById("btn-uncertainty").textContent`))

	gen := eval[int](t, b, `dmaviz.runState().gen`)
	setParam(t, b, "buffer", "1MiB")
	b.waitFor(t, "the new run", runDone(gen)+` && location.search.includes("buffer=1MiB")`)
	assert.Zero(t, eval[int](t, b, `document.querySelectorAll("#uncertainty-bands li").length`), "another setting's bands are not shown")
	b.do(t, "clicking Error bars", chromedp.Click(chromedp.ID("btn-uncertainty")))
	b.waitFor(t, "the progress", `!!document.getElementById("btn-cancel-uncertainty")`)
	b.do(t, "canceling", chromedp.Click(chromedp.ID("btn-cancel-uncertainty")))
	b.waitFor(t, "the cancel", `document.getElementById("uncertainty-status").textContent.includes("canceled") && !!document.getElementById("btn-uncertainty")`)
	assert.Zero(t, eval[int](t, b, `document.querySelectorAll("#uncertainty-bands li").length`))
	assert.Empty(t, b.consoleErrors(), "console errors")
}
