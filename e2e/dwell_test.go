//go:build e2e

package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// watchSteps records, every animation frame, each side's current
// narration step ("step 4 of 6") whenever it changes, with the time it came
// on screen: window.stepLog = {A: [[text, ms], ...], B: [...]}.
const watchSteps = `(() => {
  const log = window.stepLog = {A: [], B: []};
  const look = () => {
    for (const side of ["A", "B"]) {
      const e = document.querySelector("#caption-" + side + " .step.current .count");
      const text = e ? e.textContent : "";
      const l = log[side];
      if (text && (l.length === 0 || l[l.length - 1][0] !== text)) l.push([text, performance.now()]);
    }
    requestAnimationFrame(look);
  };
  look();
  return true;
})()`

// Playing etr at the lesson size, where A's barrier packet and its copy to
// the AUX ring are 1 ns apart in a 38.8 µs run, the narration shows each
// of either side's steps in turn, none skipped, each for at least a second
// (its hold at x1 is 1.5 s or more).
func TestPlayingShowsEveryNarrationStep(t *testing.T) {
	b := newBrowser(t)
	b.setMotion(t, true)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(1440, 900)))
	b.do(t, "opening etr at the lesson size", chromedp.Navigate(siteURL+"?scenario=etr&size=lesson"))
	b.waitFor(t, "the live simulator", `window.dmaviz && dmaviz.resultsReadyAt > 0 && document.querySelector("#caption-A .step.current .count")`)
	eval[bool](t, b, watchSteps)
	b.waitFor(t, "playback to start", `document.getElementById("btn-play").textContent === "Pause"`)
	// About 31 s at x1 (play.Player.PlayTime); longer than waitFor waits.
	for start := time.Now(); !eval[bool](t, b, `document.getElementById("btn-play").textContent === "Play"`); time.Sleep(250 * time.Millisecond) {
		require.Less(t, time.Since(start), 3*time.Minute, "playback did not end; steps shown: %v, at %s", eval[any](t, b, `stepLog`), eval[string](t, b, `document.getElementById("cursor-text").textContent`))
	}
	require.Equal(t, "1000", eval[string](t, b, `document.getElementById("scrub").value`), "where playback stopped")
	log := eval[map[string][][]any](t, b, `stepLog`)
	for side, n := range map[string]int{"A": 6, "B": 8} {
		var want, got []string
		for i := 1; i <= n; i++ {
			want = append(want, fmt.Sprintf("step %d of %d", i, n))
		}
		for _, e := range log[side] {
			got = append(got, e[0].(string))
		}
		require.Equal(t, want, got, "%s: the narration steps shown while playing, in order", side)
		for i := 0; i+1 < len(log[side]); i++ {
			ms := log[side][i+1][1].(float64) - log[side][i][1].(float64)
			assert.GreaterOrEqual(t, ms, 1000.0, "%s: %s on screen for (ms)", side, got[i])
		}
	}
	assert.Empty(t, b.consoleErrors(), "console errors")
}
