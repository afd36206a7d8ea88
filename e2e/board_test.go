//go:build e2e

package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// setBoard types text into the Board section's field for path and commits
// it.
func setBoard(t *testing.T, b *browser, path, text string) {
	t.Helper()
	b.change(t, "setting hw."+path+"="+text, "hw-"+path, text)
}

// boardField is what the Board section shows for path: the field's text,
// whether it is marked as the user's, and its message.
func boardField(t *testing.T, b *browser, path string) (text string, own bool, msg string) {
	t.Helper()
	r := eval[[]string](t, b, `(f => f ? [document.getElementById("hw-`+path+`").value, String(f.classList.contains("own")), (f.querySelector(".msg")||{}).textContent||""] : ["", "", ""])(document.querySelector('.board-field[data-path="`+path+`"]'))`)
	return r[0], r[1] == "true", r[2]
}

// paused stops the player and waits until two screenshots of the stage
// agree, so that a later difference is the new run's.
func paused(t *testing.T, b *browser) {
	t.Helper()
	if eval[string](t, b, `document.getElementById("btn-play").textContent`) == "Pause" {
		b.do(t, "pausing", chromedp.Click(chromedp.ID("btn-play")))
	}
	b.waitFor(t, "the pause", `document.getElementById("btn-play").textContent === "Play"`)
	b.do(t, "letting frames pass", chromedp.Poll[chromedp.Void](someFrames))
	area := stageRect(t, b)
	require.Zero(t, stageDiff(b.screenshot(t), b.screenshot(t), area), "the paused stage still changes")
}

// The Board section opens from one closed line; an edit of the L2 size
// re-runs, redraws the stage (its L2 window counts the new sets) and puts
// hw.l2.size in the link, an edit of the L2 latency moves the metrics,
// each reset takes its key out of the link again, and a value the board
// refuses is named with what it allows while the page keeps its run.
func TestBoardEditRerunsAndTheLinkCarriesIt(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=etr")
	assert.Contains(t, eval[string](t, b, `document.getElementById("board-toggle").textContent`), "Board: juno-r2 · ")
	assert.Zero(t, eval[int](t, b, `document.querySelectorAll(".board-field").length`), "the section opens closed")
	b.do(t, "opening the Board section", chromedp.Click(chromedp.ID("board-toggle")))
	b.waitFor(t, "the board's fields", `!!document.getElementById("hw-l2.size")`)
	text, own, _ := boardField(t, b, "l2.size")
	assert.Equal(t, "1MiB", text)
	assert.False(t, own)
	assert.Contains(t, eval[string](t, b, `document.querySelector('.board-field[data-path="l2.size"]').title`), "measured: ")
	paused(t, b)
	area := stageRect(t, b)

	// The L2 size: the stage's L2 window now has 2048 sets.
	before := b.screenshot(t)
	gen := eval[int](t, b, `dmaviz.runState().gen`)
	setBoard(t, b, "l2.size", "2MiB")
	b.waitFor(t, "the new run and the link", runDone(gen)+` && location.search.includes("hw.l2.size=2MiB")`)
	b.do(t, "letting frames pass", chromedp.Poll[chromedp.Void](someFrames))
	assert.GreaterOrEqual(t, stageDiff(before, b.screenshot(t), area), 20, "the stage did not change with the L2 size")
	text, own, _ = boardField(t, b, "l2.size")
	assert.Equal(t, "2MiB", text)
	assert.True(t, own, "the user's value is not marked")
	assert.Contains(t, eval[string](t, b, `document.getElementById("board-toggle").textContent`), "1 yours")

	// The L2 latency: the cached copy's time moves.
	metrics := eval[string](t, b, `document.querySelector("#metrics tbody").textContent`)
	gen = eval[int](t, b, `dmaviz.runState().gen`)
	setBoard(t, b, "l2.latency", "60 cycles")
	b.waitFor(t, "the new run and the link", runDone(gen)+` && location.search.includes("hw.l2.latency=60")`)
	b.waitFor(t, "the metrics to change", `document.querySelector("#metrics tbody").textContent !== `+jsString(metrics))

	// Reset one, then all.
	gen = eval[int](t, b, `dmaviz.runState().gen`)
	b.do(t, "resetting the L2 size", chromedp.Evaluate[chromedp.Void](`document.getElementById("hw-reset-l2.size").click()`))
	b.waitFor(t, "the reset's run and link", runDone(gen)+` && !location.search.includes("hw.l2.size") && location.search.includes("hw.l2.latency")`)
	text, own, _ = boardField(t, b, "l2.size")
	assert.Equal(t, "1MiB", text, "the preset's value is back")
	assert.False(t, own)
	b.do(t, "resetting all", chromedp.Click(chromedp.ID("board-reset-all")))
	b.waitFor(t, "a link without the board's keys", `!location.search.includes("hw.")`)

	// A refused value: the field names itself and what it allows; no run.
	gen = eval[int](t, b, `dmaviz.runState().gen`)
	setBoard(t, b, "l2.size", "3MiB")
	b.waitFor(t, "the message", `!!document.querySelector('.board-field[data-path="l2.size"] .msg')`)
	_, _, msg := boardField(t, b, "l2.size")
	assert.Contains(t, msg, "hw.l2.size: ")
	assert.Contains(t, msg, "power of two")
	assert.Equal(t, gen, eval[int](t, b, `dmaviz.runState().gen`), "a refused value started a run")
	assert.NotContains(t, eval[string](t, b, `location.search`), "hw.")
	assert.Positive(t, eval[int](t, b, `document.querySelectorAll("#metrics tbody tr").length`), "the metrics of the running board stay")
	assert.Empty(t, b.consoleErrors(), "console errors")
}

// The headline chart can vary a value of the board: choosing the L2
// latency draws the metric against it, and choosing the scenario's
// parameter again draws the buffer sweep.
func TestHeadlineChartVariesABoardValue(t *testing.T) {
	b := newBrowser(t)
	openReady(t, b, "?scenario=etr")
	img := `document.querySelector("#chart-headline-update_etr_buffer_us img")`
	b.waitFor(t, "the headline chart", `!!`+img+` && `+img+`.alt.includes("against ETR buffer size")`)
	choose := func(v string) {
		b.change(t, "varying "+v, "headline-vary", v)
	}
	choose("l2.latency")
	b.waitFor(t, "the chart against the L2 latency", `!!`+img+` && `+img+`.alt === "update_etr_buffer_us against l2.latency (cycles)"`)
	assert.Contains(t, eval[string](t, b, `atob(`+img+`.src.split(",")[1])`), "l2.latency (cycles)", "the x axis names the board value")
	assert.NotContains(t, eval[string](t, b, `location.search`), "hw.", "varying a value is not an edit of the board")
	choose("")
	b.waitFor(t, "the buffer sweep again", `!!`+img+` && `+img+`.alt.includes("against ETR buffer size")`)
	assert.Empty(t, b.consoleErrors(), "console errors")
}
