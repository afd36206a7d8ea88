package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// tagRows are the stream-match rows side a tags with master's name.
func tagRows(s *Scene, master string) []int32 {
	var out []int32
	rows := items(s, "a/smmu-smr")
	for _, tg := range items(s, "a/smmu-smr-text") {
		if tg.Text != master || tg.Fill != Background {
			continue
		}
		for _, r := range rows {
			if tg.Y > r.Y && tg.Y < r.Y+r.H && r.Fill != Surface {
				out = append(out, r.Index)
			}
		}
	}
	return out
}

// A stream-match conflict tags the engine on both SMRs that match it, and
// its hover names the conflict; with sCR0.CLIENTPD the table says the
// stream match is off and tags no master (the old view put both on "no
// match", as if USFCFG decided them).
func TestSMMUTableShowsConflictAndClientPD(t *testing.T) {
	a, b := smmuPair(t, "smmu-setup", "conflicting-smrs")
	s, st := smmuFrame(a, b, 0, 1440, 900)
	assert.ElementsMatch(t, []int32{0, 1}, tagRows(s, "engine"), "SMR0 and the catch-all SMR1 both match the engine")
	assert.Equal(t, []int32{2}, tagRows(s, "NIC"), "the NIC matches neither: the no-match row")
	hover := ""
	for _, it := range s.Items {
		if it.Ref.Kind == RefSMMU && it.Ref.Obj == smmuMaster && it.Ref.Index == 1 && it.Ref.Side == 0 {
			hover = st.Describe(it.Ref)
			break
		}
	}
	assert.Contains(t, hover, "engine: StreamID 0x20 matches SMR0 and SMR1: a stream-match conflict (sGFSR.SMCF)")

	a, b = smmuPair(t, "smmu-setup", "clientpd")
	s, _ = smmuFrame(a, b, 0, 1440, 900)
	assert.Empty(t, tagRows(s, "engine"))
	assert.Empty(t, tagRows(s, "NIC"))
	assert.Contains(t, joinTexts(s, "a/smmu-smr-text"), "CLIENTPD=1")
	s, _ = smmuFrame(a, b, a.End/2, 1440, 900)
	assert.Contains(t, joinTexts(s, "a/smmu-status"), "SMMU off (CLIENTPD): untranslated", "the status says why nothing was looked up")
	s, _ = smmuFrame(a, b, a.End/2, 1024, 768)
	assert.NotContains(t, joinTexts(s, "a/smmu-status"), "·  ·", "no empty path at 1024x768")
}

// An aborted transaction's status names its fault: SMCF for the engine
// matched twice, USF for the NIC matching nothing with USFCFG=1, TF for
// the engine's unmapped page.
func TestSMMUStatusNamesTheFault(t *testing.T) {
	for _, c := range []struct {
		kv   []string
		want string
	}{
		{[]string{"smmu-setup", "conflicting-smrs"}, "fault SMCF: aborted at the TCU"},
		{[]string{"disable-bypass", "true"}, "fault USF: aborted at the TCU"},
		{[]string{"smmu-setup", "engine-outside-mapping", "ws", "16KiB"}, "fault TF: aborted at the TCU"},
	} {
		a, b := smmuPair(t, c.kv...)
		found := false
		for _, tx := range a.Timeline.SMMU.Txns {
			if tx.Aborted {
				s, _ := smmuFrame(a, b, tx.Issue, 1440, 900)
				found = true
				assert.Contains(t, joinTexts(s, "a/smmu-status"), c.want, "%v", c.kv)
				break
			}
		}
		assert.True(t, found, "%v: an aborted transaction recorded", c.kv)
	}
}

// The stream-match table names a nested or stage-2 bank.
func TestSMMUTableNamesTheStage(t *testing.T) {
	a, b := smmuPair(t, "engine-stage", "nested")
	s, _ := smmuFrame(a, b, 0, 1440, 900)
	assert.Contains(t, joinTexts(s, "a/smmu-smr-text"), "→ translate CB0 (nested)")
	// Beside the panel in a 1024 px window the row is short, and the
	// stage stays in it.
	s, _ = smmuFrameLeft(a, b, 0, 1024, 768, 340)
	assert.Contains(t, joinTexts(s, "a/smmu-smr-text"), "CB0 (nested)")
	a, b = smmuPair(t, "engine-stage", "s2")
	s, _ = smmuFrame(a, b, 0, 1440, 900)
	assert.Contains(t, joinTexts(s, "a/smmu-smr-text"), "→ translate CB0 (stage 2)")
	a, b = smmuPair(t)
	s, _ = smmuFrame(a, b, 0, 1440, 900)
	assert.Contains(t, joinTexts(s, "a/smmu-smr-text"), "→ translate CB0|")
}
