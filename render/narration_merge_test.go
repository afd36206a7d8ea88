package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMergeFigures(t *testing.T) {
	for _, c := range []struct {
		a, b, want string
		ok         bool
	}{
		{"averages 208.0 per iteration, of which 64.0 walks (16.0):", "averages 148.0 per iteration, of which 4.0 walks (17.0):",
			"averages A 208.0, B 148.0 per iteration, of which A 64.0, B 4.0 walks (A 16.0, B 17.0):", true},
		{"forward_pps is 10.9 Mpps, busy 93 %", "forward_pps is 10.8 Mpps, busy 92 %", "forward_pps is A 10.9, B 10.8 Mpps, busy A 93, B 92 %", true},
		{"SMTNMB_TLBEN is off: 140 cycles", "SMTNMB_TLBEN is on: 38 cycles", "", false}, // a word, not a figure
		{"same words", "same words", "", false}, // nothing to merge
		{"one two 3", "one two 3 4", "", false}, // not word for word
	} {
		got, ok := mergeFigures(c.a, c.b)
		assert.Equal(t, c.ok, ok, c.a)
		assert.Equal(t, c.want, got, c.a)
	}
}
