//go:build !js

package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dmaviz/dmaviz/cmd/internal/sitesrv"
	"github.com/dmaviz/dmaviz/internal/chrome"
	"github.com/dmaviz/dmaviz/internal/embedpage"
	"github.com/dmaviz/dmaviz/lesson"
)

// budgetEmbedsBytes is the most a page with five embeds may transfer
// before the reader clicks one.
const budgetEmbedsBytes = 1 << 20

// embeds writes what a documentation page with the embeds of embedsFile,
// and one with the DMA lesson's stops embedded as a docs author pastes
// them, transfer before and after the reader clicks "Run live" in the
// first.
func embeds(d *doc, dist, embedsFile string) error {
	queries, err := embedpage.Queries(embedsFile)
	if err != nil {
		return err
	}
	if len(queries) == 0 {
		return fmt.Errorf("%s lists no embeds", embedsFile)
	}
	if err := embedPage(d, dist, "A page with embeds", "`"+embedsFile+"`", queries); err != nil {
		return err
	}
	p, err := lesson.Get("dma")
	if err != nil {
		return err
	}
	var stops []string
	for n := range p.Stops {
		stops = append(stops, fmt.Sprintf("lesson=dma&stop=%d&embed=1", n+1))
	}
	return embedPage(d, dist, "A page with the lesson's stops embedded", "the DMA lesson's stops (`?lesson=dma&stop=N&embed=1`)", stops)
}

// embedPage measures a page embedding queries (named what in the text).
func embedPage(d *doc, dist, title, what string, queries []string) error {
	bin, err := chrome.Find()
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	site, err := sitesrv.Handler(dist)
	if err != nil {
		return err
	}
	c := &embedpage.Counter{Site: site, Queries: queries}
	srv := &http.Server{Handler: c}
	go srv.Serve(ln)
	defer srv.Close()
	url := "http://" + ln.Addr().String() + embedpage.Path

	var before, after int64
	var wasmBefore int32
	err = onFreshPage(bin, url, 120*time.Second, func(ctx context.Context) error {
		all := fmt.Sprintf(`[...document.querySelectorAll("iframe")].filter(f => f.contentWindow.dmavizFirst && f.contentWindow.dmavizFirst.shownAt > 0).length === %d || [...document.querySelectorAll("iframe")].every(f => f.contentDocument.readyState === "complete" && !f.contentWindow.dmavizFirst.view)`, len(queries))
		if err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](all)); err != nil {
			return fmt.Errorf("the embeds' first views: %w", err)
		}
		time.Sleep(time.Second) // anything loading late arrives now
		before, wasmBefore = c.Sent.Load(), c.Wasm.Load()
		click := `document.querySelector("iframe").contentDocument.getElementById("run-live").click()`
		live := `document.querySelector("iframe").contentWindow.dmavizFirst.liveAt > 0`
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](click), chromedp.Poll[chromedp.Void](live)); err != nil {
			return fmt.Errorf("running the first embed live: %w", err)
		}
		after = c.Sent.Load()
		return nil
	})
	if err != nil {
		return err
	}
	d.h2(title)
	d.para("How: a page with the %d iframes of %s (960x600 each, as the embed code gives), served from localhost "+
		"by the site's handler, in a fresh headless Chromium; the bytes the server sent (headers and bodies) once every "+
		"embed shows its first view, then after a click on the first one's \"Run live\" once it has taken over.", len(queries), what)
	d.table([]string{"", "bytes", "main.wasm requests", "budget"}, [][]string{
		{"before a click", fmt.Sprintf("%d (%.2f MiB)", before, mib(before)), fmt.Sprint(wasmBefore), fmt.Sprintf("1 MiB: %s", verdict(before < budgetEmbedsBytes))},
		{"after one click, live", fmt.Sprintf("%d (%.2f MiB)", after, mib(after)), fmt.Sprint(c.Wasm.Load()), ""},
	})
	d.budget(fmt.Sprintf("%s (%d embeds): under 1 MiB before a click", title, len(queries)), fmt.Sprintf("%.2f MiB", mib(before)), before < budgetEmbedsBytes && wasmBefore == 0)
	return nil
}
