package sgsync

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Recording the first iteration changes no figure: the same run without a
// view gives the same metrics, checks and hazards (bar their grid cells).
func TestRecordingChangesNothing(t *testing.T) {
	for _, kv := range [][]string{
		small,
		with(small, "cpu", "writes", "entry-offset", "40"),
		with(small, "path", "swiotlb", "direction", "bidirectional"),
	} {
		for _, pol := range []string{PolicyPerEntry, PolicySkipUnmap} {
			c := mustParse(t, kv...)
			seen, err := runConfig(c, pol)
			require.NoError(t, err)
			r, err := setup(c, policyOf(pol), false)
			require.NoError(t, err)
			out, err := r.simulate()
			require.NoError(t, err)
			blind := r.result(out)
			assert.Equal(t, seen.Metrics, blind.Metrics, "%s %v", pol, kv)
			assert.Equal(t, seen.Checks, blind.Checks, "%s %v", pol, kv)
			require.Len(t, blind.Hazards, len(seen.Hazards))
			for i := range blind.Hazards {
				h := seen.Hazards[i]
				h.Grid, h.Cell = blind.Hazards[i].Grid, blind.Hazards[i].Cell
				assert.Equal(t, h, blind.Hazards[i], "%s %v", pol, kv)
			}
		}
	}
}
