package sweep

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/auxmap"
	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/etr"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// Every declared headline parses and charts a metric the scenario reports.
func TestHeadlinesAreValid(t *testing.T) {
	n := 0
	for _, s := range catalog.Registry().All() {
		spec := s.Spec()
		if spec.Headline == nil {
			continue
		}
		n++
		ax, err := ParseVary(spec, spec.Headline.Vary)
		require.NoError(t, err, spec.ID)
		assert.LessOrEqual(t, len(ax.Values), 8, "%s: the page runs every point on its one thread", spec.ID)
		// The page's heaviest default run, etr's, simulates a 4 MiB
		// buffer: no headline point simulates more.
		for _, v := range ax.Values {
			if ax.Param.Kind == scenario.KindBytes {
				assert.LessOrEqual(t, v.Num, float64(4<<20), "%s: headline point %s", spec.ID, v.Text)
			}
		}
		p, err := spec.Defaults()
		require.NoError(t, err)
		r, err := s.Run(t.Context(), p, spec.DefaultA, nil)
		require.NoError(t, err)
		_, ok := r.Metric(spec.Headline.Metric)
		assert.True(t, ok, "%s does not report its headline metric %s", spec.ID, spec.Headline.Metric)
	}
	assert.Positive(t, n)
}

// etr's headline: update time against buffer size for A and B, the 4 MiB
// published figures marked, each point a run of its own.
func TestETRHeadline(t *testing.T) {
	s := etr.New()
	spec := s.Spec()
	p, err := spec.Defaults()
	require.NoError(t, err)
	calls, paced := 0, 0
	ch, err := Headline(context.Background(), s, p, spec.DefaultA, spec.DefaultB, func() { calls++ },
		func(float64) error { paced++; return nil })
	require.NoError(t, err)
	require.NotNil(t, ch)
	assert.Equal(t, 14, calls, "one call before each of A and B at 7 points")
	assert.Greater(t, paced, 14, "the runs give way inside themselves too (the pacer's hook)")
	require.Len(t, ch.Series, 2)
	assert.Equal(t, "A", ch.Series[0].Name)
	assert.Equal(t, "B", ch.Series[1].Name)
	assert.True(t, ch.LogX)
	require.Len(t, ch.Published, 2)
	assert.Equal(t, 8148.32, ch.Published[0].Y)
	assert.Equal(t, float64(4<<20), ch.Published[0].X)
	for _, pt := range ch.Series[0].Points {
		if pt.X == 4<<20 {
			res, err := s.Run(t.Context(), p, spec.DefaultA, nil)
			require.NoError(t, err)
			v, _ := res.Metric(etr.MetricUpdate)
			assert.Equal(t, v, pt.Y, "the chart's 4 MiB point is the main run's figure")
		}
	}
}

// A pacer hook's cancel stops the headline (the page drops it when a main
// run starts or the setting changes).
func TestHeadlinePaceCancels(t *testing.T) {
	s := etr.New()
	spec := s.Spec()
	p, err := spec.Defaults()
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch, err := Headline(ctx, s, p, spec.DefaultA, spec.DefaultB, nil, func(float64) error {
		cancel()
		return scenario.ErrCanceled
	})
	assert.Nil(t, ch)
	require.Error(t, err)
	assert.True(t, errors.Is(err, scenario.ErrCanceled) || errors.Is(err, context.Canceled), "stopped by the cancel: %v", err)
}

// trbe-aux's headline draws all three policies: A and B, then the third
// (prefer-large-4k-vmap) named by its id, one point per fragmentation
// value each; the 4 KiB-vmap line stays at order-0's level, far above
// large vmap's.
func TestTRBEHeadlineDrawsEveryPolicy(t *testing.T) {
	s := auxmap.NewTRBE()
	spec := s.Spec()
	require.True(t, spec.Headline.AllPolicies)
	p, err := spec.Defaults()
	require.NoError(t, err)
	set := func(p scenario.Params, name, text string) {
		for _, d := range spec.Params {
			if d.Name == name {
				v, err := d.Parse(text)
				require.NoError(t, err)
				p[name] = v
			}
		}
	}
	set(p, auxmap.ParamAUX, "64MiB") // small and short: the shape, not the figure
	set(p, auxmap.ParamIterations, "2")
	// The trace unit's shape: a branch test of a page of code and one of
	// data adds two walks per session, not its default footprint's 144.
	set(p, auxmap.ParamCode, "4KiB")
	set(p, auxmap.ParamWorkingSet, "4KiB")
	calls := 0
	ch, err := Headline(context.Background(), s, p, auxmap.Order0, auxmap.PreferLarge, func() { calls++ }, nil)
	require.NoError(t, err)
	require.Len(t, ch.Series, 3)
	assert.Equal(t, []string{"A", "B", auxmap.PreferLarge4K}, []string{ch.Series[0].Name, ch.Series[1].Name, ch.Series[2].Name})
	assert.Equal(t, 18, calls, "three runs at each of 6 points")
	for i, ser := range ch.Series {
		require.Len(t, ser.Points, 6, ser.Name)
		for j, pt := range ser.Points {
			assert.Equal(t, ch.Series[0].Points[j].X, pt.X, "series %d point %d", i, j)
		}
	}
	for j := range ch.Series[0].Points {
		a, b, c := ch.Series[0].Points[j].Y, ch.Series[1].Points[j].Y, ch.Series[2].Points[j].Y
		// Within the factor of four the L2 TLB's four-page coalescing can
		// save (the auxmap tests' band), never far below order-0's level.
		assert.GreaterOrEqual(t, c, a/4, "frag %v", ch.Series[0].Points[j].X)
		assert.LessOrEqual(t, c, a*1.02, "frag %v", ch.Series[0].Points[j].X)
		assert.Greater(t, c, 100*b, "frag %v: far above large vmap", ch.Series[0].Points[j].X)
		if ch.Series[0].Points[j].X < 1 {
			assert.Less(t, b, a/2, "frag %v: large vmap cuts refills", ch.Series[0].Points[j].X)
		}
	}
	// The lone policy's run is the one a main run of it gives.
	set(p, auxmap.ParamFrag, "0.2")
	res, err := s.Run(t.Context(), p, auxmap.PreferLarge4K, nil)
	require.NoError(t, err)
	v, _ := res.Metric(auxmap.MetricL2Refill)
	assert.Equal(t, v, ch.Series[2].Points[2].Y)
}
