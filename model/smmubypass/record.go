package smmubypass

import (
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/smmu"
)

// recording is the timeline: a window on the TBU TLB (a valid entry's
// tag is its VA; dirty marks a cached bypass), gauges of the TBU's
// outstanding reads and walks, and the first transactions as phases on
// lanes master -> TBU -> TCU -> memory.
type recording struct {
	r                *run
	rec              *scenario.Recorder
	tlb, reads, walk int
	phases, fills    int
	nextSample       sim.Time // gauges are sampled every sampleEvery
}

const (
	windowSets = 32
	maxPhases  = 400
	// sampleEvery spaces the gauge samples (a run has ~10^6 transactions).
	sampleEvery = 500 * sim.Nanosecond
	maxFills    = 4000 // TLB fills recorded (each scans the TLB)
)

func newRecording(r *run) *recording {
	rec := scenario.NewRecorder()
	t := r.tbu.TLB()
	g := &recording{r: r, rec: rec}
	g.tlb = rec.AddCache(scenario.CacheSpec{ID: "tbu0-tlb", Label: "TBU0 TLB (dirty = cached bypass)", FirstSet: 0,
		Sets: min(windowSets, t.Sets()), TotalSets: t.Sets(), Ways: t.Ways(), LineBytes: 4096})
	g.reads = rec.AddValue(scenario.ValueSpec{ID: "tbu0_reads", Label: "TBU0 reads outstanding", Kind: scenario.ValueGauge, Grid: -1, Max: int64(r.s.Config().Reads)}, 0)
	g.walk = rec.AddValue(scenario.ValueSpec{ID: "tbu0_walks", Label: "TBU0 walks in flight", Kind: scenario.ValueGauge, Grid: -1, Max: int64(r.s.Config().Walks)}, 0)
	return g
}

// txn records one transaction's outcome at its issue time.
func (g *recording) txn(t sim.Time, o smmu.Outcome, x smmu.Txn) {
	if o.TCU && g.r.s.Regs.Caches(o.Route) && g.fills < maxFills {
		g.fills++
		tl := g.r.tbu.TLB()
		for _, sl := range tl.Entries() {
			if sl.Space == x.SID && sl.VA <= x.Addr && x.Addr < sl.VA+sl.Bytes && sl.Index/tl.Ways() < windowSets {
				g.rec.CacheLine(t, g.tlb, sl.Index, sl.VA, true, smmu.IsBypass(sl.TLBEntry))
				break
			}
		}
	}
	if t >= g.nextSample {
		g.nextSample = t + sampleEvery
		reads, _, walks := g.r.tbu.Busy(t)
		g.rec.Value(t, g.reads, int64(reads))
		g.rec.Value(t, g.walk, int64(walks))
	}
	if g.phases >= maxPhases {
		return
	}
	g.phases++
	lane := "nic"
	if x.SID == engineSID {
		lane = "engine"
	}
	kind := "tbu-hit"
	if o.TCU {
		kind = "tcu"
	}
	if o.Aborted {
		kind = "fault"
	}
	g.rec.Phase(scenario.Phase{Lane: lane, Kind: kind, Label: o.Route.String(), Start: t, End: o.Done})
}

func (g *recording) finish(end sim.Time) *scenario.Timeline {
	tl := g.rec.Finish(end)
	tl.Writers = []string{"nic", "engine"}
	return tl
}
