//go:build e2e

package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sceneSummary is dmaviz.sceneSummary(): the last frame's smallest text
// and its item count per id.
type sceneSummary struct {
	LeastText  float64        `json:"leastText"`
	LeastID    string         `json:"leastID"`
	LeastWords string         `json:"leastWords"`
	IDs        map[string]int `json:"ids"`
	// Cut lists the texts cut with an ellipsis, "id: words".
	Cut []string `json:"cut"`
	// NarrationTop is the top of the narration's highest line, -1 for none.
	NarrationTop float64 `json:"narrationTop"`
	// TextTop is the top of the highest text, -1 for none.
	TextTop float64 `json:"textTop"`
}

func summary(t *testing.T, b *browser) sceneSummary {
	t.Helper()
	return eval[sceneSummary](t, b, `dmaviz.sceneSummary()`)
}

// someFrames waits for six animation frames (the stage draws its newest
// state within them).
const someFrames = `new Promise(r => { let n = 0; const f = () => ++n >= 6 ? r(true) : requestAnimationFrame(f); requestAnimationFrame(f) })`

// Presentation mode on a 720p projector: no text of the stage the page
// draws is under 18 px, read from the scene's own text items, at the
// start and while it plays (etr: rings, pointers, caches; trbe-aux: the
// page map, TLBs and walk rows, 11 px before); etr keeps its buffer grids
// beside the ring dials (the grids gave way to the dials before), and no
// narration line or caption is cut with an ellipsis (etr's first step
// ended "(the previous session read…").
func TestPresentationStageTextIsAtLeast18px(t *testing.T) {
	b := newBrowser(t)
	b.do(t, "sizing the window", chromedp.EmulateViewport(1280, 720))
	for _, id := range []string{"etr", "trbe-aux"} {
		b.do(t, "opening presentation mode", chromedp.Navigate(siteURL+"?scenario="+id+"&panel=collapsed"))
		b.waitFor(t, "stage and results", `window.dmaviz && dmaviz.stageReadyAt > 0 && dmaviz.resultsReadyAt > 0 && dmaviz.frames > 1`)
		b.do(t, "letting frames pass", chromedp.Poll[chromedp.Void](someFrames))
		saveShot(t, b, id+"-present-1280x720")
		s := summary(t, b)
		require.NotEmpty(t, s.IDs["a/narration"], "%s: no narration on the stage", id)
		assert.GreaterOrEqual(t, s.LeastText, 17.99, "%s at the start: %s %q", id, s.LeastID, s.LeastWords)
		assert.Empty(t, cutNarration(s), "%s at the start: narration cut", id)
		if id == "etr" {
			for _, item := range []string{"a/grid", "b/grid", "a/ring-pointer", "b/ring-pointer", "a/cache", "b/cache"} {
				assert.Positive(t, s.IDs[item], "%s presented: no %s drawn", id, item)
			}
		}
		b.do(t, "playing", chromedp.Evaluate[chromedp.Void](`document.getElementById("btn-play").click()`))
		for i := 0; i < 3; i++ {
			b.do(t, "letting frames pass", chromedp.Poll[chromedp.Void](`new Promise(r => setTimeout(() => r(true), 600))`))
			s := summary(t, b)
			assert.GreaterOrEqual(t, s.LeastText, 17.99, "%s playing: %s %q", id, s.LeastID, s.LeastWords)
			assert.Empty(t, cutNarration(s), "%s playing: narration cut", id)
		}
		saveShot(t, b, id+"-present-1280x720-playing")
	}
}

// cutNarration lists the narration lines and captions s cut with an
// ellipsis.
func cutNarration(s sceneSummary) []string {
	var out []string
	for _, c := range s.Cut {
		if strings.Contains(c, "/narration: ") || strings.Contains(c, "/caption: ") {
			out = append(out, c)
		}
	}
	return out
}

// An embed at 960x600 keeps the mechanism: etr's ring dials with their
// pointer arrows (they turned into words before), the lines joining VA
// to PA in trbe-aux's and vmap's page maps (they vanished), and cache
// windows of some rows.
func TestEmbedKeepsRingDialsAndMappingLines(t *testing.T) {
	b := newBrowser(t)
	b.do(t, "sizing the window", chromedp.EmulateViewport(960, 600))
	for _, c := range []struct {
		id    string
		items []string
	}{
		{"etr", []string{"a/ring-pointer", "b/ring-pointer", "a/cache", "b/cache"}},
		{"trbe-aux", []string{"a/pm-link", "b/pm-link"}},
		{"vmap", []string{"a/pm-link", "b/pm-link"}},
	} {
		b.do(t, "opening the embed URL", chromedp.Navigate(siteURL+"?scenario="+c.id+"&embed=1&autoplay=1"))
		b.waitFor(t, "the stage and the first results", `window.dmaviz && dmaviz.stageReadyAt > 0 && document.getElementById("open-full") && `+runDone(0))
		b.do(t, "letting frames pass", chromedp.Poll[chromedp.Void](someFrames))
		saveShot(t, b, c.id+"-embed-960x600")
		s := summary(t, b)
		for _, id := range c.items {
			assert.Positive(t, s.IDs[id], "%s embed: no %s drawn", c.id, id)
		}
	}
}
