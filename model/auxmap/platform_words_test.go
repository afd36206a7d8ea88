package auxmap

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spe-aux has no published figure of its own: its narration says its
// platform is the one chosen for trbe-aux's figure, not that "the
// published TRBE figure's platform is not named" as if it were trbe-aux.
func TestPlatformStepNamesWhoseFigure(t *testing.T) {
	for _, c := range []struct {
		s    *Scenario
		want string
	}{{NewTRBE(), "The published TRBE figure's platform is not named"}, {NewSPE(), "No SPE figure is published"}} {
		res := runP(t, c.s, string(Order0), "aux", "4MiB", "iterations", "1")
		text := ""
		for _, st := range res.Narration {
			if strings.HasPrefix(st.Title, "Which core") {
				text = st.Text
			}
		}
		assert.Contains(t, text, c.want, c.s.Spec().ID)
		if c.s.Spec().ID == "spe-aux" {
			assert.False(t, strings.HasPrefix(text, "The published TRBE"), "spe-aux's platform step opens with TRBE's figure")
		}
	}
}

// On a preset whose core has no such trace unit the platform step says
// the run is a what-if, with the reason; where the core has it, not.
func TestPlatformStepSaysWhenTheCoreLacksTheUnit(t *testing.T) {
	for _, c := range []struct {
		s      *Scenario
		preset string
		lacks  string // "" when the core has the unit
	}{
		{NewTRBE(), "juno-r2", "juno-r2's core has no TRBE (the Cortex-A53 implements Armv8.0-A"},
		{NewSPE(), "ls2088a", "ls2088a's core has no SPE (the Cortex-A72 implements Armv8.0-A"},
		{NewTRBE(), "dimensity-9500", ""},
		{NewSPE(), "dimensity-9500", ""},
		{NewSPE(), "neoverse-n1", ""},
	} {
		res := runP(t, c.s, string(Order0), "aux", "256KiB", "iterations", "1", "preset", c.preset)
		text := ""
		for _, st := range res.Narration {
			if strings.HasPrefix(st.Title, "Which core") {
				text = st.Text
			}
		}
		require.NotEmpty(t, text, "%s on %s: no platform step", c.s.Spec().ID, c.preset)
		if c.lacks == "" {
			assert.NotContains(t, text, "what-if", "%s on %s", c.s.Spec().ID, c.preset)
			continue
		}
		assert.Contains(t, text, c.lacks, "%s on %s", c.s.Spec().ID, c.preset)
		assert.Contains(t, text, "this run is a what-if")
	}
}
