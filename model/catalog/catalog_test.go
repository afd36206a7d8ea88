package catalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
)

func TestEveryScenarioRegisters(t *testing.T) {
	r := &scenario.Registry{}
	for _, s := range all() {
		require.NoError(t, r.Register(s))
	}
	{
		got, want := len(Registry().All()), len(all())
		require.Equal(t, want, got, "Registry has %d scenarios, want %d", got, want)
	}
	{
		_, err := Registry().Get("demo")
		require.NoError(t, err)
	}
	{
		_, err := Registry().Get("no-such")
		require.Error(t, err, "unknown id accepted")
	}
}

func TestSpecsAreComplete(t *testing.T) {
	for _, s := range Registry().All() {
		spec := s.Spec()
		t.Run(spec.ID, func(t *testing.T) {
			assert.NotEqualValues(t, "", spec.Title, "missing title or explanation")
			assert.NotEqualValues(t, "", spec.Explanation, "missing title or explanation")
			p, err := spec.Defaults()
			require.NoError(t, err)
			for _, id := range []string{spec.DefaultA, spec.DefaultB} {
				{
					_, err := spec.Policy(id)
					require.NoError(t, err, "default policy")
				}
			}
			if spec.DefaultPreset != "" {
				d := spec.Param("preset")
				require.NotNil(t, d, "DefaultPreset %q but no preset choice parameter", spec.DefaultPreset)
				require.EqualValues(t, scenario.KindChoice, d.Kind, "DefaultPreset %q but no preset choice parameter", spec.DefaultPreset)
				{
					_, err := d.Parse(spec.DefaultPreset)
					require.NoError(t, err, "DefaultPreset")
				}
			}
			seen := map[string]bool{}
			for _, d := range spec.Params {
				assert.False(t, seen[d.Name], "parameter name %q empty or repeated", d.Name)
				assert.NotEqualValues(t, "", d.Name, "parameter name %q empty or repeated", d.Name)
				seen[d.Name] = true
			}
			for _, ref := range spec.References {
				assert.NotEqualValues(t, "", ref.Source, "reference for %s has no source", ref.Metric)
			}
			for _, id := range []string{spec.DefaultA, spec.DefaultB} {
				res, err := s.Run(t.Context(), p, id, nil)
				require.NoError(t, err, "Run(defaults, %s)", id)
				for _, c := range []string{"stale_bytes", "lost_bytes"} {
					{
						_, ok := res.Metric(c)
						assert.True(t, ok, "%s: no %s check", id, c)
					}
				}
				assert.NotNil(t, res.Timeline, "%s: no timeline", id)
				assert.NotEqualValues(t, 0, len(res.Timeline.Keyframes), "%s: no timeline", id)
			}
		})
	}
}
