//go:build e2e

package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/internal/embedpage"
)

// gatedSite passes requests to the test's `dmaviz serve`, counting what
// it sends, except that main.wasm is held back until open is called (a
// download that has not finished); it serves a documentation page with
// the five embeds of docs/embeds.txt at embedpage.Path.
type gatedSite struct {
	url  string
	once sync.Once
	gate chan struct{}
	*embedpage.Counter
}

func newGatedSite(t *testing.T) *gatedSite {
	t.Helper()
	queries, err := embedpage.Queries("../docs/embeds.txt")
	require.NoError(t, err)
	require.Len(t, queries, 5, "docs/embeds.txt lists the five embeds the docs use")
	return newGatedSiteOf(t, queries)
}

// newGatedSiteOf is newGatedSite with the documentation page embedding
// queries.
func newGatedSiteOf(t *testing.T, queries []string) *gatedSite {
	t.Helper()
	target, err := url.Parse(siteURL)
	require.NoError(t, err)
	g := &gatedSite{gate: make(chan struct{})}
	g.Counter = &embedpage.Counter{Site: httputil.NewSingleHostReverseProxy(target), Queries: queries,
		Hold: func(r *http.Request) {
			select {
			case <-g.gate:
			case <-r.Context().Done():
			}
		}}
	srv := httptest.NewServer(g.Counter)
	t.Cleanup(func() { g.open(); srv.Close() })
	g.url = srv.URL + "/"
	return g
}

func (g *gatedSite) open() { g.once.Do(func() { close(g.gate) }) }

// panelBoxes returns the box (x,y,w,h) of every element of the
// pre-rendered panel that has an id ("first-" + the live id), by live id;
// with live set, the boxes of the live elements of those ids. The ids are
// read once, while the pre-rendered panel is on the page.
func panelBoxes(live bool) string {
	prefix := `"first-" + `
	if live {
		prefix = ""
	}
	return `(() => {
  const ids = window.__firstIds || (window.__firstIds = [...document.querySelectorAll('#fv-panel [id^="first-"]')].map(e => e.id.slice(6)));
  const out = {};
  for (const id of ids) {
    const e = document.getElementById(` + prefix + `id);
    if (!e) { out[id] = "missing"; continue; }
    const r = e.getBoundingClientRect();
    out[id] = [r.x, r.y, r.width, r.height].map(Math.round).join(",");
  }
  return out;
})()`
}

// The first view shows the pre-rendered stage and results before
// main.wasm has arrived, and the live simulator takes over without a jump:
// the same numbers, the panel's boxes where they were.
func TestFirstViewBeforeWasmAndNoJump(t *testing.T) {
	g := newGatedSite(t)
	b := newBrowser(t)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(1440, 900)))
	b.do(t, "opening the page", chromedp.Navigate(g.url))
	b.waitFor(t, "the first view", `dmavizFirst.shownAt > 0 && document.querySelectorAll("#fv-panel #first-metrics tbody tr").length > 0`)
	require.Equal(t, 0.0, eval[float64](t, b, `dmaviz.wasmReadyAt`), "main.wasm was compiled before the first view: the test's gate did not hold it")
	assert.Equal(t, 1, eval[int](t, b, `performance.getEntriesByName("dmaviz:first-view").length`), "the first-view mark")
	assert.True(t, eval[bool](t, b, `(() => { const i = document.querySelector("#fv-stage img"); return i.complete && i.naturalWidth > 0; })()`), "the pre-rendered stage is not drawn")
	shot := b.screenshot(t)
	stage := stageRect(t, b)
	drawn := stage.Dx()*stage.Dy() - countNear(shot, stage, background, 6)
	assert.GreaterOrEqual(t, drawn, stage.Dx()*stage.Dy()/10, "pre-rendered stage pixels that differ from the background")
	metricsBefore := eval[string](t, b, `document.getElementById("first-metrics").innerText`)
	boxesBefore := eval[map[string]string](t, b, panelBoxes(false))
	require.NotEmpty(t, boxesBefore)

	g.open()
	b.waitFor(t, "the live simulator", `dmavizFirst.liveAt > 0`)
	assert.Equal(t, 1, eval[int](t, b, `performance.getEntriesByName("dmaviz:live").length`), "the live mark")
	assert.Equal(t, metricsBefore, eval[string](t, b, `document.getElementById("metrics").innerText`), "the metrics changed when the live simulator took over")
	boxesAfter := eval[map[string]string](t, b, panelBoxes(true))
	for id, before := range boxesBefore {
		if id == "hover" || id == "cursor-text" { // text that follows the pointer and the clock
			continue
		}
		assert.Equal(t, before, boxesAfter[id], "#%s moved or resized when the live simulator took over (x,y,w,h)", id)
	}
	assert.Zero(t, eval[int](t, b, `document.querySelectorAll("#fv-stage, #fv-panel").length`), "the pre-rendered view is still on the page")
	assert.Empty(t, b.consoleErrors(), "console errors")
}

