package sgsync

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The chart's point at the run's entry size is the run's own saving, and
// the saving shrinks as entries grow (fewer waits to remove).
func TestChartSavingByEntrySize(t *testing.T) {
	a, b := runP(t, PolicyPerEntry), runP(t, PolicyBatched)
	require.Len(t, b.Charts, 1, "%d charts", len(b.Charts))
	ch := b.Charts[0]
	require.EqualValues(t, 4096, ch.Mark, "chart %+v", ch)
	require.True(t, ch.LogX, "chart %+v", ch)
	require.Len(t, ch.Series, 2, "chart %+v", ch)
	for i, name := range []string{"map_sg_us", "unmap_sg_us"} {
		s := ch.Series[i]
		require.Len(t, s.Points, 12, "%s: points %v", s.Name, s.Points)
		require.EqualValues(t, 512, s.Points[0].X, "%s: points %v", s.Name, s.Points)
		require.EqualValues(t, 1<<20, s.Points[11].X, "%s: points %v", s.Name, s.Points)
		want := 100 * (1 - metric(t, b, name)/metric(t, a, name))
		for _, p := range s.Points {
			// Within 1 point: the run's first walk reads descriptors from
			// DRAM, the chart's from the caches.
			assert.False(t, p.X == 4096 && math.Abs(p.Y-want) > 1, "%s at 4 KiB: chart %.4f %%, run %.4f %%", s.Name, p.Y, want)
		}
		for j := 1; j < len(s.Points); j++ {
			assert.False(t, s.Points[j].Y >= s.Points[j-1].Y, "%s: saving %.2f %% at %v B not below %.2f %% at %v B", s.Name, s.Points[j].Y, s.Points[j].X, s.Points[j-1].Y, s.Points[j-1].X)
		}
		t.Logf("%s: %v", s.Name, s.Points)
	}
}

// The chart's linear extension from a few entries matches a full list.
func TestChartExtensionMatchesFullList(t *testing.T) {
	for _, kv := range [][]string{
		{"total", "1MiB", "entry", "16KiB", "iterations", "1", "cpu", "none"},
		{"total", "512KiB", "entry", "2KiB", "iterations", "1", "cpu", "none", "entry-offset", "40", "path", "iommu"},
	} {
		a, b := runP(t, PolicyPerEntry, kv...), runP(t, PolicyBatched, kv...)
		c, _ := parse(New().Spec(), params(t, kv...))
		ch := savingChart(c)
		for i, name := range []string{"map_sg_us", "unmap_sg_us"} {
			want := 100 * (1 - metric(t, b, name)/metric(t, a, name))
			for _, p := range ch.Series[i].Points {
				// Within 1 point: the full run's first walk reads its
				// descriptors from DRAM, the chart's (after the earlier
				// points) from the caches; the rest is the same time.
				assert.False(t, p.X == float64(c.entry) && math.Abs(p.Y-want) > 1, "%v %s: chart %.6f %%, full list %.6f %%", kv, name, p.Y, want)
			}
		}
	}
}
