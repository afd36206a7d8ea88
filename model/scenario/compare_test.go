package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompareAttachesReferencesToTheRightSide(t *testing.T) {
	spec := &Spec{
		ID: "x", DefaultA: "slow", DefaultB: "fast",
		References: []Reference{
			{Metric: "t_us", Policy: "slow", Value: 100, Tolerance: 0.1, Source: "s1"},
			{Metric: "t_us", Policy: "fast", Value: 30, Tolerance: 0.1, Source: "s1"},
			{Metric: "t_us", Pair: PairRatio, Value: 3.3, Tolerance: 0.1, Source: "s1"},
			{Metric: "t_us", Pair: PairChange, Value: -70, Tolerance: 3, Absolute: true, Source: "s1"},
		},
	}
	slow := &Result{Policy: "slow", Metrics: []Metric{{Name: "t_us", Value: 104}}, Checks: []Metric{{Name: "stale_bytes"}}}
	fast := &Result{Policy: "fast", Metrics: []Metric{{Name: "t_us", Value: 40}, {Name: "only_b", Value: 1}}, Checks: []Metric{{Name: "stale_bytes", Value: 64}}}

	rows := Compare(spec, nil, slow, fast)
	require.Len(t, rows, 3, "rows = %+v", rows)
	require.EqualValues(t, "t_us", rows[0].Name, "rows = %+v", rows)
	require.EqualValues(t, "stale_bytes", rows[1].Name, "rows = %+v", rows)
	require.True(t, rows[1].Check, "rows = %+v", rows)
	require.EqualValues(t, "only_b", rows[2].Name, "rows = %+v", rows)
	require.False(t, rows[2].HasA, "rows = %+v", rows)
	refs := rows[0].Refs
	require.Len(t, refs, 4, "refs = %+v", refs)
	want := []struct {
		side string
		got  float64
		ok   bool
	}{{"A", 104, true}, {"B", 40, false}, {"A/B", 2.6, false}, {"A/B", -61.538, false}}
	for i, w := range want {
		assert.EqualValues(t, w.side, refs[i].Side, "ref %d = %+v, want side %s got %.3f ok %v", i, refs[i], w.side, w.got, w.ok)
		assert.True(t, near(refs[i].Got, w.got), "ref %d = %+v, want side %s got %.3f ok %v", i, refs[i], w.side, w.got, w.ok)
		assert.EqualValues(t, w.ok, refs[i].OK, "ref %d = %+v, want side %s got %.3f ok %v", i, refs[i], w.side, w.got, w.ok)
	}

	// Swapped sides still compare the default pair the published way round.
	swapped := Compare(spec, nil, fast, slow)
	for _, r := range swapped[0].Refs {
		assert.False(t, r.Side == "A/B" && r.Pair == PairRatio && !near(r.Got, 2.6), "swapped ratio = %v, want 2.6", r.Got)
	}
	// A non-default pair gets no pair figures.
	other := &Result{Policy: "other", Metrics: []Metric{{Name: "t_us", Value: 1}}}
	for _, r := range Compare(spec, nil, slow, other)[0].Refs {
		assert.NotEqualValues(t, "A/B", r.Side, "pair figure shown for a non-default pair: %+v", r)
	}
}

func near(a, b float64) bool { d := a - b; return d < 1e-3 && d > -1e-3 }

func TestReferencesOnlyAtThePublishedSetting(t *testing.T) {
	spec := &Spec{ID: "x", DefaultA: "a", DefaultB: "b",
		Params:     []Param{{Name: "size", Kind: KindBytes, Default: "4MiB", Min: 1, Max: 1 << 30}},
		References: []Reference{{Metric: "t_us", Policy: "a", Value: 1, Tolerance: 0.1}}}
	a := &Result{Policy: "a", Metrics: []Metric{{Name: "t_us", Value: 1}}}
	b := &Result{Policy: "b", Metrics: []Metric{{Name: "t_us", Value: 2}}}
	p, _ := spec.Defaults()
	{
		rows := Compare(spec, p, a, b)
		require.Len(t, rows[0].Refs, 1, "defaults: %d references, want 1", len(rows[0].Refs))
	}
	require.NoError(t, spec.Set(p, "size", "8MiB"))
	{
		rows := Compare(spec, p, a, b)
		require.Len(t, rows[0].Refs, 0, "another size: %d references, want none", len(rows[0].Refs))
	}
}

func TestResolveMergesDefaultsAndRechecksValues(t *testing.T) {
	spec := &Spec{ID: "x", Params: []Param{
		{Name: "size", Kind: KindBytes, Default: "4MiB", Min: 4096, Max: 1 << 30},
		{Name: "mode", Kind: KindChoice, Default: "a", Choices: []Choice{{Value: "a"}, {Value: "b"}}},
		{Name: "on", Kind: KindBool, Default: "false"},
	}}
	full, err := spec.Resolve(Params{"size": {Num: 8192}, "on": {Num: 1}})
	require.NoError(t, err)
	require.EqualValues(t, 8192, full.Int("size"), "resolved %+v", full)
	require.EqualValues(t, "8KiB", full.Text("size"), "resolved %+v", full)
	require.EqualValues(t, "a", full.Text("mode"), "resolved %+v", full)
	require.True(t, full.Bool("on"), "resolved %+v", full)
	for _, c := range []struct {
		p    Params
		want string
	}{
		{Params{"zz": {}, "mm": {}}, "mm: unknown parameter for scenario x"},
		{Params{"size": {Num: 1}}, "size: 1B is out of range; allowed 4KiB..1GiB"},
		{Params{"mode": {Text: "c"}}, `mode: "c" is not allowed; allowed one of a, b`},
	} {
		{
			_, err := spec.Resolve(c.p)
			require.Error(t, err, "Resolve(%v) error %v, want %q", c.p, err, c.want)
			assert.Equal(t, c.want, err.Error(), "Resolve(%v) error %v, want %q", c.p, err, c.want)
		}
	}
}
