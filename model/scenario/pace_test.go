package scenario

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNilPacerDoesNothing(t *testing.T) {
	var p *Pacer
	p.Plan(10)
	assert.NoError(t, p.Work(1<<40))
	assert.NoError(t, p.Point())
	assert.NoError(t, p.Err())
	assert.Zero(t, p.Done())
}

func TestPacerCallsHookEveryQuantum(t *testing.T) {
	var seen []float64
	p := NewPacer(func(done float64) error { seen = append(seen, done); return nil })
	p.Plan(10 * PaceQuantum)
	for i := 0; i < 10*PaceQuantum; i += 1024 {
		require.NoError(t, p.Work(1024))
	}
	require.Len(t, seen, 10, "one call per quantum of work")
	for i := 1; i < len(seen); i++ {
		assert.Greater(t, seen[i], seen[i-1])
	}
	assert.InDelta(t, 1, seen[len(seen)-1], 0.01)
	// An estimate too small neither passes 1 nor goes back.
	p.Plan(PaceQuantum)
	require.NoError(t, p.Work(PaceQuantum))
	require.NoError(t, p.Point())
	assert.Equal(t, 1.0, seen[len(seen)-1])
	p.Plan(100 * PaceQuantum)
	require.NoError(t, p.Point())
	assert.Equal(t, 1.0, seen[len(seen)-1])
}

func TestPacerKeepsTheHooksError(t *testing.T) {
	calls := 0
	p := NewPacer(func(float64) error { calls++; return ErrCanceled })
	assert.NoError(t, p.Work(PaceQuantum-1))
	assert.ErrorIs(t, p.Work(1), ErrCanceled)
	assert.ErrorIs(t, p.Work(1), ErrCanceled)
	assert.ErrorIs(t, p.Point(), ErrCanceled)
	assert.ErrorIs(t, p.Err(), ErrCanceled)
	assert.Equal(t, 1, calls, "the hook is not asked again after it said stop")
}

// A bound pacer stops the run at its next call once the context is done,
// also when the context is canceled while the hook runs (the page cancels
// while the run is parked), and the hook is not asked again.
func TestPacerStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	calls := 0
	p := NewPacer(func(float64) error {
		calls++
		if calls == 2 {
			cancel() // while parked
		}
		return nil
	}).Bind(ctx)
	require.NoError(t, p.Work(PaceQuantum))
	assert.ErrorIs(t, p.Work(PaceQuantum), ErrCanceled, "canceled during the hook: stops right after it")
	assert.ErrorIs(t, p.Work(PaceQuantum), ErrCanceled)
	assert.ErrorIs(t, p.Point(), ErrCanceled)
	assert.Equal(t, 2, calls)

	ctx, cancel = context.WithCancel(t.Context())
	calls = 0
	p = NewPacer(func(float64) error { calls++; return nil }).Bind(ctx)
	cancel()
	assert.ErrorIs(t, p.Point(), ErrCanceled)
	assert.Zero(t, calls, "a canceled run's hook is not called")
}

// A nil pacer stays nil under a context that never ends (no call per unit
// of work) and becomes a hook-less one that stops the run under one that
// can be canceled.
func TestBindNilPacer(t *testing.T) {
	var p *Pacer
	assert.Nil(t, p.Bind(context.Background()))
	ctx, cancel := context.WithCancel(t.Context())
	bound := p.Bind(ctx)
	require.NotNil(t, bound)
	require.NoError(t, bound.Work(PaceQuantum))
	cancel()
	assert.ErrorIs(t, bound.Work(PaceQuantum), ErrCanceled)
}

// plain is a scenario without its own pair runner; fail names a policy
// it refuses.
type plain struct {
	runs []string
	fail string
}

func (*plain) Spec() *Spec { return &Spec{ID: "plain"} }
func (p *plain) Run(ctx context.Context, _ Params, policy string, pace *Pacer) (*Result, error) {
	pace = pace.Bind(ctx)
	if err := pace.Point(); err != nil {
		return nil, err
	}
	p.runs = append(p.runs, policy)
	if policy == p.fail {
		return nil, errors.New("refused")
	}
	return &Result{Policy: policy}, nil
}

// RunPair runs A then B; each side's pacer hears before its side starts;
// a failure names its side and B does not run after A failed; a pair
// canceled before it starts runs nothing.
func TestRunPairRunsTheSidesInTurn(t *testing.T) {
	var heard []string
	pacer := func(side string) *Pacer {
		return NewPacer(func(float64) error { heard = append(heard, side); return nil })
	}
	s := &plain{}
	ra, rb, err := RunPair(t.Context(), s, nil, "x", "y", pacer("A"), pacer("B"))
	require.NoError(t, err)
	assert.Equal(t, []string{"x", "y"}, []string{ra.Policy, rb.Policy})
	assert.Equal(t, []string{"x", "y"}, s.runs)
	require.NotEmpty(t, heard)
	assert.Equal(t, "A", heard[0])
	assert.Contains(t, heard, "B")

	for _, c := range []struct {
		fail, msg string
		side      int
		runs      []string
	}{{"x", "A (x): refused", 0, []string{"x"}}, {"y", "B (y): refused", 1, []string{"x", "y"}}} {
		s := &plain{fail: c.fail}
		ra, rb, err := RunPair(t.Context(), s, nil, "x", "y", nil, nil)
		assert.Nil(t, ra)
		assert.Nil(t, rb)
		assert.EqualError(t, err, c.msg)
		se, ok := errors.AsType[*SideError](err)
		require.True(t, ok)
		assert.Equal(t, c.side, se.Side)
		assert.Equal(t, c.fail, se.Policy)
		assert.Equal(t, c.runs, s.runs)
	}

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	s = &plain{}
	_, _, err = RunPair(ctx, s, nil, "x", "y", nil, nil)
	assert.ErrorIs(t, err, ErrCanceled)
	assert.Empty(t, s.runs, "a pair canceled before it starts does not run")
}

// pairRunner shares its sides' work.
type pairRunner struct{ plain }

func (p *pairRunner) RunPair(ctx context.Context, params Params, a, b string, pa, pb *Pacer) (ra, rb *Result, err error) {
	if ra, err = RunSide(ctx, p, params, 0, a, pa); err != nil {
		return nil, nil, err
	}
	shared := *ra
	shared.Policy = b
	return ra, &shared, nil
}

func TestRunPairUsesTheScenariosPairRunner(t *testing.T) {
	s := &pairRunner{}
	ra, rb, err := RunPair(t.Context(), s, nil, "x", "y", nil, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"x"}, s.runs, "B shared A's run")
	assert.Equal(t, "y", rb.Policy)
	assert.Equal(t, "x", ra.Policy)
}
