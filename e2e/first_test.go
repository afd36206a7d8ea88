//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gatedSite passes requests to the test's `dmaviz serve`, except that main.wasm is
// held back until open is called (a download that has not finished), and
// /five.html is a documentation page with the five embeds of
// docs/embeds.txt.
type gatedSite struct {
	url       string
	wasmAsked atomic.Int32
	sent      atomic.Int64 // response bytes (headers and bodies, as sent)
	once      sync.Once
	gate      chan struct{}
}

func newGatedSite(t *testing.T) *gatedSite {
	t.Helper()
	g := &gatedSite{gate: make(chan struct{})}
	target, err := url.Parse(siteURL)
	require.NoError(t, err)
	files := httputil.NewSingleHostReverseProxy(target)
	embeds := embedQueries(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/five.html":
			var sb strings.Builder
			sb.WriteString("<!doctype html><title>five embeds</title>\n")
			for _, q := range embeds {
				fmt.Fprintf(&sb, "<iframe src=\"/?%s\" width=\"960\" height=\"600\" style=\"border:0\"></iframe>\n", q)
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			n, _ := w.Write([]byte(sb.String()))
			g.sent.Add(int64(n))
			return
		case strings.HasPrefix(r.URL.Path, "/main.wasm"):
			g.wasmAsked.Add(1)
			select {
			case <-g.gate:
			case <-r.Context().Done():
				return
			}
		}
		files.ServeHTTP(&counted{ResponseWriter: w, n: &g.sent}, r)
	}))
	t.Cleanup(func() { g.open(); srv.Close() })
	g.url = srv.URL + "/"
	return g
}

// counted adds the bytes of a response's body and headers to n.
type counted struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (c *counted) WriteHeader(code int) {
	for k, vs := range c.Header() {
		for _, v := range vs {
			c.n.Add(int64(len(k) + len(v) + 4))
		}
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *counted) Write(p []byte) (int, error) {
	n, err := c.ResponseWriter.Write(p)
	c.n.Add(int64(n))
	return n, err
}

func (g *gatedSite) open() { g.once.Do(func() { close(g.gate) }) }

func embedQueries(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("../docs/embeds.txt")
	require.NoError(t, err)
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	require.Len(t, out, 5, "docs/embeds.txt lists the five embeds the docs use")
	return out
}

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
		pre := eval[string](t, b, `(async () => { const v = dmavizFirst.view; return v ? await (await fetch("first/" + v.file + ".json")).text() : ""; })()`)
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
	b.do(t, "opening five embeds", chromedp.Navigate(g.url+"five.html"))
	b.waitFor(t, "five first views", `[...document.querySelectorAll("iframe")].filter(f => f.contentWindow.dmavizFirst && f.contentWindow.dmavizFirst.shownAt > 0).length === 5`)
	time.Sleep(time.Second) // anything late would show now
	before := g.sent.Load()
	assert.Zero(t, g.wasmAsked.Load(), "an embed fetched main.wasm before a click")
	assert.Less(t, before, int64(1<<20), "bytes transferred before a click")
	t.Logf("five embeds: %d bytes before a click", before)
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector("iframe").contentDocument.getElementById("run-live").click()`))
	require.NoError(t, err)
	b.waitFor(t, "the clicked embed to run live", `document.querySelector("iframe").contentWindow.dmavizFirst.liveAt > 0`)
	assert.Equal(t, int32(1), g.wasmAsked.Load(), "main.wasm fetches after one click")
	t.Logf("five embeds: %d bytes after a click", g.sent.Load())
}
