package catalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// Every scenario gives the same result paced or not, gives way more than
// once on its default setting when it is Paced, reports progress that never
// goes back, and stops at the first pacing point that says cancel.
func TestPacedRunsEqualPlainRunsAndCancel(t *testing.T) {
	for _, s := range Registry().All() {
		spec := s.Spec()
		t.Run(spec.ID, func(t *testing.T) {
			p, err := spec.Defaults()
			require.NoError(t, err)
			plain, err := s.Run(p, spec.DefaultB)
			require.NoError(t, err)

			var seen []float64
			pace := scenario.NewPacer(func(d float64) error { seen = append(seen, d); return nil })
			paced, err := scenario.RunPaced(s, p, spec.DefaultB, pace)
			require.NoError(t, err)
			assert.Equal(t, plain, paced, "pacing changed the result")
			// A default run of less than two quanta of work need not give
			// way (vmap's 4 MiB buffer); the rest must.
			_, isPaced := s.(scenario.Paced)
			small := pace.Done() < 2*scenario.PaceQuantum
			if isPaced && !small {
				assert.Greater(t, len(seen), 2, "a paced run gives way during the default run")
			}
			for i := 1; i < len(seen); i++ {
				assert.GreaterOrEqual(t, seen[i], seen[i-1], "progress went back")
			}
			require.NotEmpty(t, seen)
			assert.LessOrEqual(t, seen[len(seen)-1], 1.0)

			if !isPaced || small {
				return
			}
			calls, after := 0, 0
			cancel := scenario.NewPacer(func(float64) error {
				calls++
				if calls > len(seen)/2 {
					after++
					return scenario.ErrCanceled
				}
				return nil
			})
			res, err := scenario.RunPaced(s, p, spec.DefaultB, cancel)
			assert.ErrorIs(t, err, scenario.ErrCanceled)
			assert.Nil(t, res)
			assert.Equal(t, 1, after, "the run went on asking after it was told to stop")
			assert.Less(t, cancel.Done(), pace.Done(), "a canceled run stopped before the end")
		})
	}
}
