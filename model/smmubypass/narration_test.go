package smmubypass

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
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
// TBU's hit time and the calibration change with usfcfg, nic-stream and
// register-slices (the old fixed text said USFCFG=0, "Nothing matches"
// and 2 cycles whatever the settings).
func TestNarrationFollowsSettings(t *testing.T) {
	def := narrationText(runSide(t, PolicyOff, "packets", "500"))
	assert.Contains(t, def, "Nothing matches: The NIC's StreamID 0x1c00 matches no stream-match register. With sCR0.USFCFG=0 it bypasses")
	assert.Contains(t, def, "a hit costs 2 cycles,")
	assert.Contains(t, def, "SMTNMB_TLBEN is off")
	assert.Contains(t, def, "by calibration")
	assert.Contains(t, def, "TBU-TCU link (40 cycles a trip) is fitted to 140")
	assert.Contains(t, def, "read path below the SMMU (48 cycles) to 50")

	usf := runSide(t, PolicyOn, "usfcfg", "true", "packets", "300")
	txt := narrationText(usf)
	assert.NotContains(t, txt, "With sCR0.USFCFG=0 it bypasses")
	assert.Contains(t, txt, "Nothing matches: a fault: ")
	assert.Contains(t, txt, "sCR0.USFCFG=1")
	assert.Contains(t, txt, "sGFSR.USF")
	assert.Contains(t, stepText(usf, "What caching a bypass buys"), "a fault is never held in the TBU")

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

// TestNarrationSaysWhatBoundsForwarding: at the defaults forward_pps is
// the offered load on both sides and the narration says so; at a line
// rate past the walk slots' bound it is below the offered load with the
// bit off, and the narration says that instead.
func TestNarrationSaysWhatBoundsForwarding(t *testing.T) {
	for _, pol := range []string{PolicyOff, PolicyOn} {
		r := runSide(t, pol, "packets", "3000")
		step := stepText(r, "What bounds the forwarding rate")
		require.NotEmpty(t, step)
		assert.Contains(t, step, "the line rate bounds the forwarding rate", pol)
		assert.Contains(t, step, "(10 Gbit/s of 256 B frames with 20 B of preamble and gap: 4.53 Mpps)", pol)
	}
	fast := runSide(t, PolicyOff, "packets", "3000", "line-rate", "40")
	step := stepText(fast, "What bounds the forwarding rate")
	assert.NotContains(t, step, "the line rate bounds")
	assert.Contains(t, step, "below the offered 18.1 Mpps")
	pps := metric(t, fast, "forward_pps")
	assert.Less(t, pps, 0.99*40e9/(276*8))
}
