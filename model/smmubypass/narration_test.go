package smmubypass

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
)

// narrationText is every step's title and text, one a line.
func narrationText(r *scenario.Result) string {
	var b strings.Builder
	for _, s := range r.Narration {
		b.WriteString(s.Title + ": " + s.Text + "\n")
	}
	return b.String()
}

// step returns the narration step titled title ("" if none).
func stepText(r *scenario.Result, title string) string {
	for _, s := range r.Narration {
		if s.Title == title {
			return s.Text
		}
	}
	return ""
}

// TestNarrationFollowsSettings: the steps about the NIC's route, the
// TBU's hit time and the calibration change with disable-bypass,
// nic-stream and register-slices (the old fixed text said USFCFG=0,
// "Nothing matches" and 2 cycles whatever the settings).
func TestNarrationFollowsSettings(t *testing.T) {
	def := narrationText(runSide(t, PolicyOff, "packets", "500"))
	assert.Contains(t, def, "Nothing matches: The NIC's StreamID 0x1c00 matches no stream-match register. Booted with arm-smmu.disable_bypass=0, as the published figure ran, sCR0.USFCFG=0 and it bypasses")
	assert.Contains(t, def, "a hit costs 2 cycles,")
	assert.Contains(t, def, "SMTNMB_TLBEN is off")
	assert.Contains(t, def, "by calibration")
	assert.Contains(t, def, "TBU-TCU link (47 cycles a trip) is fitted to it. The 50 is a prediction")
	assert.Contains(t, def, "a snoop of the core's cluster 32 cycles")
	assert.Contains(t, def, "100 % of the NIC's reads were answered by a snoop")

	usf := runSide(t, PolicyOn, "disable-bypass", "true", "packets", "300")
	txt := narrationText(usf)
	assert.NotContains(t, txt, "sCR0.USFCFG=0 and it bypasses")
	assert.Contains(t, txt, "Nothing matches: a fault: ")
	assert.Contains(t, txt, "sCR0.USFCFG=1")
	assert.Contains(t, txt, "sGFSR.USF")
	assert.Contains(t, stepText(usf, "What caching a bypass buys"), "a fault is never held in the TBU")
	assert.Contains(t, stepText(usf, "What caching a bypass buys"), "no frame is read back", "no read to average")

	s2 := runSide(t, PolicyOff, "nic-stream", "s2cr-bypass", "s2crb", "true", "packets", "500")
	txt = narrationText(s2)
	assert.NotContains(t, txt, "Nothing matches")
	assert.Contains(t, txt, "An SMR matches: S2CR bypass: ")
	assert.Contains(t, txt, "matches SMR 1 (ID 0x1c00, MASK 0xff)")
	assert.Contains(t, txt, "does not apply here")
	assert.Contains(t, stepText(s2, "What caching a bypass buys"), "S2CRB_TLBEN, here on (SMTNMB_TLBEN, off")
	s2off := runSide(t, PolicyOn, "nic-stream", "s2cr-bypass", "s2crb", "false", "packets", "500")
	assert.Contains(t, stepText(s2off, "What caching a bypass buys"), "S2CRB_TLBEN, here off")
	assert.Contains(t, stepText(s2off, "What caching a bypass buys"), "misses in the TBU")

	sl := narrationText(runSide(t, PolicyOn, "register-slices", "true", "packets", "500"))
	assert.NotContains(t, sl, "a hit costs 2 cycles,")
	assert.Contains(t, sl, "a hit costs 3 cycles (2, plus 1 for the register slices)")
	assert.Contains(t, sl, "not the figure's defaults")
}

// TestNarrationSaysWhatBoundsForwarding: at the defaults (64-byte frames
// at 10 Gbit/s) the core bounds forward_pps on both sides; 256-byte frames
// are the line rate's; with no other core work at 40 Gbit/s the walk
// slots bound the bit-off side below the bit-on side, and the narration
// says which each time.
func TestNarrationSaysWhatBoundsForwarding(t *testing.T) {
	for _, pol := range []string{PolicyOff, PolicyOn} {
		step := stepText(runSide(t, pol, "packets", "3000"), "What bounds the forwarding rate")
		assert.Contains(t, step, "the core bounds the forwarding rate", pol)
		step = stepText(runSide(t, pol, "packets", "3000", "packet", "256"), "What bounds the forwarding rate")
		assert.Contains(t, step, "the line rate bounds the forwarding rate", pol)
		assert.Contains(t, step, "(10 Gbit/s of 256 B frames with 20 B of preamble and gap: 4.53 Mpps)", pol)
	}
	kv := []string{"packets", "5000", "line-rate", "40", "cpu-work", "0"}
	off, on := runSide(t, PolicyOff, kv...), runSide(t, PolicyOn, kv...)
	step := stepText(off, "What bounds the forwarding rate")
	assert.Contains(t, step, "below the offered 59.5 Mpps")
	assert.Contains(t, step, "behind the NIC's DMA")
	assert.Contains(t, stepText(on, "What bounds the forwarding rate"), "the core bounds")
	assert.Less(t, metric(t, off, "forward_pps"), 0.8*metric(t, on, "forward_pps"), "the cached bypass forwards more")
}

// The first steps land where their change is on the stage (the first two
// sat at 0 together, and the TBU's contents came before any fill): the
// StreamID step at the first transaction's issue, the NIC's route once
// its first transaction is back, what the TBU caches once an engine
// translation is in it.
func TestFirstStepsLandOnTransactions(t *testing.T) {
	for _, pol := range []string{PolicyOff, PolicyOn} {
		c, _ := params(t, "packets", "300")
		res, err := runConfig(c, pol, true, nil)
		assert.NoError(t, err)
		if !assert.NotNil(t, res.Timeline, pol) || !assert.GreaterOrEqual(t, len(res.Narration), 2, pol) {
			continue
		}
		txns := res.Timeline.SMMU.Txns
		assert.NotEmpty(t, txns, pol)
		first, route, tbu := res.Narration[0], res.Narration[1], res.Narration[2]
		assert.Equal(t, "A StreamID on every transaction", first.Title, pol)
		assert.Equal(t, "Nothing matches", route.Title, pol)
		assert.Equal(t, "What the TBU caches", tbu.Title, pol)
		assert.Equal(t, txns[0].Issue, first.T, "%s: the first step is not at the first transaction's issue", pol)
		assert.Greater(t, route.T, first.T, pol)
		assert.Greater(t, tbu.T, route.T, pol)
		back := func(m uint8, by sim.Time) bool {
			for _, x := range txns {
				if x.Master == m && x.Done <= by {
					return true
				}
			}
			return false
		}
		assert.True(t, back(masterNIC, route.T), "%s: no NIC transaction back by the route step at %v", pol, route.T)
		assert.True(t, back(masterEngine, tbu.T), "%s: no engine transaction back by the TBU step at %v", pol, tbu.T)
	}
}
