package smmubypass

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/smmu"
	"github.com/dmaviz/dmaviz/model/soc"
)

// Stream ids and agents.
const (
	nicSID    = 0x1c00 // matches no SMR (unmatched) or SMR 1 (s2cr-bypass)
	engineSID = 0x0020 // SMR 0: translate through context bank 0
	nicAgent  = 2
	engAgent  = 3
	engIOVA   = 0x4000_0000 // the engine's IOVA window
)

// conflictSMR is smmu-setup conflicting-smrs' second SMR: a bypass group
// for StreamIDs 0x00..0xff, which also covers the engine's (SMR 0).
var conflictSMR = smmu.SMR{ID: 0, Mask: 0xff, Valid: true}

// maxUntranslated bounds the hazards recorded for translated-stream
// transactions that bypassed (sCR0.CLIENTPD); the check counts all.
const maxUntranslated = 64

// config is a run's validated parameters.
type config struct {
	preset string
	// hw points to the hardware overrides (hw.<path>), nil without: a
	// pointer keeps config comparable (narration compares it with the
	// defaults', which have none).
	hw                               *map[string]float64
	packets, ring, flows, rxBurst    int
	packet, burst                    int
	rate                             float64 // bits per second
	cpuWork                          int
	ws                               uint64
	engineRate                       float64 // bytes per second
	streams, tbuTLB                  int
	s2crBypass, s2crb, disableBypass bool
	slices                           bool
	setup                            string // smmu-setup
	stage                            string // engine-stage
	seed                             uint64
	// link, when not 0, replaces the preset's TBU-TCU link (the fit's
	// check varies it; no parameter sets it).
	link int
}

func parse(spec *scenario.Spec, p scenario.Params) (config, error) {
	f, err := spec.Resolve(p)
	if err != nil {
		return config{}, err
	}
	c := config{preset: f.Text("preset"), packets: int(f.Int("packets")), ring: int(f.Int("ring")), flows: int(f.Int("flows")),
		rxBurst: int(f.Int("rx-burst")), packet: int(f.Int("packet")), burst: int(f.Int("burst")), rate: f.Float("line-rate") * 1e9,
		cpuWork: int(f.Int("cpu-work")), ws: uint64(f.Int("ws")), engineRate: f.Float("engine-rate") * 1e9,
		streams:    int(f.Int("engine-streams")),
		s2crBypass: f.Text("nic-stream") == "s2cr-bypass", s2crb: f.Bool("s2crb"), disableBypass: f.Bool("disable-bypass"),
		slices: f.Bool("register-slices"), setup: f.Text("smmu-setup"), stage: f.Text("engine-stage"), seed: uint64(f.Int("seed"))}
	if hw := f.Hardware(); hw != nil {
		c.hw = &hw
	}
	if _, err := fmt.Sscan(f.Text("tbu-tlb"), &c.tbuTLB); err != nil { // a choice: the spec has checked it
		return config{}, fmt.Errorf("tbu-tlb: %w", err)
	}
	if n := txnsPerPacket(c); c.ring*n > maxInFlight {
		return config{}, fmt.Errorf("ring: %d frames of %d B in %d B bursts may have %d NIC transactions in flight; allowed at most %d: at most %d frames in flight at this packet and burst (or raise burst)",
			c.ring, c.packet, c.burst, c.ring*n, maxInFlight, maxInFlight/n)
	}
	// The NIC's transactions and the engine's reads are bounded together.
	if err := bound(c); err != nil {
		return config{}, err
	}
	return c, nil
}

// pkt is one in-flight packet slot's state.
type pkt struct {
	id      int
	step    int
	pending int  // NIC transactions of the current step not yet done
	aborted bool // one of its transactions aborted (the frame is dropped)
	t0      sim.Time
}

// coreWork is a packet waiting for the core (l3fwd's poll finds it at t).
type coreWork struct {
	t    sim.Time
	slot int32
}

// run is one simulation.
type run struct {
	cfg      config
	acr      uint32
	s        *smmu.SMMU
	tbu      *smmu.TBU
	m        *soc.Machine
	agent    int      // the run's agent id on m (the SMMU is another)
	lpm      uint64   // VA of the route table (tbl24 slice)
	flowIdx  []uint32 // each flow's tbl24 index
	bufs     []soc.Buffer
	perBuf   int // frame buffers (slots) per element of bufs
	slots    []pkt
	free     []int32    // packet slots with no packet (taken last freed first)
	core     []coreWork // packets waiting for the core, in order (from coreHead)
	coreHead int
	burstBuf []int32  // the slots of the core's current burst
	next     int      // next packet to arrive
	arrival  sim.Time // when the arrival step is queued (Never: not queued)
	clock    sim.Freq // the SMMU's platform clock
	interval sim.Time // arrival spacing at line rate (a frame's wire time)
	txNext   sim.Time // when the port is ready for the next frame's read
	work     sim.Time
	done     int // packets forwarded
	dropped  int // packets dropped (a DMA transaction aborted)
	first    sim.Time
	last     sim.Time
	rng      *sim.RNG
	engGap   sim.Time
	wsPages  uint64
	st       stats
	rec      *recording
	pace     *scenario.Pacer // nil when not paced
	// txn is the transaction a step issues, written field by field: a
	// struct literal is two memory.copy calls in WebAssembly.
	txn smmu.Txn
	err error
}

