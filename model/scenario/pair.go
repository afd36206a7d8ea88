package scenario

import "context"

// PairRunner is a Scenario whose two sides can share work: where two
// policies make the machine do the same thing, one simulation serves
// both. RunPair gives what Run gives for a and for b, as RunPair (the
// function) promises: each pacer hears before its side starts, and a
// failure is a *SideError.
type PairRunner interface {
	Scenario
	RunPair(ctx context.Context, p Params, a, b string, pa, pb *Pacer) (ra, rb *Result, err error)
}

// SideError is one side of a pair failing to run.
type SideError struct {
	Side   int // 0 for A, 1 for B
	Policy string
	Err    error
}

// Error says which side failed, e.g. "B (batched-dsb): total: ...".
func (e *SideError) Error() string {
	return "AB"[e.Side:e.Side+1] + " (" + e.Policy + "): " + e.Err.Error()
}

func (e *SideError) Unwrap() error { return e.Err }

// RunPair runs policies a (side A) and b (side B) of s with the same
// parameters: through s's own RunPair when s is a PairRunner, else as
// RunSide for A and then for B. pa and pb (either may be nil) pace A's and
// B's run; each hears at least once before its side starts, so a caller
// showing progress per side sees the side change. A failure is a
// *SideError naming the side; B does not run when A failed.
func RunPair(ctx context.Context, s Scenario, p Params, a, b string, pa, pb *Pacer) (ra, rb *Result, err error) {
	if pr, ok := s.(PairRunner); ok {
		return pr.RunPair(ctx, p, a, b, pa, pb)
	}
	if ra, err = RunSide(ctx, s, p, 0, a, pa); err != nil {
		return nil, nil, err
	}
	if rb, err = RunSide(ctx, s, p, 1, b, pb); err != nil {
		return nil, nil, err
	}
	return ra, rb, nil
}

// RunSide runs policy as side (0 for A, 1 for B) of a pair: it calls the
// pacer's Hook first (a run canceled by then does not start), then s.Run;
// a failure is a *SideError.
func RunSide(ctx context.Context, s Scenario, p Params, side int, policy string, pace *Pacer) (*Result, error) {
	pace = pace.Bind(ctx)
	if err := pace.Point(); err != nil {
		return nil, &SideError{Side: side, Policy: policy, Err: err}
	}
	res, err := s.Run(ctx, p, policy, pace)
	if err != nil {
		return nil, &SideError{Side: side, Policy: policy, Err: err}
	}
	return res, nil
}
