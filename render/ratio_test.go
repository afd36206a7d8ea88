package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRatioTextNeverRoundsToZeroOrCallsZeroOverZeroOne(t *testing.T) {
	for _, c := range []struct {
		a, b float64
		want string
	}{
		{0, 0, "="},
		{5, 5, "="},
		{2560, 1, "×0.000391"},
		{8158, 2557, "×0.313"},
		{514.2, 2464, "×4.79"},
		{0, 853.7, "–"},
		{463.4, 164, "×0.354"},
		{1, 2e7, "×20000000"},
		{491.5, 0, "×0"},
	} {
		assert.Equal(t, c.want, RatioText(c.a, c.b), "%v / %v", c.b, c.a)
	}
}