// stats are the figures the run measures.
type stats struct {
	nicReads, nicReadLat uint64 // count, sum in ps
	nicHits, nicTxns     uint64
	engReads, engReadLat uint64
	engHits              uint64
	aborts               uint64
	nicServed            [3]uint64         // the NIC's reads by where they were answered (soc.Served)
	untranslated         uint64            // the engine's transactions that bypassed (CLIENTPD)
	untransHaz           []scenario.Hazard // the first maxUntranslated of them
	hist                 [histBins]uint64  // NIC read latency histogram (histWidth cycles)
	forwarded            []uint32          // packets completed per throughput bucket
	bucket               sim.Time
	packetLat            uint64
	coreBusy             sim.Time
	coreFrames           uint64 // frames the core processed
	polls                uint64 // the core's polls that found frames
	// firstTxn is the earliest issued transaction of all, nicFirst the
	// NIC's, engBack the engine's first back (its translation is then in
	// the TBU TLB): where the narration's first steps are on the stage.
	firstTxn, nicFirst, engBack txnSeen
}

// txnSeen is one transaction's issue and return, kept while seen is
// false or a later one is earlier by the keeper's measure.
type txnSeen struct {
	seen        bool
	issue, done sim.Time
}

// note keeps o if it was issued before the one kept.
func (s *txnSeen) note(o *smmu.Outcome) {
	if !s.seen || o.Issue < s.issue {
		s.seen, s.issue, s.done = true, o.Issue, o.Done
	}
}

// noteBack keeps o if it came back before the one kept.
func (s *txnSeen) noteBack(o *smmu.Outcome) {
	if !s.seen || o.Done < s.done {
		s.seen, s.issue, s.done = true, o.Issue, o.Done
	}
}

const (
	histBins   = 40
	histWidth  = 10 // cycles per bin
	tputBucket = 20 * sim.Microsecond
)

// The masters' events on the machine's queue (the run is one agent, the
// SMMU another): a packet slot's next step, an engine stream's next read,
// the next packet's arrival; the kind in the low bits.
const (
	evPacket = iota
	evEngine
	evArrive
	evBits = 2
)

func (r *run) schedule(t sim.Time, kind, i int) {
	if err := r.m.Schedule(t, r.agent, i<<evBits|kind); err != nil && r.err == nil {
		r.err = err
		r.m.EndSteps()
	}
}

// Step implements soc.Agent: the masters' events.
func (r *run) Step(t sim.Time, ev int) {
	i := ev >> evBits
	switch ev & (1<<evBits - 1) {
	case evEngine: // one read of engine stream i (in Step: a call fewer per read)
		va := engIOVA + (r.rng.Uint64()%r.wsPages)<<mmu.PageShift + (r.rng.Uint64()%64)*64
		x := &r.txn
		x.SID, x.Addr, x.Bytes, x.Write, x.Agent, x.Tag, x.Early = engineSID, va, 64, false, engAgent, int32(i), true
		r.tbu.IssueTxn(t, x)
	case evArrive:
		r.arrival = sim.Never
		r.arrive(t)
	default:
		r.packetStep(t, i)
	}
}

// arrive starts every packet that has arrived by t in a free slot (the
// NIC takes a buffer from the pool), and queues the arrival step for the
// next packet if a slot is free for it; otherwise the next slot to free
// takes it.
func (r *run) arrive(t sim.Time) {
	for r.next < r.cfg.packets && len(r.free) > 0 {
		at := sim.Time(r.next) * r.interval
		if at > t {
			if at < r.arrival {
				r.arrival = at
				r.schedule(at, evArrive, 0)
			}
			return
		}
		i := r.free[len(r.free)-1]
		r.free = r.free[:len(r.free)-1]
		r.slots[i] = pkt{id: r.next, t0: t}
		r.next++
		r.packetStep(t, int(i))
	}
}

