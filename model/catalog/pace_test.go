package catalog

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// Every scenario gives the same result paced or not, gives way more than
// once on its default setting (unless that is under two quanta of work),
// reports progress that never goes back, and stops at its next pacing
// point once its context is canceled (here by the hook, as the page
// cancels while a run is parked), without asking the hook again; under a
// context canceled before it starts it stops with or without a pacer.
func TestPacedRunsEqualPlainRunsAndCancel(t *testing.T) {
	for _, s := range Registry().All() {
		spec := s.Spec()
		t.Run(spec.ID, func(t *testing.T) {
			p, err := spec.Defaults()
			require.NoError(t, err)
			plain, err := s.Run(t.Context(), p, spec.DefaultB, nil)
			require.NoError(t, err)

			var seen []float64
			pace := scenario.NewPacer(func(d float64) error { seen = append(seen, d); return nil })
			paced, err := s.Run(t.Context(), p, spec.DefaultB, pace)
			require.NoError(t, err)
			assert.Equal(t, plain, paced, "pacing changed the result")
			// A default run of less than two quanta of work need not give
			// way (vmap's 4 MiB buffer, the demo); the rest must.
			small := pace.Done() < 2*scenario.PaceQuantum
			if !small {
				assert.Greater(t, len(seen), 2, "a paced run gives way during the default run")
			}
			for i := 1; i < len(seen); i++ {
				assert.GreaterOrEqual(t, seen[i], seen[i-1], "progress went back")
			}
			require.NotEmpty(t, seen)
			assert.LessOrEqual(t, seen[len(seen)-1], 1.0)

			done, stop := context.WithCancel(t.Context())
			stop()
			for _, pace := range []*scenario.Pacer{nil, scenario.NewPacer(nil)} {
				res, err := s.Run(done, p, spec.DefaultB, pace)
				assert.ErrorIs(t, err, scenario.ErrCanceled, "a run under a canceled context")
				assert.True(t, res == nil, "a canceled run's result")
			}

			if small {
				return
			}
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			calls, after := 0, 0
			canceled := scenario.NewPacer(func(float64) error {
				calls++
				if calls > len(seen)/2+1 {
					after++
				}
				if calls > len(seen)/2 {
					cancel()
				}
				return nil
			})
			res, err := s.Run(ctx, p, spec.DefaultB, canceled)
			assert.ErrorIs(t, err, scenario.ErrCanceled)
			assert.True(t, res == nil, "a canceled run's result")
			assert.Zero(t, after, "the run went on asking after its context was canceled")
			assert.Less(t, canceled.Done(), pace.Done(), "a canceled run stopped before the end")
		})
	}
}
