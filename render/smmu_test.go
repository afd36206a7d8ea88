package render

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/smmubypass"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// smmuPair runs smmu-bypass A and B with a short run and the given
// parameters.
func smmuPair(t testing.TB, kv ...string) (a, b *scenario.Result) {
	t.Helper()
	s := smmubypass.New()
	p, err := s.Spec().Defaults()
	require.NoError(t, err)
	require.NoError(t, s.Spec().Set(p, "packets", "3000"))
	for i := 0; i+1 < len(kv); i += 2 {
		require.NoError(t, s.Spec().Set(p, kv[i], kv[i+1]))
	}
	a, err = s.Run(context.Background(), p, smmubypass.PolicyOff, nil)
	require.NoError(t, err)
	b, err = s.Run(context.Background(), p, smmubypass.PolicyOn, nil)
	require.NoError(t, err)
	return a, b
}

// smmuFrame builds the stage for a and b at cursor t (the state replayed
// from the timeline) in a w x h window.
func smmuFrame(a, b *scenario.Result, t sim.Time, w, h float32) (*Scene, *Stage) {
	return smmuFrameLeft(a, b, t, w, h, 0)
}

// smmuFrameLeft is smmuFrame with the panel covering [0, left).
func smmuFrameLeft(a, b *scenario.Result, t sim.Time, w, h, left float32) (*Scene, *Stage) {
	var sa, sb timeline.State
	a.Timeline.StateAt(a.Timeline.EventsUntil(t), &sa)
	b.Timeline.StateAt(b.Timeline.EventsUntil(t), &sb)
	f := &Frame{A: Side{Result: a, State: &sa, Time: t}, B: Side{Result: b, State: &sb, Time: t},
		Cursor: t, Length: max(a.End, b.End), W: w, H: h, Left: left}
	var s Scene
	st := NewStage()
	st.Build(&s, f)
	return &s, st
}

func items(s *Scene, id string) []Item {
	var out []Item
	for _, it := range s.Items {
		if it.ID == id {
			out = append(out, it)
		}
	}
	return out
}

func joinTexts(s *Scene, id string) string {
	var b strings.Builder
	for _, it := range items(s, id) {
		b.WriteString(it.Text)
		b.WriteString("|")
	}
	return b.String()
}

func TestSMMUStageReplacesCacheView(t *testing.T) {
	a, b := smmuPair(t)
	s, _ := smmuFrame(a, b, a.End/2, 1280, 720)
	assert.Empty(t, items(s, "a/cache"), "the generic cache window is not drawn for an SMMU run")
	assert.Empty(t, items(s, "timeline/phase"))
	assert.NotEmpty(t, items(s, "a/smmu-tlb"))
	assert.NotEmpty(t, items(s, "b/smmu-master"))
	for _, it := range s.Items {
		if it.Kind == KindText {
			assert.GreaterOrEqual(t, it.Size, float32(smmuSz), "text %q (%s) is below 14 px", it.Text, it.ID)
		}
	}
}

// The matching SMR is lit with the master's tag: the engine on SMR0, the
// NIC on "no match"; with the NIC on an S2CR-bypass SMR, on SMR1 and
// nothing on "no match".
func TestSMMUStreamMatchLit(t *testing.T) {
	tagRow := func(s *Scene, master string) int32 {
		rows := items(s, "a/smmu-smr")
		tags := items(s, "a/smmu-smr-text")
		for _, tg := range tags {
			if tg.Text != master || tg.Fill != Background {
				continue
			}
			for _, r := range rows {
				if tg.Y > r.Y && tg.Y < r.Y+r.H && r.Fill != Surface {
					return r.Index
				}
			}
		}
		return -1
	}
	a, b := smmuPair(t)
	s, _ := smmuFrame(a, b, 0, 1280, 720)
	assert.Equal(t, int32(0), tagRow(s, "engine"))
	assert.Equal(t, int32(1), tagRow(s, "NIC"), "unmatched: the no-match row (after SMR0)")
	assert.Contains(t, joinTexts(s, "a/smmu-smr-text"), "no match → sCR0.USFCFG=0: bypass")

	a, b = smmuPair(t, "nic-stream", "s2cr-bypass")
	s, _ = smmuFrame(a, b, 0, 1280, 720)
	assert.Equal(t, int32(0), tagRow(s, "engine"))
	assert.Equal(t, int32(1), tagRow(s, "NIC"), "SMR1 matches the NIC")
	assert.Contains(t, joinTexts(s, "a/smmu-smr-text"), "SMR1 ID 0x1c00 MASK 0xff → bypass")
	for _, tg := range items(s, "a/smmu-smr-text") {
		if tg.Fill == Background {
			assert.NotEqual(t, "no match", tg.Text)
		}
	}
}

