package sgsync

import (
	"context"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// RunPair runs policies a and b at p (scenario.PairRunner). On the SWIOTLB
// path and with a coherent device the two DSB policies make the machine do
// the same thing (SWIOTLB waits per entry under either policy; a coherent
// device needs no maintenance, so there is nothing to wait for): there B's
// result is A's under B's policy id instead of a second simulation of the
// same thing. The result is the same either way (a test checks it); only
// the time to compute it halves.
func (s *Scenario) RunPair(ctx context.Context, p scenario.Params, a, b string, pa, pb *scenario.Pacer) (ra, rb *scenario.Result, err error) {
	if ra, err = scenario.RunSide(ctx, s, p, 0, a, pa); err != nil {
		return nil, nil, err
	}
	if !s.same(p, a, b) {
		if rb, err = scenario.RunSide(ctx, s, p, 1, b, pb); err != nil {
			return nil, nil, err
		}
		return ra, rb, nil
	}
	if err := pb.Bind(ctx).Point(); err != nil {
		return nil, nil, &scenario.SideError{Side: 1, Policy: b, Err: err}
	}
	shared := *ra // the slices and the timeline are shared, read-only
	shared.Policy = b
	return ra, &shared, nil
}

// same reports whether policies a and b (a valid) make the machine do the
// same thing at p.
func (s *Scenario) same(p scenario.Params, a, b string) bool {
	spec := s.Spec()
	if _, err := spec.Policy(b); err != nil {
		return false
	}
	c, err := parse(spec, p)
	if err != nil {
		return false
	}
	return shares(c) && effective(c, policyOf(a)) == effective(c, policyOf(b))
}

// effective is the policy as the machine sees it on c's path.
func effective(c config, pol policy) policy {
	if shares(c) {
		pol.perEntry = false
	}
	return pol
}

// shares reports whether runs on c's path can share a simulation.
func shares(c config) bool { return c.path == pathSWIOTLB || c.path == pathCoherent }

var _ scenario.PairRunner = (*Scenario)(nil)
