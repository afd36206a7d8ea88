//go:build !js

// Command screens saves screenshots of the built page, each taken in a fresh
// headless Chromium with the flags the browser tests use (internal/chrome):
// the README's picture (etr at 1440x900 while playing), the SMMU
// scenario as a reader first sees it at the three sizes it is shown at,
// then after B's policy changes, and etr and trbe-aux in presentation
// mode at 1280x720 and embedded at 960x600; and the DMA lesson's stops at
// their lesson size with its card (make the lesson's with -out docs/screens
// -only the lesson-* names).
//
//	make site && go run ./cmd/screens [-dist dist] [-out docs] [-only screenshot,smmu-1024x768]
//
// Each shot is written to OUT/NAME.png; -list prints the names.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dmaviz/dmaviz/cmd/internal/sitesrv"
	"github.com/dmaviz/dmaviz/internal/chrome"
	"github.com/dmaviz/dmaviz/lesson"
)

// shot is one screenshot: the page at query in a w x h viewport, then
// optionally a policy chosen in the panel or playback for a while.
type shot struct {
	name  string
	w, h  int64
	query string
	// policyB, if set, is chosen for B in the panel after the first
	// results; the capture waits for its run.
	policyB string
	// play, if set, plays after the first results (pressing play unless
	// the page plays already) and captures this long after.
	play time.Duration
	// script, if set, runs after the first results (opening a section of
	// the panel), then, after the panel's render, then.
	script, then string
}

var shots = append([]shot{
	{name: "screenshot", w: 1440, h: 900, query: "?scenario=etr&t=3.5ms", play: time.Second},
	{name: "smmu-1440x900", w: 1440, h: 900, query: "?scenario=smmu-bypass"},
	// After a policy change: the scenario has two policies, so the page
	// opens with A on (both sides alike) and B then changes to off, which
	// leaves the sides different and the pair unlike the default's.
	{name: "smmu-1440x900-policy", w: 1440, h: 900, query: "?scenario=smmu-bypass&a=" + smmuOn, policyB: smmuOff},
	{name: "smmu-1024x768", w: 1024, h: 768, query: "?scenario=smmu-bypass"},
	{name: "smmu-1024x768-policy", w: 1024, h: 768, query: "?scenario=smmu-bypass&a=" + smmuOn, policyB: smmuOff},
	{name: "smmu-embed-960x600", w: 960, h: 600, query: "?scenario=smmu-bypass&embed=1&autoplay=1"},
	// The embed has no panel: its policies change with its URL.
	{name: "smmu-embed-960x600-policy", w: 960, h: 600, query: "?scenario=smmu-bypass&a=" + smmuOn + "&b=" + smmuOff + "&embed=1&autoplay=1"},
	// From the back of a room and embedded: presentation mode on a 720p
	// projector while playing, and the 960x600 embed, of a buffer scenario
	// (rings, pointers, caches) and a translation one (the page map).
	{name: "etr-present-1280x720", w: 1280, h: 720, query: "?scenario=etr&panel=collapsed", play: 1500 * time.Millisecond},
	{name: "trbe-aux-present-1280x720", w: 1280, h: 720, query: "?scenario=trbe-aux&panel=collapsed", play: 1500 * time.Millisecond},
	{name: "etr-embed-960x600", w: 960, h: 600, query: "?scenario=etr&embed=1&autoplay=1"},
	{name: "trbe-aux-embed-960x600", w: 960, h: 600, query: "?scenario=trbe-aux&embed=1&autoplay=1"},
	{name: "etr-1024x768", w: 1024, h: 768, query: "?scenario=etr", play: 1500 * time.Millisecond},
	// The page map of order-0 pages at the lesson size: VA bins and the
	// frames in their colours, on the page, embedded and projected.
	{name: "vmap-lesson-1440x900", w: 1440, h: 900, query: "?scenario=vmap&size=lesson&t=30us"},
	{name: "spe-aux-lesson-1440x900", w: 1440, h: 900, query: "?scenario=spe-aux&size=lesson&t=100us"},
	{name: "trbe-aux-lesson-embed-960x600", w: 960, h: 600, query: "?scenario=trbe-aux&size=lesson&t=100us&embed=1&autoplay=1"},
	{name: "trbe-aux-lesson-present-1280x720", w: 1280, h: 720, query: "?scenario=trbe-aux&size=lesson&t=100us&panel=collapsed"},
	// The Board section open at the L2, with a value of the user's.
	{name: "board-1440x900", w: 1440, h: 900, query: "?scenario=etr&hw.l2.size=2MiB",
		script: `document.getElementById("board-toggle").click()`, then: `document.querySelector('[data-group="l2"]').scrollIntoView()`},
}, lessonShots()...)

// smmu-bypass's two policies.
const smmuOff, smmuOn = "smtnmb-tlben-off", "smtnmb-tlben-on"

// lessonMoments is where each lesson stop's shot starts playing: while
// its mechanism is on the stage (the stale copies and B's invalidates,
// A's waits per entry, the walks, the TBU's hits).
var lessonMoments = map[string]string{
	"demo": "800ns", "etr": "9us", "sg-sync": "2.3us", "trbe-aux": "100us", "smmu-bypass": "14us",
}

