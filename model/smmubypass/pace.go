package smmubypass

import (
	"context"
	"strconv"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// Run simulates one policy. It counts unitsPerEvent units of work per
// event it takes from the queue (a transaction's completion or TCU answer,
// a packet's or an engine stream's next step), for the default run and
// each point of the working-set chart, and gives way every
// scenario.PaceQuantum units.
func (s *Scenario) Run(ctx context.Context, p scenario.Params, policyID string, pace *scenario.Pacer) (*scenario.Result, error) {
	pace = pace.Bind(ctx)
	spec := s.Spec()
	if _, err := spec.Policy(policyID); err != nil {
		return nil, err
	}
	c, err := parse(spec, p)
	if err != nil {
		return nil, err
	}
	off := policyID == PolicyOff
	total := planWork(c, off)
	for _, ws := range chartWS {
		k := c
		k.ws, k.packets = ws, chartPoints(c)
		total += planWork(k, true) + planWork(k, false)
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
	// Each point runs fewer packets than the setting (chartPoints).
	fixed := append(spec.Held(p, "ws", "packets"), "packets="+strconv.Itoa(chartPoints(c))+" a point")
	for i := range res.Charts {
		res.Charts[i].Fixed = fixed
	}
	if err := pace.Point(); err != nil {
		return nil, err
	}
	return res, nil
}

// planWork estimates a run's units of work (the progress shown is an
// estimate, clamped): per packet its arrival and the core's step, and one
// event per NIC transaction (the frame in and out, the annotation), two
// when they miss in the TBU (off: the bypass is not cached); one per
// engine read over the time the packets take at line rate.
func planWork(c config, off bool) int64 {
	perTxn := int64(1)
	if off {
		perTxn = 2
	}
	perPkt := 2 + perTxn*int64(txnsPerPacket(c))
	w := int64(c.packets) * perPkt
	if c.engineRate > 0 && c.rate > 0 {
		secs := float64(c.packets) * float64(c.packet+20) * 8 / c.rate
		w += int64(secs * c.engineRate / 64)
	}
	return w * unitsPerEvent
}
