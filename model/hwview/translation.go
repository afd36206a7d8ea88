package hwview

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// tlbWatch maps a TLB event's (Level, Agent) to a declared TLB.
type tlbWatch struct {
	level int8
	agent uint8 // L1 TLBs only; the L2 TLB is shared
	tlb   int
	ways  int
}

// transWatch is the Recording's translation part.
type transWatch struct {
	tlbs []tlbWatch
	// walking[agent]: the agent missed in the L2 TLB and walks for va.
	walking [256]bool
	walkVA  [256]uint64
	// walkEnd[agent] is when the agent's current walk's last descriptor
	// arrived (0: no walk since its last L1 lookup): a fill after a walk
	// happens then, not at the request's time the event carries.
	walkEnd [256]sim.Time
}

// WatchTLBs declares the core's L1 data TLB and the shared L2 TLB of m
// (when m translates) so that their fills show in the TLB view, and
// starts recording walks. It returns false when m does not translate.
func (rec *Recording) WatchTLBs() bool {
	u, core := rec.m.MMU(), rec.m.CoreTLB()
	if u == nil || core == nil {
		return false
	}
	rec.watchTLB(core.L1, core.Name, "L1 data TLB (core)", 0, core.Owner)
	rec.watchTLB(u.L2, u.L2.Name, "L2 TLB (shared)", 1, 0)
	u.KeepWalk = rec.keepWalk
	return true
}

// keepWalk is the MMU's question before agent walks (mmu.MMU.KeepWalk):
// it begins the walk in the recorder, as the walk's first step would, and
// declines the steps of a walk the recorder's sampling drops, so the MMU
// runs it untraced. A declined walk's fills are recorded at their own
// time, which is the walk's last step's (the fill follows it), so nothing
// recorded changes. With a Next observer every step is wanted.
func (rec *Recording) keepWalk(agent uint8) bool {
	tw := &rec.tw
	if rec.Next != nil || len(tw.tlbs) == 0 || !tw.walking[agent] {
		return true // the step events decide, as without the question
	}
	tw.walking[agent] = false
	return rec.r.BeginWalk()
}

// WatchRequester declares a trace unit's L1 TLB (a soc.TracePort's
// requester), labelled label.
func (rec *Recording) WatchRequester(r *mmu.Requester, label string) {
	if r != nil {
		rec.watchTLB(r.L1, r.Name, label, 0, r.Owner)
	}
}

func (rec *Recording) watchTLB(t *mmu.TLB, name, label string, level int8, agent uint8) {
	c := t.Config()
	k := rec.r.AddTLB(timeline.TLBSpec{Name: name, Label: label, Entries: c.Entries, Ways: c.Ways, Level: int(level), Owner: agent})
	rec.tw.tlbs = append(rec.tw.tlbs, tlbWatch{level: level, agent: agent, tlb: k, ways: c.Ways})
}

// MapBuffer records the mappings of buffer id (bytes at va, translated by
// the machine's kernel table) and the allocator chunks its pages came
// from (in buffer order; nil for none), mapped now (machine time). It
// reads the table as software does, so it costs no simulated time.
func (rec *Recording) MapBuffer(id string, va, bytes uint64, chunks []mem.Chunk) error {
	k := rec.m.Kernel()
	if k == nil {
		return nil
	}
	return rec.mapTable(k.PT, id, va, bytes, chunks)
}

// MapIOVA records the mappings of an IOVA range of an IOMMU domain (a
// device's streaming mapping) as buffer id, mapped now (machine time).
func (rec *Recording) MapIOVA(id string, s *mmu.IOSpace, iova, bytes uint64) error {
	if s == nil {
		return nil
	}
	return rec.mapTable(s.PT, id, iova, bytes, nil)
}

