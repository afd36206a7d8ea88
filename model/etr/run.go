package etr

import (
	"context"
	"fmt"

	"github.com/dmaviz/dmaviz/model/dmaapi"
	"github.com/dmaviz/dmaviz/model/hwview"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// Seed is the run's RNG seed (cache replacement where a preset uses random
// replacement). Fixed, so a URL always shows the same run.
const Seed = 1

// maxCells bounds the ETR grid: up to 65536 cells it shows one cache line
// per cell, larger buffers show several lines per cell.
const maxCells = 65536

// cacheWindowSets is how many sets of L1D and L2 the cache views show.
const cacheWindowSets = 16

// Run simulates one policy (errors name the parameter at fault), paced
// as pace.go says.
func (s *Scenario) Run(ctx context.Context, p scenario.Params, policy string, pace *scenario.Pacer) (*scenario.Result, error) {
	pace = pace.Bind(ctx)
	spec := s.Spec()
	pol, err := LookupPolicy(policy)
	if err != nil {
		return nil, err
	}
	c, err := parse(spec, p)
	if err != nil {
		return nil, err
	}
	r, err := newRun(c, pol)
	if err != nil {
		return nil, err
	}
	r.pace = pace
	pace.Plan(planWork(c, r.pol.NC))
	if err := pace.Point(); err != nil { // building the machine took a while
		return nil, err
	}
	if pace != nil {
		// A sync's DC ops over the whole buffer give way as they go (one
		// unit a line: workBytes is the line size the plan counts in).
		r.m.Progress = func(lines int) {
			r.dcPaced += int64(lines)
			_ = pace.Work(int64(lines))
		}
	}
	if err := r.simulate(); err != nil {
		return nil, err
	}
	res := r.result()
	res.Scenario, res.Policy, res.Preset, res.Seed = spec.ID, policy, c.preset, Seed
	return res, nil
}

// run is one simulation of one policy.
type run struct {
	c   config
	pol *Policy
	m   *soc.Machine

	buf  soc.Buffer // the ETR buffer through the cacheable linear map
	nc   soc.Buffer // its Normal-NC alias (coherent policy only)
	src  soc.Buffer // the mapping the CPU reads the buffer through
	aux  soc.Buffer // the perf AUX pages (order-0, cacheable)
	regs soc.Buffer // the TMC's registers (Device memory)
	etr  *Device
	api  *dmaapi.Device // the DMA API for the ETR
	mp   dmaapi.Mapping // the buffer as the DMA API knows it
	ring AUX

	// Recording (the live session only).
	live      bool
	rec       *timeline.Recorder
	recording *hwview.Recording
	obs       *observer
	origin    sim.Time
	cellBytes uint64
	ids       ids
	steps     []scenario.Step

	wait [2]sim.Time // start and end of the last DSB SY the DMA API issued

	// barrierAt is where the last barrier packet was written, and
	// barrierDirty whether its line may still be dirty in the cache (no
	// sync for the device since); prevBarrier* are the same for the
	// session before the current one.
	barrierAt, prevBarrierAt  uint64
	barrierDirty, prevBarrier bool
	// zeroDirty marks, per buffer line, the allocation's zero lines the
	// caches held dirty when the buffer was handed to the ETR (nil when
	// none); sessions counts the sessions since the allocation (only the
	// first can meet them).
	zeroDirty []bool
	sessions  int
	fates0    scenario.Fates // the machine's fates when the live session began
	narrated  int            // machine hazards narrated so far
	path      path           // the live session's tmc_update_etr_buffer
	fullAt    sim.Time       // when STS.FULL set in the live session (0: not yet)

	pace *scenario.Pacer // nil when not paced
	// dcPaced is the DC ops already counted by the machine's Progress
	// during the current sync.
	dcPaced int64
}

// ids are the recorded objects' indices.
type ids struct {
	grid, auxGrid              int
	rrp, rwp, full, head, tail int
	truncated, dcInFlight      int
	sync                       [2]int
	barrier                    int // span: the barrier packet's cell
}

func newRun(c config, pol *Policy) (*run, error) {
	m, err := soc.New(c.hw, Seed)
	if err != nil {
		return nil, err
	}
	r := &run{c: c, pol: pol, m: m}
	if r.etr, err = NewDevice(m, c.rate); err != nil {
		return nil, fmt.Errorf("%s: %w", ParamRate, err)
	}
	// The ETR is not coherent on Juno (and the presets' other SoCs).
	if r.api, err = dmaapi.New(m, r.etr.ID(), dmaapi.Config{}); err != nil {
		return nil, err
	}
	if err := r.alloc(); err != nil {
		return nil, fmt.Errorf("%s: %w", ParamBuffer, err)
	}
	r.noteZeroDirty()
	if err := m.Track(r.buf); err != nil {
		return nil, err
	}
	r.etr.Program(r.buf)
	r.api.Listener = r
	if r.aux, err = m.AllocChunks("perf-aux", c.aux, mem.Normal, 0); err != nil {
		return nil, fmt.Errorf("%s: %w", ParamAUX, err)
	}
	r.ring = AUX{Size: c.aux}
	if r.regs, err = m.Alloc("etr-regs", mem.PageSize, mem.Device); err != nil {
		return nil, err
	}
	return r, nil
}

// simulate sets up the prior CPU state, then records one session: the
// trace arriving and tmc_update_etr_buffer.
func (r *run) simulate() error {
	if err := r.prior(); err != nil {
		return err
	}
	r.startRecording()
	return r.session()
}

// prior brings the caches into the chosen state before the session. None
// of it is timed or counted: the measurement starts with the session.
func (r *run) prior() error {
	switch r.c.prior {
	case PriorCold:
		return nil
	case PriorCached:
		return r.readPaced(r.buf.VA, r.buf.Size)
	}
	// Steady state: one earlier session of the same workload, copied out
	// by the same policy through the same mapping; user space then
	// consumed the AUX data.
	if err := r.session(); err != nil {
		return err
	}
	r.ring.Tail = r.ring.Head
	return nil
}

// session is one perf session: the ETR writes the trace from the base,
// then the driver runs tmc_update_etr_buffer.
func (r *run) session() error {
	r.sessions++
	r.prevBarrierAt, r.prevBarrier = r.barrierAt, r.barrierDirty
	r.barrierDirty = false
	r.etr.Start()
	step := max(mem.PageSize, r.c.size/256)
	traceStart := r.m.Now()
	if r.live {
		r.narrateTrace()
	}
	if err := r.etr.Trace(r.c.written, step, r.paceTrace(step)); err != nil {
		return err
	}
	if err := r.pace.Err(); err != nil {
		return err
	}
	if r.live {
		r.phase("etr", "dma-write", "ETR writes trace", traceStart, r.m.Now())
	}
	p, err := r.update()
	if r.live {
		r.path = p
	}
	return err
}

// startRecording attaches the recorder after the prior state: grids of
// the ETR buffer and the AUX ring, windows on L1D and L2, the pointers,
// and the caches' current content as the initial state at time 0.
func (r *run) startRecording() {
	m := r.m
	r.live = true
	r.origin = m.Now()
	r.fates0 = hwview.Fates(m.Fates())
	r.rec = timeline.NewRecorder()
	r.recording = hwview.NewRecording(m, r.rec)
	etrW := r.rec.Writer("etr")
	lines := r.c.size / m.LineBytes()
	r.cellBytes = m.LineBytes() * ((lines + maxCells - 1) / maxCells)
	r.ids.grid = r.recording.Grid("etr-buf", "ETR buffer ("+scenario.FormatBytes(int64(r.c.size))+")", r.buf, r.cellBytes)
	// Room for the events the session records, so the event slice grows
	// once: about two per cell (the ETR's write, the copy's read) through
	// the Normal-NC alias, 3.4 with the cacheable buffer (the sync's
	// invalidates and the cache windows), measured at the default 4 MiB.
	perCell := 2
	if !r.pol.NC {
		perCell = 4
	}
	r.rec.Reserve(perCell*int(r.c.size/r.cellBytes) + 8192)
	r.ids.auxGrid = r.recording.Grid("aux", "perf AUX ring ("+scenario.FormatBytes(int64(r.c.aux))+", pages)", r.aux, mem.PageSize)
	// The windows are over the sets the buffer's lines fill (in L2 a
	// small buffer fills none of sets 0..15).
	firsts := []int{r.recording.WindowOver(0, cacheWindowSets, r.ids.grid), r.recording.WindowOver(1, cacheWindowSets, r.ids.grid)}
	windows := []int{
		r.recording.Cache("l1d", "L1D", 0, firsts[0], cacheWindowSets),
		r.recording.Cache("l2", "L2", 1, firsts[1], cacheWindowSets),
	}
	g, a := r.ids.grid, r.ids.auxGrid
	r.ids.rrp = r.rec.AddValue(timeline.ValueSpec{ID: "rrp", Label: "RRP (read pointer)", Kind: timeline.ValuePointer, Grid: g}, 0)
	r.ids.rwp = r.rec.AddValue(timeline.ValueSpec{ID: "rwp", Label: "RWP (write pointer)", Kind: timeline.ValuePointer, Grid: g}, 0)
	r.ids.full = r.rec.AddValue(timeline.ValueSpec{ID: "full", Label: "STS.FULL", Kind: timeline.ValueFlag, Grid: g}, 0)
	r.ids.dcInFlight = r.rec.AddValue(timeline.ValueSpec{ID: "dc_outstanding", Label: "DC ops in flight", Kind: timeline.ValueGauge, Grid: -1,
		Max: int64(r.c.hw.Maint.Inflight)}, 0)
	r.ids.sync[0] = r.rec.AddSpan(timeline.SpanSpec{ID: "synced", Label: "dma_sync_single_for_cpu", Grid: g})
	r.ids.sync[1] = r.rec.AddSpan(timeline.SpanSpec{ID: "synced-head", Label: "dma_sync_single_for_cpu (head chunk)", Grid: g})
	r.ids.barrier = r.rec.AddSpan(timeline.SpanSpec{ID: "barrier", Label: "barrier packet", Grid: g})
	head := int64(r.ring.Head % r.ring.Size / mem.PageSize)
	r.ids.head = r.rec.AddValue(timeline.ValueSpec{ID: "head", Label: "AUX head (driver)", Kind: timeline.ValuePointer, Grid: a}, head)
	r.ids.tail = r.rec.AddValue(timeline.ValueSpec{ID: "tail", Label: "AUX tail (perf tool)", Kind: timeline.ValuePointer, Grid: a}, head)
	r.ids.truncated = r.rec.AddValue(timeline.ValueSpec{ID: "truncated", Label: "TRUNCATED", Kind: timeline.ValueFlag, Grid: a}, 0)

	// What the caches hold of the buffer now, shown at time 0.
	writer := etrW
	if r.c.prior != PriorSteady {
		writer = timeline.WriterNobody
	}
	shift := lineShift(m)
	for off := uint64(0); off < r.c.size; off += m.LineBytes() {
		r.pace.Work(1) // an error is seen at the session's next pacing point
		if r.cached(r.buf.PA(off) >> shift) {
			_, cell := r.recording.Locate(r.buf.PA(off))
			r.rec.Cells(0, r.ids.grid, cell, 1, timeline.CellCached, writer)
		}
	}
	for level, obj := range windows {
		if obj < 0 {
			continue
		}
		for e, l := range m.CacheWindow(level, firsts[level], cacheWindowSets) {
			if l.Valid {
				r.rec.CacheLine(0, obj, e, l.Line<<shift, true, l.Dirty)
			}
		}
	}
	r.obs = newObserver(r.buf, shift)
	r.recording.Origin = r.origin
	r.recording.Next = r.obs
}

// cached reports whether line (physical line number) is in any cache level.
func (r *run) cached(line uint64) bool {
	held, _ := r.held(line)
	return held
}

func lineShift(m *soc.Machine) uint {
	s := uint(0)
	for uint64(1)<<s < m.LineBytes() {
		s++
	}
	return s
}

// traceProgress records the pointers as the trace lands.
func (r *run) traceProgress(p Pointers, t sim.Time) {
	if !r.live {
		return
	}
	at := r.at(t)
	r.rec.Value(at, r.ids.rwp, int64(p.RWP/r.cellBytes))
	r.rec.Value(at, r.ids.rrp, int64(p.RRP/r.cellBytes))
	if p.Full && r.fullAt == 0 {
		r.fullAt = t
		r.rec.Value(at, r.ids.full, 1)
		r.step(t, "The buffer is full: STS.FULL",
			"RWP reached the end of the buffer and wrapped to the base; STS.FULL is set. From now on the ETR overwrites its oldest trace and the hardware moves RRP along with RWP, so the oldest byte is always at RWP.")
	}
}

// at converts machine time to timeline time (the session starts at 0).
func (r *run) at(t sim.Time) sim.Time {
	if t < r.origin {
		return 0
	}
	return t - r.origin
}

func (r *run) phase(lane, kind, label string, start, end sim.Time) {
	if r.live {
		r.rec.Phase(timeline.Phase{Lane: lane, Kind: kind, Label: label, Start: r.at(start), End: r.at(end)})
		r.sampleCounters()
	}
}

// sampleCounters records the machine's counters now, for the trace's
// counter tracks (the live session only).
func (r *run) sampleCounters() {
	if r.live {
		r.rec.SampleCounters(r.at(r.m.Now()), hwview.Counters(r.m.Counters()))
	}
}

// step adds a narration step at machine time t and a mark to stop at.
func (r *run) step(t sim.Time, title, text string) {
	if !r.live {
		return
	}
	r.rec.Mark(r.at(t), len(r.steps))
	r.steps = append(r.steps, scenario.Step{T: r.at(t), Title: title, Text: text})
}
