package smmubypass

import (
	"github.com/dmaviz/dmaviz/model/scenario"
)

// RunPaced is Run under a pacer (scenario.Paced): the run counts one unit
// of work per event it processes (a packet's step, an engine read) and one
// per TBU transaction, for the default run and each point of the
// working-set chart, and gives way every scenario.PaceQuantum units. Its
// result equals Run's.
func (s *Scenario) RunPaced(p scenario.Params, policyID string, pace *scenario.Pacer) (*scenario.Result, error) {
	spec := s.Spec()
	if _, err := spec.Policy(policyID); err != nil {
		return nil, err
	}
	c, err := parse(spec, p)
	if err != nil {
		return nil, err
	}
	total := planWork(c)
	for _, ws := range chartWS {
		k := c
		k.ws, k.packets = ws, min(c.packets, chartPackets)
		total += 2 * planWork(k)
	}
	pace.Plan(total)
	if err := pace.Point(); err != nil {
		return nil, err
	}
	res, err := runConfig(c, policyID, true, pace)
	if err != nil {
		return nil, err
	}
	res.Scenario = spec.ID
	if res.Charts, err = wsCharts(c, pace); err != nil {
		return nil, err
	}
	if err := pace.Point(); err != nil {
		return nil, err
	}
	return res, nil
}

// planWork estimates a run's units of work (the progress shown is an
// estimate, clamped): per packet its 7 steps, the TBU transactions of 4
// descriptors and 2 packet copies, and the engine's reads over the time
// the packets take at line rate.
func planWork(c config) int64 {
	beats := func(n int) int64 { return int64((n + c.burst - 1) / max(c.burst, 1)) }
	perPkt := 7 + 4*beats(descBytes) + 2*beats(c.packet)
	w := int64(c.packets) * perPkt
	if c.engineRate > 0 && c.rate > 0 {
		secs := float64(c.packets) * float64(c.packet+20) * 8 / c.rate
		w += 2 * int64(secs*c.engineRate/64) // one event and one transaction per read
	}
	return w
}