func (rec *Recording) mapTable(pt *mmu.PageTable, id string, va, bytes uint64, chunks []mem.Chunk) error {
	first := rec.r.ChunkCount()
	cva := va
	for _, c := range chunks {
		rec.r.AddChunk(timeline.Chunk{PA: c.PA(), Order: c.Order, VA: cva})
		cva += uint64(mem.PageSize) << c.Order
	}
	if len(chunks) > 0 { // about one run per chunk: grow once
		rec.r.ReserveMappings(len(chunks))
	}
	ci, cend := first, va
	if len(chunks) > 0 {
		cend = va + uint64(mem.PageSize)<<chunks[0].Order
	}
	// One leaf at a time from the table; a hole is the error a Lookup of
	// it gives (the buffer must be mapped throughout).
	off := uint64(0)
	var err error
	now := rec.at(rec.m.Now()) // reading the table takes no simulated time
	pt.EachLeaf(va, bytes, func(l *mmu.Leaf) bool {
		a := va + off
		if l.VA > a {
			return false
		}
		n := min(l.VA+l.Bytes-a, bytes-off)
		for len(chunks) > 0 && a >= cend && ci-first < len(chunks)-1 {
			ci++
			cend += uint64(mem.PageSize) << chunks[ci-first].Order
		}
		chunk := -1
		if len(chunks) > 0 && a < cend && ci < timeline.MaxChunks {
			chunk = ci // chunks past MaxChunks are not recorded
		}
		pa, attr := l.PA+(a-l.VA), l.Prot.Attr.String()
		if !rec.r.ExtendMapping(a, pa, n, l.Bytes, attr, l.Prot.ReadOnly, chunk, id, now) {
			rec.r.MapRun(timeline.Mapping{VA: a, PA: pa, Bytes: n, Leaf: l.Bytes, Attr: attr,
				ReadOnly: l.Prot.ReadOnly, Chunk: chunk, Buffer: id, T: now})
		}
		off += n
		err = rec.Pace.Work(1)
		return err == nil && off < bytes
	})
	if err != nil {
		return err
	}
	if off < bytes {
		if _, err := pt.Lookup(va + off); err != nil {
			return err
		}
		return fmt.Errorf("%s: va %#x is not mapped", pt.Name(), va+off) // cannot happen: Lookup found no leaf
	}
	return nil
}

// translationEvent turns TLB fills and walk steps into the recorder's
// translation data.
func (rec *Recording) translationEvent(e *hwevent.Event) {
	tw := &rec.tw
	switch e.Kind {
	case hwevent.TLBLookup:
		if e.Level == 0 {
			tw.walkEnd[e.Agent] = 0
		}
		if e.Level == 1 && !e.Has(hwevent.Hit) {
			tw.walking[e.Agent] = true
			tw.walkVA[e.Agent] = e.Addr
		}
	case hwevent.WalkStep:
		if len(tw.tlbs) == 0 {
			return
		}
		if tw.walking[e.Agent] {
			tw.walking[e.Agent] = false
			rec.r.BeginWalk()
		}
		tw.walkEnd[e.Agent] = rec.at(e.T)
		rec.r.WalkStep(timeline.WalkStep{T: rec.at(e.T), Agent: e.Agent, VA: tw.walkVA[e.Agent], Level: int(e.Level),
			DescAddr: e.Addr, Desc: e.Victim, Kind: descKind(e.Victim, int(e.Level)), WalkCache: e.Has(hwevent.Hit)})
	case hwevent.TLBFill:
		for _, w := range tw.tlbs {
			if w.level == e.Level && (w.level == 1 || w.agent == e.Agent) {
				rec.r.TLBFill(max(rec.at(e.T), tw.walkEnd[e.Agent]), w.tlb, int(e.Set)*w.ways+int(e.Way),
					timeline.TLBEntryRec{VA: e.Addr, PA: e.Victim, Bytes: e.Bytes, Owner: e.Agent})
			}
		}
	}
}

// InvalidateTLBs records that every watched TLB lost its entries at t
// (machine time), after soc.Machine.InvalidateTLBs.
func (rec *Recording) InvalidateTLBs(t sim.Time) {
	for _, w := range rec.tw.tlbs {
		rec.r.TLBInvalidateAll(rec.at(t), w.tlb)
	}
}

// descKind names a VMSAv8-64 descriptor at level l: bit 0 valid, bit 1
// table (levels 0..2) or page (level 3), else block.
func descKind(d uint64, l int) string {
	switch {
	case d&1 == 0:
		return timeline.DescInvalid
	case l == 3 && d&2 != 0:
		return timeline.DescPage
	case l == 3:
		return timeline.DescInvalid
	case d&2 != 0:
		return timeline.DescTable
	}
	return timeline.DescBlock
}
