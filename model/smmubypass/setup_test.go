package smmubypass

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// hazardsWith returns the hazards whose cause contains every word.
func hazardsWith(r *scenario.Result, words ...string) []scenario.Hazard {
	var out []scenario.Hazard
next:
	for _, h := range r.Hazards {
		for _, w := range words {
			if !strings.Contains(h.Cause, w) {
				continue next
			}
		}
		out = append(out, h)
	}
	return out
}

// Every smmu-setup choice runs on both sides, recorded as the page runs
// it, and its outcome is in the hazards list with its time and StreamID
// and in the narration, never a panic.
func TestSMMUSetupOutcomes(t *testing.T) {
	for _, pol := range []string{PolicyOff, PolicyOn} {
		c, _ := params(t, "smmu-setup", SetupConflict, "packets", "2000")
		var r *scenario.Result
		require.NotPanics(t, func() {
			var err error
			r, err = runConfig(c, pol, true, nil)
			require.NoError(t, err)
		})
		// Conflict: every engine read aborts with SMCF; the NIC is untouched.
		haz := hazardsWith(r, "sGFSR.SMCF", "StreamID 0x20:")
		require.NotEmpty(t, haz, pol)
		assert.Positive(t, haz[0].T, "the hazard has its time")
		assert.Equal(t, metric(t, r, "engine_reads"), metric(t, r, "aborted_transactions"), "every engine read aborts, no NIC transaction does")
		// A fault is recorded at the TCU, the abort heard back at the
		// engine: at most its 8 reads in flight at the run's end differ.
		assert.InDelta(t, metric(t, r, "engine_reads"), metric(t, r, "smmu_faults"), 8)
		assert.Zero(t, metric(t, r, "translated_hit_rate"))
		assert.Contains(t, stepText(r, "Two SMRs match the engine: SMCF"), "sGFSR.SMCF")
		assert.Contains(t, stepText(r, "Two SMRs match the engine: SMCF"), fmt.Sprintf("The first at %v", haz[0].T))
		assert.Equal(t, float64(2000), metric(t, r, "nic_reads"), "one read per 64-byte frame")
	}

	// Outside the mapping: reads of the window's last page fault (FSR.TF,
	// context bank 0, that page's address); the rest translate.
	r := runSide(t, PolicyOff, "smmu-setup", SetupOutside, "packets", "3000", "ws", "64KiB")
	haz := hazardsWith(r, "FSR.TF", "StreamID 0x20:", "context bank 0")
	require.NotEmpty(t, haz)
	last := uint64(engIOVA + 15<<12) // 64 KiB: 16 pages, the 16th unmapped
	for _, h := range haz {
		require.Equal(t, last, h.Addr&^0xfff, h.Cause)
	}
	faults, reads := metric(t, r, "smmu_faults"), metric(t, r, "engine_reads")
	assert.InDelta(t, faults, metric(t, r, "aborted_transactions"), 8, "at most the reads in flight at the end differ")
	assert.InDelta(t, reads/16, faults, reads/16*0.2, "about one read in 16 is of the unmapped page")
	assert.Greater(t, metric(t, r, "translated_hit_rate"), 80.0, "the mapped pages still hit")
	assert.Contains(t, stepText(r, "The engine reads an unmapped page: FSR.TF"), fmt.Sprintf("IOVA %#x", last))

	// CLIENTPD: no fault, no lookups; every engine transaction bypasses
	// translation and is listed (the first 64) as a hazard; both sides
	// are the same.
	var sides [2]*scenario.Result
	for i, pol := range []string{PolicyOff, PolicyOn} {
		sides[i] = runSide(t, pol, "smmu-setup", SetupClientPD, "packets", "2000")
		r := sides[i]
		assert.Zero(t, metric(t, r, "smmu_faults"))
		assert.Equal(t, metric(t, r, "engine_reads"), metric(t, r, "untranslated_transactions"))
		haz := hazardsWith(r, "CLIENTPD", "StreamID 0x20:", "untranslated")
		require.Len(t, haz, maxUntranslated)
		assert.GreaterOrEqual(t, haz[0].Addr, uint64(engIOVA))
		assert.Zero(t, metric(t, r, "bypass_hit_rate"), "the TBU looks nothing up")
		assert.Zero(t, metric(t, r, "tbu0_tcu_requests"))
		assert.Contains(t, narrationText(r), "The SMMU is off for clients: ")
		assert.Contains(t, stepText(r, "sCR0.CLIENTPD: the SMMU is off"), "reach memory as physical addresses")
		assert.NotContains(t, stepText(r, "What bounds the forwarding rate"), "walk slots")
	}
	assert.Equal(t, metric(t, sides[0], "bypass_read_latency_cycles"), metric(t, sides[1], "bypass_read_latency_cycles"), "the bit changes nothing with the SMMU off")

	// The normal setup has none of these and no setup step.
	n := runSide(t, PolicyOn, "packets", "500")
	assert.Empty(t, n.Hazards)
	assert.Zero(t, metric(t, n, "untranslated_transactions"))
	assert.Len(t, n.Narration, 8)
	for i := 1; i < len(n.Narration); i++ {
		assert.LessOrEqual(t, n.Narration[i-1].T, n.Narration[i].T)
	}
}

// engine-stage: stage 2 alone walks as stage 1 does (the same figures);
// a nested bank reads more descriptors a walk, and past the TLB's reach
// the engine's reads take longer. The narration says which.
func TestEngineStage(t *testing.T) {
	kv := []string{"packets", "3000", "ws", "8MiB"}
	s1 := runSide(t, PolicyOff, kv...)
	s2 := runSide(t, PolicyOff, append(kv, "engine-stage", StageS2)...)
	nested := runSide(t, PolicyOff, append(kv, "engine-stage", StageNested)...)
	for _, m := range []string{"translated_hit_rate", "translated_read_latency_cycles", "tcu_walk_reads", "tbu0_walks"} {
		assert.Equal(t, metric(t, s1, m), metric(t, s2, m), m)
	}
	per := func(r *scenario.Result) float64 { return metric(t, r, "tcu_walk_reads") / metric(t, r, "tbu0_walks") }
	assert.InDelta(t, 1, per(s1), 0.1, "stage 1: the walk caches leave one read a walk")
	assert.Greater(t, per(nested), 2.5, "nested: the stage-1 read and its stage-2 walk, then the output's stage-2 walk")
	assert.LessOrEqual(t, per(nested), 24.0)
	assert.Greater(t, metric(t, nested, "translated_read_latency_cycles"), metric(t, s1, "translated_read_latency_cycles")+30)
	assert.Contains(t, stepText(nested, "What the TBU caches"), "nested")
	assert.Contains(t, stepText(s2, "What the TBU caches"), "stage 2 alone")
	assert.NotContains(t, stepText(s1, "What the TBU caches"), "stage 2")
	// A fault still works nested: the unmapped page faults in stage 1.
	r := runSide(t, PolicyOn, "packets", "1000", "ws", "64KiB", "engine-stage", StageNested, "smmu-setup", SetupOutside)
	assert.NotEmpty(t, hazardsWith(r, "FSR.TF", "context bank 0 (level 3)"))
}
