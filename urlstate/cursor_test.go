package urlstate

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/sim"
)

// Every time FormatTime prints reads back, up to the largest sim.Time
// ("9223372.036854775807s"); one picosecond more is refused.
func TestLargestTimesRoundTrip(t *testing.T) {
	for _, s := range []string{"9223372s", "9223372.036854775807s", "9223372036854775807"} {
		v, err := ParseTime(s)
		require.NoError(t, err, s)
		back, err := ParseTime(FormatTime(v))
		require.NoError(t, err, FormatTime(v))
		assert.Equal(t, v, back, s)
	}
	max := sim.Time(int64(^uint64(0) >> 1))
	got, err := ParseTime(FormatTime(max))
	require.NoError(t, err)
	assert.Equal(t, max, got)
	for _, s := range []string{"9223372.036854775808s", "9223373s", "9223372036854775808"} {
		_, err := ParseTime(s)
		assert.Error(t, err, s)
	}
}
