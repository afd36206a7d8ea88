package auxmap

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
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
