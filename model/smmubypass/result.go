package smmubypass

import (
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// runConfig is one run without the working-set chart.
func runConfig(c config, policyID string, record bool, pace *scenario.Pacer) (*scenario.Result, error) {
	r, err := setup(c, policyID, record)
	if err != nil {
		return nil, err
	}
	r.pace = pace
	if err := r.simulate(); err != nil {
		return nil, err
	}
	res := r.result()
	res.Policy, res.Preset, res.Seed = policyID, c.preset, c.seed
	return res, nil
}

func ratio(a, b uint64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// result turns the run's counts into metrics, checks, hazards, charts,
// narration and the timeline.
func (r *run) result() *scenario.Result {
	clk := r.s.Config().Clock
	cyc := func(sum, n uint64) float64 { return clk.InCycles(sim.Time(ratio(sum, n))) }
	span := r.last - r.first
	pps := 0.0
	if span > 0 {
		pps = float64(r.done) / (float64(span) / 1e12)
	}
	tb := r.tbu.Stats
	tcu := r.s.TCUStats()
	faults, nFaults := r.s.Faults()
	res := &scenario.Result{End: r.last,
		Metrics: []scenario.Metric{
			{Name: "bypass_read_latency_cycles", Label: "NIC bypass read latency (average)", Unit: "cycles", Value: cyc(r.st.nicReadLat, r.st.nicReads), Group: "time"},
			{Name: "forward_pps", Label: "forwarding rate", Unit: "pps", Value: pps, Group: "time"},
			{Name: "translated_hit_rate", Label: "engine TBU hit rate", Unit: "%", Value: 100 * ratio(r.st.engHits, r.st.engReads), Group: "model"},
			{Name: "translated_read_latency_cycles", Label: "engine read latency (average)", Unit: "cycles", Value: cyc(r.st.engReadLat, r.st.engReads), Group: "time"},
			{Name: "bypass_hit_rate", Label: "NIC TBU hit rate", Unit: "%", Value: 100 * ratio(r.st.nicHits, r.st.nicTxns), Group: "model"},
			{Name: "packet_latency_us", Label: "packet arrival to TX done (average)", Unit: "us", Value: sim.Time(ratio(r.st.packetLat, uint64(r.done))).Microseconds(), Group: "time"},
			{Name: "core_busy_pct", Label: "core busy (poll, lookup, rewrite)", Unit: "%", Value: 100 * ratio(uint64(r.st.coreBusy), uint64(span)), Group: "model"},
			{Name: "rx_burst_avg", Label: "frames per poll (average)", Value: ratio(r.st.coreFrames, r.st.polls), Group: "model"},
			{Name: "tbu0_tcu_requests", Label: "TBU0 misses sent to the TCU", Value: float64(tb.TCURequests), Group: "model"},
			{Name: "tbu0_walks", Label: "TBU0 table walks", Value: float64(tb.Walks), Group: "model"},
			{Name: "tbu0_walk_stalls", Label: "TBU0 misses held (8 walks in flight)", Value: float64(tb.WalkStalls), Group: "model"},
			{Name: "tbu0_outstanding_stalls", Label: "TBU0 transactions held (128 outstanding)", Value: float64(tb.OutstandingStalls), Group: "model"},
			{Name: "tbu0_stall_us", Label: "TBU0 time masters were held", Unit: "us", Value: tb.StallTime.Microseconds(), Group: "time"},
			{Name: "tcu_walk_reads", Label: "TCU descriptor reads", Value: float64(tcu.WalkReads), Group: "model"},
			{Name: "nic_reads", Label: "NIC reads", Value: float64(r.st.nicReads), Group: "model"},
			{Name: "engine_reads", Label: "engine reads", Value: float64(r.st.engReads), Group: "model"},
			{Name: "packets", Label: "packets forwarded", Value: float64(r.done), Group: "model"},
			{Name: "dropped_packets", Label: "packets dropped (a DMA transaction aborted)", Value: float64(r.dropped), Group: "model"},
		},
		Checks: []scenario.Metric{
			{Name: "stale_bytes", Label: "stale bytes", Unit: "B", Value: 0},
			{Name: "lost_bytes", Label: "lost bytes", Unit: "B", Value: 0},
			{Name: "smmu_faults", Label: "SMMU faults", Value: float64(nFaults)},
			{Name: "aborted_transactions", Label: "aborted transactions", Value: float64(r.st.aborts)},
			{Name: "untranslated_transactions", Label: "engine transactions that bypassed translation (sCR0.CLIENTPD)", Value: float64(r.st.untranslated)},
		},
	}
	for _, f := range faults {
		kind := "PA" // the NIC's addresses are physical (it bypasses)
		if f.SID == engineSID {
			kind = "IOVA"
		}
		res.Hazards = append(res.Hazards, scenario.Hazard{T: f.T, Addr: f.Addr, AddrKind: kind, Cause: f.Cause(), Grid: -1})
	}
	res.Hazards = append(res.Hazards, r.st.untransHaz...)
	res.Narration = r.narration(res)
	if r.rec != nil { // the histogram and throughput are drawn on the stage's SMMU view
		res.Timeline = r.rec.finish(r.last)
		res.Timeline.SMMU.LatencyHist = r.histogram()
		res.Timeline.SMMU.Throughput = r.throughput()
	}
	return res
}

// histogram is the NIC's read latency distribution (% of reads per bin).
func (r *run) histogram() []timeline.Point {
	var pts []timeline.Point
	for i, n := range r.st.hist {
		pts = append(pts, timeline.Point{X: float64(i*histWidth + histWidth/2), Y: 100 * ratio(n, r.st.nicReads)})
	}
	return pts
}

// maxTputPoints bounds the throughput curve's points (the stage draws each
// as a line).
const maxTputPoints = 200

// throughput is packets forwarded per microsecond over the run, in buckets
// of a whole number of tputBucket so that there are at most maxTputPoints.
func (r *run) throughput() []timeline.Point {
	var pts []timeline.Point
	n := len(r.st.forwarded)
	k := max((n+maxTputPoints-1)/maxTputPoints, 1)
	per := float64(k) * float64(tputBucket) / float64(sim.Microsecond)
	for i := 0; i < n; i += k {
		sum := uint32(0)
		for _, v := range r.st.forwarded[i:min(i+k, n)] {
			sum += v
		}
		pts = append(pts, timeline.Point{X: (float64(i/k) + 0.5) * per, Y: float64(sum) / per})
	}
	return pts
}