// Every scenario's pre-rendered results are the live run's, byte for byte.
func TestFirstViewResultsEqualLive(t *testing.T) {
	b := newBrowser(t)
	b.do(t, "opening the page", chromedp.Navigate(siteURL))
	scenarios := eval[[]string](t, b, `Object.keys(JSON.parse(document.getElementById("first-views").textContent).titles)`)
	require.NotEmpty(t, scenarios)
	for _, id := range scenarios {
		b.do(t, "opening "+id, chromedp.Navigate(siteURL+"?scenario="+id))
		b.waitFor(t, id+"'s live results", `window.dmaviz && dmaviz.resultsReadyAt > 0 && dmaviz.resultsData()`)
		ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
		pre, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(async () => { const v = dmavizFirst.view; return v ? await (await fetch("first/" + v.file + ".json")).text() : ""; })()`, chromedp.EvalAwaitPromise))
		cancel()
		require.NoError(t, err, "%s: reading the pre-rendered results", id)
		require.NotEmpty(t, pre, "%s has no pre-rendered view", id)
		assert.Equal(t, pre, eval[string](t, b, `dmaviz.resultsData()`), "%s: the pre-rendered results differ from the live run's", id)
	}
}

// A page with five embeds fetches no main.wasm and transfers under 1 MB
// until the reader clicks "Run live" in one; then that one loads it.
func TestFiveEmbedsLoadNothingUntilClicked(t *testing.T) {
	g := newGatedSite(t)
	g.open()
	b := newBrowser(t)
	b.do(t, "opening five embeds", chromedp.Navigate(g.url+strings.TrimPrefix(embedpage.Path, "/")))
	b.waitFor(t, "five first views", `[...document.querySelectorAll("iframe")].filter(f => f.contentWindow.dmavizFirst && f.contentWindow.dmavizFirst.shownAt > 0).length === 5`)
	time.Sleep(time.Second) // anything late would show now
	before := g.Sent.Load()
	assert.Zero(t, g.Wasm.Load(), "an embed fetched main.wasm before a click")
	assert.Less(t, before, int64(1<<20), "bytes transferred before a click")
	t.Logf("five embeds: %d bytes before a click", before)
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector("iframe").contentDocument.getElementById("run-live").click()`))
	require.NoError(t, err)
	b.waitFor(t, "the clicked embed to run live", `document.querySelector("iframe").contentWindow.dmavizFirst.liveAt > 0`)
	assert.Equal(t, int32(1), g.Wasm.Load(), "main.wasm fetches after one click")
	t.Logf("five embeds: %d bytes after a click", g.Sent.Load())
}

// An embed shows its pre-rendered figure when its URL has one and the
// scenario's title otherwise, with a "Run live" button, and loads nothing
// of the simulator until the click.
func TestEmbedShowsFigureOrTitleUntilRunLive(t *testing.T) {
	g := newGatedSite(t)
	g.open()
	b := newBrowser(t)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(960, 600)))
	b.do(t, "opening an embed", chromedp.Navigate(g.url+"?scenario=etr&embed=1"))
	b.waitFor(t, "its figure", `dmavizFirst.shownAt > 0`)
	assert.True(t, eval[bool](t, b, `(() => { const i = document.querySelector("#fv-stage img"); return i.complete && i.naturalWidth > 0; })()`), "the embed's figure is not drawn")
	assert.True(t, eval[bool](t, b, `!!document.getElementById("run-live")`), "no Run live button")
	b.screenshot(t)

	b.do(t, "opening an embed with no figure", chromedp.Navigate(g.url+"?scenario=etr&buffer=1MiB&embed=1"))
	b.waitFor(t, "its placeholder", `document.querySelector(".first-placeholder .first-title")`)
	title := eval[string](t, b, `JSON.parse(document.getElementById("first-views").textContent).titles.etr`)
	assert.Equal(t, title, eval[string](t, b, `document.querySelector(".first-placeholder .first-title").textContent`), "the placeholder names the scenario")
	time.Sleep(500 * time.Millisecond)
	assert.Zero(t, g.Wasm.Load(), "an embed fetched main.wasm before a click")

	b.do(t, "clicking Run live", chromedp.Click(chromedp.ID("run-live")))
	b.waitFor(t, "the live simulator", `dmavizFirst.liveAt > 0 && dmaviz.resultsReadyAt > 0`)
	assert.Equal(t, int32(1), g.Wasm.Load(), "main.wasm requests after the click")
	assert.Zero(t, eval[int](t, b, `document.querySelectorAll("#fv-stage, #fv-bar").length`), "the placeholder is still on the page")
}
