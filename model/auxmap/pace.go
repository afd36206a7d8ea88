package auxmap

import (
	"context"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// Run simulates one policy (errors name the parameter at fault). It counts
// one unit of work per translation (a trace burst's, a loop pass's or a
// copy's page) and one per page vmap maps, vunmap unmaps or the views'
// recording reads (mmu.PageTable.Progress, Recording.Pace), and gives way
// every scenario.PaceQuantum units.
func (s *Scenario) Run(ctx context.Context, p scenario.Params, policy string, pace *scenario.Pacer) (*scenario.Result, error) {
	pace = pace.Bind(ctx)
	spec := s.Spec()
	if _, err := spec.Policy(policy); err != nil {
		return nil, err
	}
	c, err := s.parse(p)
	if err != nil {
		return nil, err
	}
	pace.Plan(planWork(c))
	if err := pace.Point(); err != nil {
		return nil, err
	}
	r, err := newRun(c, policy, pace)
	if err != nil {
		return nil, err
	}
	if err := r.simulate(fullIterations); err != nil {
		return nil, err
	}
	res := r.result()
	res.Scenario, res.Policy, res.Preset, res.Seed = spec.ID, policy, c.preset, Seed
	return res, pace.Point()
}

// planWork estimates a run's units of work (the progress shown is an
// estimate, clamped): per simulated iteration the session's pages twice
// (allocated and mapped, unmapped and freed), one unit per trace burst
// (with the program's pass beside it, replayed), the program's simulated
// passes' translations and, for SPE, one per batch of dd's blocks; and
// the recorded session's pages once more (its mappings are read for the
// views).
func planWork(c config) int64 {
	pages := int64(c.aux / mem.PageSize)
	steps := int64(c.code/mem.PageSize + c.dataPages())
	per := 2*pages + simulatedPasses*steps
	if c.unit == TRBE {
		per += int64(c.aux / max(c.burst, 1))
	} else {
		per += 2*int64(c.speBytes()/float64(max(c.burst, 1))) + countSamples
	}
	return int64(min(fullIterations, c.iters))*per + pages
}