// With the bit on, the NIC's cached bypass is a crossed entry in the NIC's
// colour; with it off there is none, and every valid entry is the engine's.
func TestSMMUTLBColouredByStream(t *testing.T) {
	a, b := smmuPair(t, "s2crb", "false")
	s, _ := smmuFrame(a, b, a.End, 1280, 720)
	count := func(side string, c Color) int {
		n := 0
		for _, it := range items(s, side+"/smmu-tlb") {
			if it.Fill == c {
				n++
			}
		}
		return n
	}
	assert.Zero(t, count("a", StreamColor(0)), "A: no NIC entries")
	assert.Empty(t, items(s, "a/smmu-tlb-bypass"))
	assert.Positive(t, count("a", StreamColor(1)), "A: engine translations")
	assert.Positive(t, count("b", StreamColor(0)), "B: cached NIC bypasses")
	assert.Len(t, items(s, "b/smmu-tlb-bypass"), count("b", StreamColor(0)), "each NIC entry is crossed")
	assert.Contains(t, joinTexts(s, "legend/label"), "NIC entry: cached bypass")
	assert.Contains(t, joinTexts(s, "legend/label"), "engine entry: translation")

	// Hover on a crossed entry says what it is.
	x := items(s, "b/smmu-tlb-bypass")[0]
	h, ok := s.HitTest((x.X+x.X2)/2, (x.Y+x.Y2)/2)
	require.True(t, ok)
	assert.Contains(t, h.Info, "NIC's cached bypass")

	// At the start nothing is cached: the legend lists only empty entries.
	assert.NotContains(t, joinTexts(s, "legend/label"), "empty TLB entry", "a full TLB shows no empty entry")
	s, _ = smmuFrame(a, b, 0, 1280, 720)
	assert.Contains(t, joinTexts(s, "legend/label"), "empty TLB entry")
	assert.NotContains(t, joinTexts(s, "legend/label"), "cached bypass")
	assert.NotContains(t, joinTexts(s, "legend/label"), "translation")
}

// Mid-run the NIC's reads hit in the TBU with the bit on (TCU box dark)
// and go to the TCU with it off (TCU box lit), with about the published
// latencies in the status line.
func TestSMMUPathAtCursor(t *testing.T) {
	a, b := smmuPair(t)
	at := a.End / 2
	s, _ := smmuFrame(a, b, at, 1280, 720)
	tcuLit := func(side string) bool {
		for _, it := range items(s, side+"/smmu-box") {
			if it.Index == 1 { // master 0 (NIC), stage 1 (TCU)
				return it.Stroke == StreamColor(0)
			}
		}
		require.Fail(t, side+": no TCU box")
		return false
	}
	sa, sb := joinTexts(s, "a/smmu-status"), joinTexts(s, "b/smmu-status")
	t.Log(sa, sb)
	assert.True(t, tcuLit("a"), "A: the NIC's transaction went to the TCU")
	assert.False(t, tcuLit("b"), "B: it hit in the TBU")
	assert.Contains(t, strings.Split(sa, "|")[0], "TBU miss, TCU stream match")
	assert.Contains(t, strings.Split(sb, "|")[0], "TBU hit")
}

