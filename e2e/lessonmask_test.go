//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/lesson"
	"github.com/dmaviz/dmaviz/report"
)

// numberRE finds the numbers standing on their own in a text (not inside
// a word such as l2d_tlb_refill, nor after a point).
var numberRE = regexp.MustCompile(`(?:^|[^\w.])(\d[\d,]*(?:\.\d+)?)`)

func numbers(text string) map[string]bool {
	out := map[string]bool{}
	for _, m := range numberRE.FindAllStringSubmatch(text, -1) {
		out[strings.ReplaceAll(m[1], ",", "")] = true
	}
	return out
}

// answerFigures are the outcome figures stop st quotes from its own pair:
// their values (vals), the numbers the page would print for them (as the
// metrics table prints them, and as the stop words them), except those
// its question states, and (plain) the metrics table's own forms (not
// ratios), which the reveal must show.
func answerFigures(t *testing.T, st lesson.Stop, data string) (vals []float64, all, plain []string) {
	t.Helper()
	var d struct {
		Rows []struct {
			Name       string
			A, B       float64
			HasA, HasB bool
		}
	}
	require.NoError(t, json.Unmarshal([]byte(data), &d))
	rows := map[string][2]float64{}
	for _, r := range d.Rows {
		rows[r.Name] = [2]float64{r.A, r.B}
	}
	told := numbers(st.Question)
	add := func(list *[]string, s string) {
		s = strings.ReplaceAll(s, ",", "")
		if !told[s] {
			*list = append(*list, s)
		}
	}
	for _, f := range st.Figures {
		if f.Paper || f.Policy != "" || f.Given {
			continue
		}
		v, ok := rows[f.Metric]
		require.True(t, ok, "%s: no row %s", st.Scenario, f.Metric)
		add(&all, f.Text)
		switch f.Ratio {
		case "A/B":
			vals = append(vals, v[0]/v[1])
		case "B/A":
			vals = append(vals, v[1]/v[0])
		}
		if f.Ratio == "" {
			side := 0
			if f.Side == 'B' {
				side = 1
			}
			add(&all, report.FormatNumber(v[side]))
			add(&plain, report.FormatNumber(v[side]))
			vals = append(vals, v[side])
		}
	}
	return vals, all, plain
}

// roundsTo reports whether num, a number with a decimal point, is one of
// vals rounded to its decimals (the narration's "2.9 us" for 2.9468).
func roundsTo(num string, vals []float64) bool {
	k := strings.IndexByte(num, '.')
	if k < 0 {
		return false
	}
	x, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return false
	}
	half := 0.5 * math.Pow(10, -float64(len(num)-k-1))
	for _, v := range vals {
		if math.Abs(v-x) <= half*(1+1e-9) {
			return true
		}
	}
	return false
}

// answerText is the visible text of the parts of the page that could
// give an answer away: the metrics, the hazards, the narration, the
// simulated times and the charts.
const answerText = `["#metrics-host", "#hazards", ".narration", "#run-status", ".charts"].map(s => [...document.querySelectorAll(s)].map(e => e.innerText).join("\n")).join("\n")`

// Before a stop's answer is revealed the page keeps it back: at each of
// the five stops no outcome figure the answer quotes is in the metrics,
// hazards, narration, simulated times or charts, the metrics print "?",
// and the stage's counters (the SMMU stage's latency histogram at the
// last stop) are masked; after Reveal the metrics and the stage show the
// figures again.
func TestLessonKeepsTheAnswerBackUntilTheReveal(t *testing.T) {
	path, err := lesson.Get("dma")
	require.NoError(t, err)
	b := newBrowser(t)
	b.do(t, "a 1440x900 window", chromedp.EmulateViewport(1440, 900))
	for n, st := range path.Stops {
		n++
		openReady(t, b, fmt.Sprintf("?lesson=dma&stop=%d", n))
		atStop(t, b, n)
		require.True(t, eval[bool](t, b, questionShows), "stop %d asks its question", n)
		vals, all, plain := answerFigures(t, st, eval[string](t, b, `dmaviz.resultsData()`))
		require.NotEmpty(t, all, "stop %d quotes no outcome figure", n)

		b.waitFor(t, fmt.Sprintf("stop %d's masked metrics", n), `document.getElementById("metrics-masked")`)
		shown := numbers(eval[string](t, b, answerText))
		for _, fig := range all {
			assert.False(t, shown[fig], "stop %d: %s is on the page before the reveal", n, fig)
		}
		told := numbers(st.Question)
		for num := range shown {
			assert.False(t, !told[num] && roundsTo(num, vals), "stop %d: %s, an answer figure rounded, is on the page before the reveal", n, num)
		}
		assert.True(t, eval[bool](t, b, `[...document.querySelectorAll("#metrics td.num")].every(td => td.textContent === "?")`), "stop %d: a metric shows its value", n)
		assert.True(t, eval[bool](t, b, `!!document.getElementById("hazards-masked") && !!document.getElementById("charts-masked")`), "stop %d: hazards or charts not kept back", n)
		stageMasked(t, b, st, n, true)

		click(t, b, "lesson-reveal")
		b.waitFor(t, fmt.Sprintf("stop %d's answer and metrics", n), answerShows+` && !document.getElementById("metrics-masked")`)
		shown = numbers(eval[string](t, b, `document.getElementById("metrics-host").innerText`))
		for _, fig := range plain {
			assert.True(t, shown[fig], "stop %d: %s is not in the metrics after the reveal", n, fig)
		}
		assert.False(t, eval[bool](t, b, `!!document.getElementById("hazards-masked")`), "stop %d: hazards still kept back", n)
		stageMasked(t, b, st, n, false)
	}
}

