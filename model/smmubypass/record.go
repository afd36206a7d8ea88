package smmubypass

import (
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/smmu"
	"github.com/dmaviz/dmaviz/model/soc"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// recording is the timeline the SMMU view draws: a window on the TBU TLB
// (each entry owned by its stream's master; dirty marks a cached bypass),
// the stream-match table and masters (Timeline.SMMU), a sample of
// transactions with their path, gauges of the TBU's outstanding reads and
// walks, and the first transactions as phases on lanes nic and engine.
type recording struct {
	r                *run
	rec              *timeline.Recorder
	spec             *timeline.SMMUSpec
	tlb, reads, walk int
	phases, fills    int
	nextSample       sim.Time    // gauges are sampled every sampleEvery
	nextTxn          [2]sim.Time // per master, after the first allTxns
}

const (
	windowSets = 32
	maxPhases  = 400
	// sampleEvery spaces the gauge samples (a default run is ~22 ms).
	sampleEvery = 2 * sim.Microsecond
	maxFills    = 20000 // TLB fills recorded
	// allTxns transactions are recorded one by one, then one per master
	// every txnEvery (the view shows the one at the cursor).
	allTxns  = 400
	txnEvery = 2 * sim.Microsecond
	maxTxns  = 20000
)

// Master indices in SMMUSpec.Masters; writer ids are the agents.
const (
	masterNIC    = 0
	masterEngine = 1
)

func newRecording(r *run) *recording {
	rec := timeline.NewRecorder()
	t := r.tbu.TLB()
	g := &recording{r: r, rec: rec}
	g.tlb = rec.AddCache(timeline.CacheSpec{ID: "tbu0-tlb", Label: "TBU0 TLB", FirstSet: 0,
		Sets: min(windowSets, t.Sets()), TotalSets: t.Sets(), Ways: t.Ways(), LineBytes: 4096})
	g.reads = rec.AddValue(timeline.ValueSpec{ID: "tbu0_reads", Label: "TBU0 reads outstanding", Kind: timeline.ValueGauge, Grid: -1, Max: int64(r.s.Config().Reads)}, 0)
	g.walk = rec.AddValue(timeline.ValueSpec{ID: "tbu0_walks", Label: "TBU0 walks in flight", Kind: timeline.ValueGauge, Grid: -1, Max: int64(r.s.Config().Walks)}, 0)
	regs := &r.s.Regs
	g.spec = &timeline.SMMUSpec{Label: "MMU-500 TBU0", TLB: g.tlb, Clock: r.s.Config().Clock,
		USFCFG: regs.CR0&smmu.CR0USFCFG != 0, SMTNMBTLBEN: regs.ACR&smmu.ACRSMTNMBTLBEN != 0, S2CRBTLBEN: regs.ACR&smmu.ACRS2CRBTLBEN != 0,
		ClientPD: regs.CR0&smmu.CR0ClientPD != 0}
	// Room for the transactions the run is expected to record (the first
	// allTxns, then one per master every txnEvery while the packets
	// arrive), allocated once: growing the slice copies it a dozen times,
	// and in WebAssembly the collector runs on the one thread.
	arrivals := sim.Time(r.cfg.packets) * r.interval
	g.spec.Txns = make([]timeline.SMMUTxn, 0, min(maxTxns, allTxns+2*int(arrivals/txnEvery)+64))
	for i, smr := range regs.SMR {
		s2 := regs.S2CR[i]
		e := timeline.SMMUStreamMatch{ID: smr.ID, Mask: smr.Mask, Valid: smr.Valid, Type: s2.Type.String(), CB: s2.CBNDX}
		if cb := r.s.Bank(s2.CBNDX); s2.Type == smmu.Translate && cb != nil {
			switch {
			case cb.Nested():
				e.Stage = "nested"
			case cb.Stage == 2:
				e.Stage = "stage 2"
			}
		}
		g.spec.SMRs = append(g.spec.SMRs, e)
	}
	for _, m := range []struct {
		name  string
		sid   uint16
		agent uint8
	}{{"NIC", nicSID, nicAgent}, {"engine", engineSID, engAgent}} {
		d := regs.Decide(m.sid)
		g.spec.Masters = append(g.spec.Masters, timeline.SMMUMaster{Name: m.name, SID: m.sid, Writer: m.agent, SMR: d.SMR, Route: d.Route.String()})
	}
	return g
}

// wants reports whether txn would record anything of a transaction heard
// of at now (kept inline-sized: most are not recorded). Past maxTxns
// transactions only the gauges' samples are left to take (a default run
// reaches it in its last tenth, where every transaction would otherwise
// call txn for nothing).
func (g *recording) wants(now sim.Time, o *smmu.Outcome) bool {
	n := len(g.spec.Txns)
	return now >= g.nextSample || g.phases < maxPhases ||
		n < maxTxns && (n < allTxns || o.Issue >= g.nextTxn[0] || o.Issue >= g.nextTxn[1])
}

// txn records one transaction's outcome when the run hears of it, at now
// (o.Issue is when it was issued).
func (g *recording) txn(now sim.Time, o *smmu.Outcome, x *smmu.Txn) {
	t := o.Issue
	master := masterNIC
	if x.SID == engineSID {
		master = masterEngine
	}
	if now >= g.nextSample {
		g.nextSample = now + sampleEvery
		reads, _, walks := g.r.tbu.Busy(now)
		g.rec.Value(now, g.reads, int64(reads))
		g.rec.Value(now, g.walk, int64(walks))
	}
	if n := len(g.spec.Txns); n < maxTxns && (n < allTxns || t >= g.nextTxn[master]) {
		g.nextTxn[master] = t + txnEvery
		// Heard of as they complete: each goes in at its issue time from
		// the end (a few places back at most), so the slice stays in issue
		// order.
		// The place is found first and the later ones move up in one copy;
		// the new one is written field by field (a struct copy or literal
		// per transaction is a memory.copy call in WebAssembly).
		txns := g.spec.Txns
		if n < cap(txns) {
			txns = txns[:n+1]
		} else {
			txns = append(txns, timeline.SMMUTxn{})
		}
		i := n
		for i > 0 && txns[i-1].Issue > t {
			i--
		}
		if i < n {
			copy(txns[i+1:], txns[i:n])
		}
		d := &txns[i]
		d.Master, d.Write, d.Issue, d.Accept, d.Done = uint8(master), x.Write, t, o.Accept, o.Done
		d.Hit, d.TCU, d.Walked, d.Aborted, d.Addr, d.Served = o.Hit, o.TCU, o.Walked, o.Aborted, x.Addr, served(o.Served)
		g.spec.Txns = txns
	}
	if g.phases >= maxPhases {
		return
	}
	g.phases++
	lane := "nic"
	if master == masterEngine {
		lane = "engine"
	}
	kind := "tbu-hit"
	if o.TCU {
		kind = "tcu"
	}
	if o.Aborted {
		kind = "fault"
	}
	g.rec.Phase(timeline.Phase{Lane: lane, Kind: kind, Label: o.Route.String(), Start: t, End: o.Done})
}

// served is the timeline's name for where a read was answered.
func served(s soc.Served) uint8 {
	switch s {
	case soc.ServedSnoop:
		return timeline.ServedSnoop
	case soc.ServedL3:
		return timeline.ServedL3
	}
	return timeline.ServedDRAM
}

// fill records a TBU TLB fill at t, when it lands in the window.
func (g *recording) fill(t sim.Time, x *smmu.Txn, e int) {
	tlb := g.r.tbu.TLB()
	if g.fills >= maxFills || e/tlb.Ways() >= windowSets {
		return
	}
	owner := uint8(nicAgent)
	if x.SID == engineSID {
		owner = engAgent
	}
	if ent, ok := tlb.Entry(e); ok {
		g.fills++
		g.rec.CacheEntry(t, g.tlb, e, ent.VA, true, smmu.IsBypass(ent), owner)
	}
}

func (g *recording) finish(end sim.Time) *timeline.Timeline {
	tl := g.rec.Finish(end)
	tl.Writers = []string{"nic", "engine"}
	tl.SMMU = g.spec
	return tl
}