// simulate runs every agent on the one clock until the last packet is
// out: the machine's queue holds the SMMU's steps and the masters'; the
// core runs between them (its route lookups catch the queue up before
// they touch the caches or DRAM).
func (r *run) simulate() error {
	c := r.cfg
	r.slots = make([]pkt, min(c.ring, c.packets))
	for i := len(r.slots) - 1; i >= 0; i-- {
		r.free = append(r.free, int32(i))
	}
	r.arrival = sim.Never
	r.arrive(0)
	if c.engineRate > 0 {
		r.engGap = sim.Time(float64(c.streams) * 64 / c.engineRate * 1e12)
		for i := 0; i < c.streams; i++ {
			r.schedule(sim.Time(i)*r.engGap/sim.Time(c.streams), evEngine, i)
		}
	}
	// The queue's steps run in batches (RunSteps) up to the core's next
	// work: a step that leaves work for the core, or forwards the last
	// packet, ends its batch (EndSteps).
	for n := 0; r.done+r.dropped < c.packets; {
		if n >= paceEvery {
			n -= paceEvery
			if err := r.pace.Work(paceEvery * unitsPerEvent); err != nil {
				return err
			}
		}
		if r.err != nil {
			return r.err
		}
		if err := r.s.Err(); err != nil {
			return err
		}
		tq, ok := r.m.NextEvent()
		limit := sim.Never
		if r.coreHead < len(r.core) {
			w := r.core[r.coreHead]
			at := max(w.t, r.m.Now())
			if !ok || at <= tq {
				if err := r.coreBurst(w.t); err != nil {
					return err
				}
				n++
				continue
			}
			limit = at - 1 // the queue's steps before the core's
		}
		if !ok {
			return fmt.Errorf("the run stalled after %d of %d packets", r.done+r.dropped, c.packets)
		}
		n += r.m.RunSteps(limit, paceEvery-n)
	}
	return nil
}

// paceEvery is how many events run between pacing points; each counts
// unitsPerEvent units of work, so the pacer's hook (every
// scenario.PaceQuantum units) comes every ~4000 events, a few
// milliseconds in WebAssembly.
const (
	paceEvery     = 64
	unitsPerEvent = 4
)

// Done implements smmu.Sink: a transaction is back at its master at t.
func (r *run) Done(t sim.Time, x *smmu.Txn, o *smmu.Outcome) {
	lat := o.Done - o.Issue
	if o.Aborted {
		r.st.aborts++
	}
	r.st.firstTxn.note(o)
	switch x.SID {
	case nicSID:
		r.st.nicFirst.note(o)
	case engineSID:
		r.st.engBack.noteBack(o)
	}
	if r.rec != nil && r.rec.wants(t, o) {
		r.rec.txn(t, o, x)
	}
	i := int(x.Tag)
	if x.SID == engineSID {
		if o.Route == smmu.RouteDisabled {
			r.untranslated(x, o)
		}
		r.st.engReads++
		r.st.engReadLat += uint64(lat)
		if o.Hit {
			r.st.engHits++
		}
		// Heard early: its next read is queued (schedule, written out: a
		// call fewer per engine read).
		if err := r.m.Schedule(max(o.Done, o.Issue+r.engGap), r.agent, i<<evBits|evEngine); err != nil && r.err == nil {
			r.err = err
			r.m.EndSteps()
		}
		return
	}
	r.st.nicTxns++
	if o.Hit {
		r.st.nicHits++
	}
	if !x.Write {
		r.st.nicReads++
		r.st.nicReadLat += uint64(lat)
		b := int(r.clock.InCycles(lat)) / histWidth
		r.st.hist[min(b, histBins-1)]++
		if !o.Aborted {
			r.st.nicServed[o.Served]++
		}
	}
	p := &r.slots[i]
	p.aborted = p.aborted || o.Aborted
	if p.pending--; p.pending == 0 {
		r.packetStep(t, i)
	}
}

// untranslated notes one of the engine's transactions that reached
// memory without translation: its IOVA went out as a physical address.
func (r *run) untranslated(x *smmu.Txn, o *smmu.Outcome) {
	r.st.untranslated++
	if len(r.st.untransHaz) < maxUntranslated {
		r.st.untransHaz = append(r.st.untransHaz, scenario.Hazard{T: o.Accept, Addr: x.Addr, AddrKind: "IOVA", Bytes: int64(x.Bytes), Grid: -1,
			Cause: fmt.Sprintf("StreamID %#x: sCR0.CLIENTPD=1 (SMMU off for clients), so this IOVA reached memory untranslated, as a physical address (context bank 0 unused)", x.SID)})
	}
}

// Filled implements smmu.FillSink: a TBU TLB entry written at t.
func (r *run) Filled(t sim.Time, x *smmu.Txn, entry int) {
	if r.rec != nil {
		r.rec.fill(t, x, entry)
	}
}