// stageMasked checks what the stage draws at stop n: its counters' values
// (or, on the SMMU stage, the latency histogram's averages) kept back when
// masked, shown when not. The stage draws on its own frames: wait for one.
func stageMasked(t *testing.T, b *browser, st lesson.Stop, n int, masked bool) {
	t.Helper()
	if st.Scenario == "smmu-bypass" {
		want := `dmaviz.sceneTexts("smmu-hist/masked").length === 1 && !dmaviz.sceneTexts("smmu-hist/key").join(" ").includes("average")`
		if !masked {
			want = `dmaviz.sceneTexts("smmu-hist/masked").length === 0 && dmaviz.sceneTexts("smmu-hist/key").join(" ").includes("average")`
		}
		b.waitFor(t, fmt.Sprintf("stop %d: the stage's latency histogram masked=%v", n, masked), want)
		return
	}
	want := `(v => v.length > 0 && v.every(s => s === "?"))(dmaviz.sceneTexts("counters/values")) && dmaviz.sceneTexts("counters/masked").length === 1`
	if !masked {
		want = `(v => v.length > 0 && v.every(s => s.includes(" / ")))(dmaviz.sceneTexts("counters/values")) && dmaviz.sceneTexts("counters/masked").length === 0`
	}
	b.waitFor(t, fmt.Sprintf("stop %d: the stage's counters masked=%v", n, masked), want)
}

// In presentation mode the stage narrates once the card is folded (the
// open card takes the narration row's place): trbe-aux's second step
// gives l2d_tlb_refill's count (208 on A, part of stop 4's answer), which
// the stage keeps back until the reveal.
func TestLessonStageNarrationKeepsTheAnswerBack(t *testing.T) {
	b := newBrowser(t)
	openLesson(t, b, 1280, 720, "?lesson=dma&stop=4&panel=collapsed")
	atStop(t, b, 4)
	click(t, b, "btn-next")
	click(t, b, "btn-next")
	const caption = `dmaviz.sceneTexts("a/").join(" ")`
	// The question open: the card stands in the narration's place.
	b.do(t, "letting frames pass", chromedp.Poll[chromedp.Void](someFrames))
	assert.Empty(t, eval[[]string](t, b, `dmaviz.sceneTexts("a/narration")`), "a narration row under the open card")
	click(t, b, "lesson-fold")
	b.waitFor(t, "A's second step on the stage", caption+`.includes("per iteration, of which")`)
	text := eval[string](t, b, caption)
	assert.False(t, numbers(text)["208.0"], "the stage's narration gives l2d_tlb_refill before the reveal: %s", text)
	assert.Contains(t, text, "? per iteration")
	// The reveal opens the card with the answer; folding it again gives
	// the stage its narration back, with A's figure. The stage may show
	// it beside B's in one row ("A 208.0, B 148.0 per iteration") when
	// the steps say the same but for their figures.
	click(t, b, "lesson-reveal")
	b.waitFor(t, "the answer", answerShows)
	click(t, b, "lesson-fold")
	b.waitFor(t, "the narration's figure after the reveal", `/\b208\.0\b[^?]* per iteration/.test(dmaviz.sceneTexts("").join(" "))`)
}
