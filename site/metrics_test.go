package site

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sweep"
	"github.com/dmaviz/dmaviz/model/timeline"
)

func TestMetricsPrintRatiosChangesUnitsAndScope(t *testing.T) {
	var m Metrics
	change := []scenario.RowRef{{Reference: scenario.Reference{Pair: scenario.PairChange}}}
	for _, c := range []struct {
		row  scenario.Row
		want string
	}{
		{scenario.Row{A: 2560, B: 1, HasA: true, HasB: true}, "×0.000391"},
		{scenario.Row{A: 0, B: 0, HasA: true, HasB: true}, "="},
		{scenario.Row{A: 0, B: 853.7, HasA: true, HasB: true}, "–"},
		{scenario.Row{A: 463.4, B: 164, HasA: true, HasB: true, Refs: change}, "×0.354 (-64.6 %)"},
		{scenario.Row{A: 1, HasA: true}, "–"},
	} {
		assert.Equal(t, c.want, m.ratio(c.row), "%+v", c.row)
	}
	assert.Equal(t, "· per call", m.scope(scenario.Row{Label: "dma_map_sg (average per call)"}))
	assert.Equal(t, "· per call", m.scope(scenario.Row{Label: "DC ops per dma_unmap_sg"}))
	assert.Equal(t, "· whole run", m.scope(scenario.Row{Label: "dc_cvac (whole run)"}))
	assert.Equal(t, "", m.scope(scenario.Row{Label: "copy throughput"}))
}

// Every scenario's charts fit the panel's DOM update buffer.
func TestChartsFitOneDOMUpdate(t *testing.T) {
	for _, sc := range catalog.Registry().All() {
		p, err := sc.Spec().Defaults()
		require.NoError(t, err)
		if sc.Spec().ID == "sg-sync" {
			require.NoError(t, sc.Spec().Set(p, "iterations", "2"))
		}
		for _, pol := range sc.Spec().Policies {
			r, err := sc.Run(t.Context(), p, pol.ID, nil)
			require.NoError(t, err)
			c := Charts{Results: [2]*scenario.Result{r, nil}}
			for i := range c.charts() {
				assert.NotEmpty(t, c.dataURL(i), "%s %s chart %d is too large for the panel", sc.Spec().ID, pol.ID, i)
			}
		}
	}
}

// Every scenario's headline chart, as the page computes it for the
// default setting, fits the panel's DOM update buffer; one that does not
// is left out rather than stopping the panel.
func TestHeadlineChartsFitOneDOMUpdate(t *testing.T) {
	for _, sc := range catalog.Registry().All() {
		spec := sc.Spec()
		if spec.Headline == nil {
			continue
		}
		p, err := spec.Defaults()
		require.NoError(t, err)
		ch, err := sweep.Headline(context.Background(), sc, p, spec.DefaultA, spec.DefaultB, nil, nil)
		require.NoError(t, err, spec.ID)
		h := &Headline{Chart: ch}
		url := h.dataURL()
		assert.NotEmpty(t, url, "%s headline chart is too large for the panel", spec.ID)
		t.Logf("%s headline chart: %d of %d bytes", spec.ID, len(url), MaxChartURL)
	}
	big := &scenario.Chart{ID: "big", XLabel: "x", YLabel: "y"}
	ser := scenario.Series{Name: "s"}
	for i := range 2000 {
		ser.Points = append(ser.Points, timeline.Point{X: float64(i + 1), Y: float64(i%7 + 1)})
	}
	big.Series = []scenario.Series{ser, ser}
	assert.Empty(t, (&Headline{Chart: big}).dataURL(), "an oversized chart is left out")
}

// The table's markup carries what the page's tests and styles look for,
// escapes the model's text, and says so when there is no run.
func TestMetricsHTMLMarksRowsAndEscapes(t *testing.T) {
	none := (&Metrics{}).HTML()
	assert.Contains(t, none, `id="metrics-none"`)
	assert.Contains(t, none, `<table id="metrics">`)
	rows := []scenario.Row{
		{Name: "dsb_count", Label: "DSBs <whole run>", Unit: "us", A: 2, B: 1, HasA: true, HasB: true,
			Refs: []scenario.RowRef{{OK: true, Reference: scenario.Reference{Source: `"paper" & talk`}}}},
		{Name: "stale_reads", Check: true, A: 1, HasA: true},
	}
	got := (&Metrics{Rows: rows}).HTML()
	assert.NotContains(t, got, "metrics-none")
	assert.Contains(t, got, `<tr data-metric="dsb_count" title="DSBs &lt;whole run&gt;"><td class="unit">µs</td><td class="num a">2</td><td class="num b">1</td><td class="num ratio">×0.5</td></tr>`)
	assert.Contains(t, got, `<tr class="refrow" data-ref="dsb_count"><td colspan="4" class="ref"><div class="ok" title="&#34;paper&#34; &amp; talk">`)
	assert.Contains(t, got, `<span class="scope"> · whole run</span>`)
	assert.Contains(t, got, `<tr class="check bad" data-metric="stale_reads"`)
	assert.Contains(t, got, `<td class="num b">–</td>`)
	assert.Equal(t, 2, strings.Count(got, `<tbody class="row">`))
}

// A figure a parameter was fitted to says so, with no verdict colour or
// mark; a prediction beside it keeps its verdict.
func TestMetricsShowCalibratedWithoutVerdict(t *testing.T) {
	cal := scenario.Reference{Value: 140, Fitted: []string{"smmu.link_cycles"}}
	row := scenario.Row{Name: "lat", A: 138, B: 50, HasA: true, HasB: true,
		Refs: []scenario.RowRef{{Reference: cal, Side: "A", Got: 138, OK: true}, {Reference: scenario.Reference{Value: 50}, Side: "B", Got: 50, OK: true}}}
	html := (&Metrics{Rows: []scenario.Row{row}}).HTML()
	assert.Contains(t, html, `<div class="calibrated" title="">published A 140 · simulated 138 · calibrated to this figure (fitted: smmu.link_cycles)</div>`)
	assert.Contains(t, html, `<div class="ok" title="">published B 50 · simulated 50 ✓ within tolerance</div>`)
	assert.Equal(t, 1, strings.Count(html, "✓"), html)
}

// Masked (a lesson's question before its reveal), the table keeps its
// rows and names but prints "?" for every value and ratio, and says when
// they show.
func TestMetricsMaskedKeepsValuesBack(t *testing.T) {
	rows := []scenario.Row{{Name: "l2d_tlb_refill", A: 208, B: 148, HasA: true, HasB: true}}
	got := (&Metrics{Rows: rows, Masked: true}).HTML()
	assert.Contains(t, got, `<td class="num a">?</td><td class="num b">?</td><td class="num ratio">?</td>`)
	assert.Contains(t, got, `id="metrics-masked"`)
	assert.Contains(t, got, "l2d_tlb_refill")
	for _, fig := range []string{"208", "148", "0.712"} {
		assert.NotContains(t, got, fig)
	}
	shown := (&Metrics{Rows: rows}).HTML()
	assert.Contains(t, shown, `<td class="num a">208</td><td class="num b">148</td>`)
	assert.NotContains(t, shown, "metrics-masked")
}