// lessonShots are the DMA lesson's stops, each scenario at its lesson
// size with the stop's pair at 1440x900 while playing, then the lesson
// card itself: a stop's question in presentation mode on a 720p
// projector, and an answer in the page.
func lessonShots() []shot {
	p, err := lesson.Get("dma")
	if err != nil {
		return nil
	}
	var out []shot
	for _, st := range p.Stops {
		q := url.Values(st.Query())
		out = append(out, shot{name: "lesson-" + st.Scenario, w: 1440, h: 900,
			query: "?scenario=" + st.Scenario + "&a=" + q.Get("a") + "&b=" + q.Get("b") + "&size=lesson&t=" + lessonMoments[st.Scenario], play: 500 * time.Millisecond})
	}
	return append(out,
		shot{name: "lesson-card-present-1280x720", w: 1280, h: 720, query: "?lesson=dma&stop=2&panel=collapsed"},
		shot{name: "lesson-card-answer-1440x900", w: 1440, h: 900, query: "?lesson=dma&stop=3", script: `document.getElementById("lesson-reveal").click()`, then: "void 0", play: 3 * time.Second},
		shot{name: "lesson-card-embed-960x600", w: 960, h: 600, query: "?lesson=dma&stop=4&embed=1&autoplay=1"})
}

func main() {
	dist := flag.String("dist", "dist", "built site (make site)")
	out := flag.String("out", "docs", "directory to write NAME.png into")
	only := flag.String("only", "", "comma-separated shot names (default: all; -list prints them)")
	list := flag.Bool("list", false, "print the shot names and exit")
	flag.Parse()
	if *list {
		for _, s := range shots {
			fmt.Printf("%-26s %dx%d %s\n", s.name, s.w, s.h, s.query)
		}
		return
	}
	todo, err := pick(*only)
	if err == nil {
		err = run(*dist, *out, todo)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "screens:", err)
		os.Exit(1)
	}
}

// pick returns the shots named in the comma-separated list, or all of them.
func pick(only string) ([]shot, error) {
	if only == "" {
		return shots, nil
	}
	var out []shot
	for _, name := range strings.Split(only, ",") {
		found := false
		for _, s := range shots {
			if s.name == strings.TrimSpace(name) {
				out, found = append(out, s), true
			}
		}
		if !found {
			return nil, fmt.Errorf("-only: no shot named %q (-list prints them)", name)
		}
	}
	return out, nil
}

func run(dist, out string, todo []shot) error {
	bin, err := chrome.Find()
	if err != nil {
		return err
	}
	site, stop, err := sitesrv.Start(dist)
	if err != nil {
		return err
	}
	defer stop()
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, s := range todo {
		path := filepath.Join(out, s.name+".png")
		if err := take(bin, site, s, path); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		fmt.Println("wrote", path)
	}
	return nil
}

// ready is true once the stage has drawn and the first results show, and
// the live page has taken over from a pre-rendered first view.
const ready = `window.dmaviz && dmaviz.stageReadyAt > 0 && dmaviz.resultsReadyAt > 0 && (!dmavizFirst.view || dmavizFirst.liveAt > 0)`

// take opens the shot's page in a fresh browser, does what it asks and
// writes the capture to path.
func take(bin, site string, s shot, path string) error {
	ctx, stop, err := chrome.Fresh(bin, s.w, s.h)
	if err != nil {
		return err
	}
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(site+s.query)); err != nil {
		return err
	}
	if err := waitFor(ctx, ready); err != nil {
		return fmt.Errorf("waiting for the stage and results: %w", err)
	}
	if s.policyB != "" {
		gen, err := chromedp.Run(ctx, chromedp.Evaluate[int](`dmaviz.runState().gen`))
		if err != nil {
			return err
		}
		if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("policy-b"), s.policyB),
			chromedp.Evaluate[chromedp.Void](`document.getElementById("policy-b").dispatchEvent(new Event("change", {bubbles: true}))`)); err != nil {
			return fmt.Errorf("choosing %s for B: %w", s.policyB, err)
		}
		if err := waitFor(ctx, fmt.Sprintf(`dmaviz.runState().gen > %d && !dmaviz.runState().running`, gen)); err != nil {
			return fmt.Errorf("waiting for B's run: %w", err)
		}
		// The shot must show the change: B's new policy in the panel and
		// the link, and A's a different one.
		changed := fmt.Sprintf(`document.getElementById("policy-b").value === %q && new URLSearchParams(location.search).get("b") === %[1]q && document.getElementById("policy-a").value !== %[1]q`, s.policyB)
		if err := waitFor(ctx, changed); err != nil {
			return fmt.Errorf("B shows %s beside a different A: %w", s.policyB, err)
		}
	}
	if s.script != "" {
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](s.script)); err != nil {
			return fmt.Errorf("running the shot's script: %w", err)
		}
		time.Sleep(500 * time.Millisecond)
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](s.then)); err != nil {
			return fmt.Errorf("running the shot's script: %w", err)
		}
	}
	if s.play > 0 {
		// A script's click: chromedp.Click would scroll the panel to the
		// button. A page whose URL names no time plays already.
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`(b => { if (b.textContent === "Play") b.click(); })(document.getElementById("btn-play"))`)); err != nil {
			return fmt.Errorf("pressing play: %w", err)
		}
		time.Sleep(s.play)
	} else {
		time.Sleep(300 * time.Millisecond) // the stage draws the latest results on its next frames
	}
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		return err
	}
	return os.WriteFile(path, buf, 0o644)
}

// waitFor polls a JavaScript predicate until it is truthy; an element it
// reads that does not exist yet counts as not yet.
func waitFor(ctx context.Context, predicate string) error {
	safe := "(() => { try { return !!(" + predicate + "); } catch (e) { return false; } })()"
	_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](safe, chromedp.WithPollingTimeout(90*time.Second)))
	return err
}
