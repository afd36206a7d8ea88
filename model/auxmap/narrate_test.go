package auxmap

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// The narration's per-page figure is the reported metric's: trbe-aux's
// l2d_tlb_refill per iteration (the average over the sessions, as the
// metrics table shows it) over the buffer's pages, and every distinct
// per-session count it lists is one of the sessions'.
func TestNarrationQuotesTheReportedPerPageFigure(t *testing.T) {
	s := NewTRBE()
	for _, pol := range []string{Order0, PreferLarge4K} {
		r, res := simulated(t, s, scenario.Params{}, pol)
		pages := float64(r.c.aux / 4096)
		want := metric(t, res, MetricL2Refill) / pages
		text := narrationText(res)
		m := regexp.MustCompile(`([0-9.]+) refills per page`).FindStringSubmatch(text)
		require.NotNil(t, m, pol)
		got, err := strconv.ParseFloat(m[1], 64)
		require.NoError(t, err)
		assert.InDelta(t, want, got, 0.005, "%s: narration says %s per page, l2d_tlb_refill %.1f / %.0f pages", pol, m[1], metric(t, res, MetricL2Refill), pages)
		assert.Contains(t, text, count(metric(t, res, MetricL2Refill)), pol)
		for _, it := range r.iters {
			assert.Contains(t, text, count(float64(it.l2Refill))+" in session", pol)
		}
	}
}

func narrationText(res *scenario.Result) string {
	var b strings.Builder
	for _, st := range res.Narration {
		b.WriteString(st.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// l2_entries_per_pass counts what the L2 TLB's coalescing fills: in a
// one-session run of the default 1 GiB buffer it equals the trace unit's
// walks, in fragmented memory where groups hold two separate runs of
// consecutive pages (only one of them shares a coalesced entry; counting
// one entry per run gave 135,678 against 153,214 walks at 0.2).
func TestEntriesPerPassIsTheTraceUnitsWalks(t *testing.T) {
	s := NewTRBE()
	for _, frag := range []string{"0.2", "0.5"} {
		_, res := simulated(t, s, scenario.Params{ParamFrag: {Text: frag}, ParamIterations: {Text: "1"}}, Order0)
		assert.Equal(t, metric(t, res, MetricTraceWalks), metric(t, res, "l2_entries_per_pass"), "fragmentation %s", frag)
	}
}

func TestCount(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 999: "999", 1000: "1,000", 161468.2: "161,468.2", 1234567: "1,234,567", -1500.5: "-1,500.5"} {
		assert.Equal(t, want, count(v))
	}
}

// simulated runs s at p (the page's simulated sessions, not extrapolated)
// under policy and returns the run and its result.
func simulated(t *testing.T, s *Scenario, p scenario.Params, policy string) (*run, *scenario.Result) {
	t.Helper()
	c, err := s.parse(p)
	require.NoError(t, err)
	r, err := newRun(c, policy, nil)
	require.NoError(t, err)
	require.NoError(t, r.simulate(fullIterations))
	return r, r.result()
}

// The narration never says the calibrated before figure follows from the
// hardware's structure: on the default preset it says the fragmentation is
// fitted to it. prefer-large's mapping step claims 2 MiB blocks only for
// a buffer mapped all in blocks; a buffer the batching series maps partly
// as 64 KiB runs (fully fragmented memory: smaller chunks) is described as
// what it is, its counts quoted.
func TestNarrationSaysWhatIsFittedAndWhatIsMapped(t *testing.T) {
	s := NewTRBE()
	for _, preset := range []string{DefaultPreset, "dimensity-9500"} {
		for _, pol := range []string{Order0, PreferLarge} {
			text := narrationText(runP(t, s, pol, ParamIterations, "1", ParamAUX, "64MiB", ParamPreset, preset))
			assert.NotContains(t, text, "follows from", "%s %s", preset, pol)
			assert.Contains(t, text, "fragmentation is fitted", "%s %s", preset, pol)
		}
	}
	// What the fit rests on: the assumed memory size and free-memory shape.
	text := narrationText(runP(t, s, Order0, ParamIterations, "1", ParamAUX, "64MiB", ParamShape, "0.5"))
	assert.Contains(t, text, "given the assumed 16GiB of memory and free-memory shape")
	assert.Contains(t, text, "each order holding 0.5 times the one below; memory size and ratio are assumed")
	assert.Contains(t, s.Spec().Explanation, "memory size (16 GiB on the default, assumed 8..64 GiB)")
	assert.Contains(t, s.Spec().Explanation, "the order ratio, assumed 0.5..2")
	res := runP(t, s, PreferLarge, ParamIterations, "1", ParamAUX, "1GiB", ParamFrag, "1")
	contig, blocks := metric(t, res, "map_64k_contig"), metric(t, res, "map_2m_blocks")
	require.Positive(t, contig, "fully fragmented memory gives chunks below 2 MiB")
	for _, st := range res.Narration {
		assert.NotContains(t, st.Title, "2 MiB block", "a buffer of %v blocks and %v runs", blocks, contig)
	}
	text = narrationText(res)
	assert.Contains(t, text, fmt.Sprintf("Here %d blocks, %d 64 KiB runs", int(blocks), int(contig)))
	full := narrationText(runP(t, s, PreferLarge, ParamIterations, "1", ParamAUX, "64MiB"))
	assert.Contains(t, full, "Here 32 blocks, 0 64 KiB runs, 0 4 KiB PTEs", "unfragmented enough: all blocks")
}

// At the lesson size (a 256 KiB buffer: no 2 MiB step) the narration
// credits prefer-large with what it mapped, 64 KiB runs, and names no 2
// MiB block it does not have, for both units and both large policies.
func TestLessonNarrationNamesNoBlockItLacks(t *testing.T) {
	for _, s := range []*Scenario{NewTRBE(), NewSPE()} {
		p, err := s.Spec().SizeParams(scenario.SizeLesson)
		require.NoError(t, err)
		for _, pol := range []string{PreferLarge, PreferLarge4K} {
			_, res := simulated(t, s, p, pol)
			require.Zero(t, metric(t, res, "map_2m_blocks"), "%s %s: the lesson buffer holds no 2 MiB step", s.Spec().ID, pol)
			text := narrationText(res)
			assert.NotContains(t, text, "a block needs", "%s %s", s.Spec().ID, pol)
			assert.NotContains(t, text, "never 512.", "%s %s", s.Spec().ID, pol)
			for _, st := range res.Narration {
				assert.NotContains(t, st.Title, "2 MiB", "%s %s", s.Spec().ID, pol)
			}
			if pol == PreferLarge {
				assert.Contains(t, text, "Here 0 blocks, 4 64 KiB runs, 0 4 KiB PTEs: no step is 2 MiB; a 64 KiB run needs one walk", "%s", s.Spec().ID)
			}
		}
	}
}
