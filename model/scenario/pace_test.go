package scenario

import (
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

type plain struct{ runs int }

func (*plain) Spec() *Spec { return &Spec{ID: "plain"} }
func (p *plain) Run(Params, string) (*Result, error) {
	p.runs++
	return &Result{Policy: "x"}, nil
}

func TestRunPacedFallsBackToRun(t *testing.T) {
	var seen []float64
	s := &plain{}
	res, err := RunPaced(s, nil, "x", NewPacer(func(d float64) error { seen = append(seen, d); return nil }))
	require.NoError(t, err)
	assert.Equal(t, "x", res.Policy)
	assert.Equal(t, []float64{0, 1}, seen)

	stop := errors.New("stop")
	_, err = RunPaced(s, nil, "x", NewPacer(func(float64) error { return stop }))
	assert.ErrorIs(t, err, stop)
	assert.Equal(t, 1, s.runs, "a run canceled before it starts does not run")
}