func TestSMMUChartsAandB(t *testing.T) {
	a, b := smmuPair(t)
	s, st := smmuFrame(a, b, a.End/3, 1280, 720)
	var bars [2]int
	for _, it := range items(s, "smmu-hist/bar") {
		bars[it.Ref.Side]++
	}
	assert.Positive(t, bars[0])
	assert.Positive(t, bars[1])
	keys := joinTexts(s, "smmu-hist/key")
	la, _ := a.Metric("bypass_read_latency_cycles")
	assert.Contains(t, keys, "A average "+st.txt.Num(float64(int(la+0.5))))
	cur := items(s, "smmu-tput/cursor")
	require.Len(t, cur, 1)
	lines := items(s, "smmu-tput/line")
	require.NotEmpty(t, lines)
	x0, x1 := lines[0].X, lines[len(lines)-1].X2
	assert.InDelta(t, 1.0/3, (cur[0].X-x0)/(x1-x0), 0.05, "the cursor sits a third of the way along")
}

// Nothing of the SMMU view leaves its window at the three sizes the page
// is shown at.
func TestSMMUFits(t *testing.T) {
	a, b := smmuPair(t)
	for _, sz := range [][3]float32{{1440, 900, 360}, {1024, 768, 340}, {960, 600, 0}} {
		s, _ := smmuFrameLeft(a, b, a.End/2, sz[0], sz[1], sz[2])
		for _, it := range s.Items {
			if it.Kind == KindText {
				assert.NotContains(t, it.Text, "…", "%vx%v: %s is cut", sz[0], sz[1], it.ID)
			}
		}
		for _, it := range s.Items {
			x0, y0, x1, y1 := it.X, it.Y, it.X+it.W, it.Y+it.H
			if it.Kind == KindText {
				var w float32
				x0, w = it.textSpan()
				x1, y0 = x0+w, it.Y-it.Size
			}
			if it.Kind == KindLine || it.Kind == KindArrow {
				x1, y1 = it.X2, it.Y2
			}
			assert.True(t, x0 >= 0 && y0 >= 0 && x1 <= sz[0] && y1 <= sz[1], "%vx%v: %s %q at (%v,%v)-(%v,%v)", sz[0], sz[1], it.ID, it.Text, x0, y0, x1, y1)
		}
	}
}

// A read's memory box names where the memory system answered it: the
// NIC's 64-byte frames from a snoop of the core's cache (their header the
// core rewrote), the engine's blocks from DRAM; unlit, it says memory.
func TestSMMUMemoryBoxSaysWhereReadsWereAnswered(t *testing.T) {
	a, b := smmuPair(t)
	label := func(master int, want string) {
		t.Helper()
		for _, tx := range b.Timeline.SMMU.Txns {
			if int(tx.Master) != master || tx.Write || tx.Aborted {
				continue
			}
			s, _ := smmuFrame(a, b, tx.Done, 1280, 720)
			labels := items(s, "b/smmu-box-label")
			require.Greater(t, len(labels), 3*master+3)
			assert.Equal(t, want, labels[4*master+3].Text, "master %d's memory box", master)
			return
		}
		require.Fail(t, "no read recorded", "master %d", master)
	}
	label(0, "snoop")
	label(1, "DRAM")
	s, _ := smmuFrame(a, b, 0, 1280, 720)
	assert.Contains(t, joinTexts(s, "b/smmu-box-label"), "memory")
}

// On a 1024x768 page (the stage beside the panel) the masters' status
// lines are never cut: where the short wording does not fit, the state
// ("in flight") goes, which the lit boxes show ("write 183 cyc · TCU
// match · in flig…" at 173 ns was cut).
func TestSMMUStatusWholeAt1024(t *testing.T) {
	for _, frac := range []float64{0, 0.00625, 0.0125, 0.025, 0.1, 0.5, 1} {
		f := pairFrame(t, "smmu-bypass", frac, 1024, 768, 340, 0, 0, false)
		var s Scene
		NewStage().Build(&s, f)
		for _, side := range []string{"a", "b"} {
			st := items(&s, side+"/smmu-status")
			require.NotEmpty(t, st, "%s at %v", side, frac)
			for _, it := range st {
				assert.NotContains(t, it.Text, "…", "%s at %v of the run", side, frac)
			}
		}
	}
}
