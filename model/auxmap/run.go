package auxmap

import (
	"fmt"
	"strings"

	"github.com/dmaviz/dmaviz/model/hwview"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// fullIterations is how many iterations are simulated access by access;
// later ones repeat the last two simulated ones (each iteration is a perf
// session of its own: the buffer is allocated and vmapped again and the
// TLBs are flushed at its end, so from the second on every iteration
// starts in the same state).
// TestExtrapolationMatchesFullSimulation checks it.
const fullIterations = 3

// run is one simulation of one policy.
type run struct {
	c         config
	policy    string
	m         *soc.Machine
	mmu       *mmu.MMU
	trace     *soc.TracePort
	core      *soc.TracePort // the core's data side
	fetch     *soc.TracePort // the core's instruction side
	loop      *mmu.Loop      // the traced program: its code and data pages, pass after pass
	buf       *mmu.AuxBuffer
	area      mmu.Area
	vmap      mmu.MapStats
	shape     []int    // max-order blocks given each free order by the fragmentation
	wp        uint64   // trace write offset in the AUX buffer
	tTrace    sim.Time // trace unit's clock
	tCore     sim.Time // core's clock
	stall     sim.Time
	iters     []counts
	simulated int
	// Recording of the last simulated iteration: the AUX buffer as a
	// grid of cells filled as the write pointer passes.
	rec       *timeline.Recorder
	recording *hwview.Recording
	origin    sim.Time // the recorded iteration's start
	agent     uint8    // the trace unit's writer and agent id
	grid, ptr int
	tptr      int // its pointer in the translation views
	cellBytes uint64
	cell      uint64 // next cell to mark
	// The PMU counters of the recorded session, sampled over its time
	// (Timeline.Counters): values since recBase, in pmu's order.
	recBase counts
	pmu     [3]timeline.Counter
	pace    *scenario.Pacer // nil when not paced
}

// maxCells bounds the AUX grid.
const maxCells = 4096

// countSamples is about how many times spe-aux samples the counters over
// the recorded session, besides each AUX cell SPE fills.
const countSamples = 1024

// newRun builds the machine, fragments its free memory, allocates and
// maps the AUX buffer as the policy says and the workload's pages.
func newRun(c config, policy string, pace *scenario.Pacer) (*run, error) {
	m, err := soc.New(c.hw, Seed)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ParamPreset, err)
	}
	r := &run{c: c, policy: policy, m: m, mmu: m.MMU(), core: m.CorePort(), pace: pace}
	if pace != nil {
		m.Kernel().PT.Progress = func(pages int) { _ = pace.Work(int64(pages)) }
		m.Buddy().Progress = func() { _ = pace.Point() }
	}
	b := m.Buddy()
	if r.shape, err = b.Shape(m.RNG(), freeShares(b.MaxOrder(), c.frag, c.ratio)); err != nil {
		return nil, fmt.Errorf("%s: %w", ParamFrag, err)
	}
	if err := pace.Err(); err != nil { // told to stop while fragmenting
		return nil, err
	}
	r.rec = timeline.NewRecorder()
	r.agent = r.rec.Writer(unitName(c.unit))
	if r.trace, err = m.AddTracePort(unitName(c.unit)+"_tlb", r.agent); err != nil {
		return nil, err
	}
	if err := r.newLoop(); err != nil {
		return nil, err
	}
	if err := r.openSession(); err != nil {
		return nil, err
	}
	if err := pace.Err(); err != nil {
		return nil, err
	}
	m.InvalidateTLBs() // the session starts with cold TLBs
	r.trace.R.InvalidateAll()
	return r, nil
}

// freeShares is the free memory's shape by order (Buddy.Shape): frag of
// it in blocks below order top, each order ratio times the one below's,
// the rest in whole order-top blocks.
func freeShares(top int, frag, ratio float64) []float64 {
	shares := make([]float64, top+1)
	sum, w := 0.0, 1.0
	for k := range top {
		shares[k] = w
		sum += w
		w *= ratio
	}
	for k := range top {
		shares[k] *= frag / sum
	}
	shares[top] = 1 - frag
	return shares
}

// newLoop allocates and maps the traced program's pages (order-0 pages
// with 4 KiB PTEs, before the AUX buffer: the program is running when
// each session attaches, so every policy's buffer meets the same free
// memory) and builds its loop: its code through the core's L1
// instruction TLB, its data (the branch test's, or dd's buffer, which
// clear_user writes) through the L1 data TLB.
func (r *run) newLoop() error {
	b, k := r.m.Buddy(), r.m.Kernel()
	pages := func(n int, param string) (uint64, error) {
		list := make([]uint64, n)
		for i := range list {
			ch, err := b.Alloc(0)
			if err != nil {
				return 0, fmt.Errorf("%s: %w", param, err)
			}
			list[i] = ch.PA()
		}
		a, _, err := k.Vmap(list, mmu.PageKernel, mmu.VmapMainline)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", param, err)
		}
		return a.VA, nil
	}
	code := int(r.c.code / mem.PageSize)
	codeVA, err := pages(code, ParamCode)
	if err != nil {
		return err
	}
	dataN, param, write := int(r.c.ws/mem.PageSize), ParamWorkingSet, false
	if r.c.unit == SPE {
		dataN, param, write = int(r.c.bufPages()), ParamBS, true
	}
	dataVA, err := pages(dataN, param)
	if err != nil {
		return err
	}
	if r.fetch, err = r.m.FetchPort(r.core.R.Owner); err != nil {
		return fmt.Errorf("%s: %w", ParamPreset, err)
	}
	r.loop = mmu.NewLoop(r.mmu.L2, r.mmu.Space, loopSteps(r.fetch, r.core, codeVA, code, dataVA, dataN, write))
	return nil
}

// openSession is perf record starting a session: rb_alloc_aux allocates
// the AUX buffer, the driver vmaps it (the kernel's writable mapping; in
// overwrite mode only the user mapping is read-only).
func (r *run) openSession() error {
	var err error
	r.buf, err = mmu.RbAllocAuxReusing(r.m.Buddy(), mmu.AuxConfig{Pages: int(r.c.aux / mem.PageSize), Watermark: r.c.watermark,
		Overwrite: r.c.overwrite, PreferLarge: r.policy != Order0}, r.buf)
	if err != nil {
		return fmt.Errorf("%s: %w", ParamAUX, err)
	}
	r.area, r.vmap, err = r.m.Kernel().Vmap(r.buf.Pages, mmu.PageKernel, vmapMode(r.policy))
	if err != nil {
		r.buf.Free(r.m.Buddy())
		return fmt.Errorf("%s: %w", ParamAUX, err)
	}
	r.wp = 0
	return nil
}

// closeSession is the session's end: the driver vunmaps the buffer (the
// lazy purge flushes the range; over arm64's MAX_DVM_OPS pages that is
// TLBI VMALLE1IS, so every TLB of the core and the trace unit's entry are
// emptied) and rb_free_aux frees it page by page.
func (r *run) closeSession() {
	_, _ = r.m.Kernel().Vunmap(r.area)
	r.m.InvalidateTLBs()
	r.trace.R.InvalidateAll()
	r.buf.Free(r.m.Buddy())
}

func unitName(u Unit) string {
	if u == TRBE {
		return "trbe"
	}
	return "spe"
}

// snapshot reads the counters now (the program's replayed passes' counted
// first).
func (r *run) snapshot() counts {
	r.loop.Flush()
	cr, tr, fr := r.core.R, r.trace.R, r.fetch.R
	return counts{
		l1Refill:          cr.L1.Stats.Refills,
		l2Refill:          r.mmu.L2.Stats.Refills,
		dtlbWalk:          cr.Stats.DTLBWalks,
		l1iRefill:         fr.L1.Stats.Refills,
		itlbWalk:          fr.Stats.Walks,
		traceWalks:        tr.Stats.Walks,
		traceL1Refill:     tr.L1.Stats.Refills,
		traceTranslations: tr.Stats.Translations,
		stall:             r.stall,
		elapsed:           max(r.tTrace, r.tCore),
	}
}

// simulate runs min(full, iterations) iterations access by access and
// repeats the last one's counts for the rest. It returns the pacer's
// error when the run was told to stop.
func (r *run) simulate(full int) error {
	n := min(full, r.c.iters)
	for i := 0; i < n; i++ {
		before := r.snapshot()
		if i > 0 && r.openSession() != nil {
			break // memory ran out: report the iterations that ran
		}
		if err := r.pace.Err(); err != nil {
			return err
		}
		if i == n-1 {
			if err := r.startRecording(); err != nil {
				return err
			}
		}
		var err error
		if r.c.unit == TRBE {
			err = r.trbeIteration()
		} else {
			err = r.speIteration()
		}
		if err != nil {
			return err
		}
		last := i == n-1
		if !last {
			r.closeSession()
			if err := r.pace.Point(); err != nil { // vunmap and free took a while
				return err
			}
		}
		r.iters = append(r.iters, r.snapshot().sub(before))
	}
	n = len(r.iters)
	r.simulated = n
	// Freed AUX pages come back to the allocator in an order that repeats
	// every second session, so the remaining iterations cycle through the
	// last two simulated ones.
	for k := 0; len(r.iters) < r.c.iters; k++ {
		src := n - 1
		if n >= 3 {
			src = n - 2 + k%2
		}
		r.iters = append(r.iters, r.iters[src])
	}
	return nil
}

// startRecording starts the timeline of the iteration about to run:
// the AUX buffer's grid and write pointer, and (through the machine's
// observer) the page-mapping and TLB views' data: the buffer's mappings
// and chunks, the core's L1 data TLB, the trace unit's one-entry L1 TLB,
// the shared L2 TLB and the walks.
func (r *run) startRecording() error {
	r.origin = min(r.tTrace, r.tCore)
	r.recording = hwview.NewRecording(r.m, r.rec)
	r.recording.Origin = r.origin
	r.recording.Pace = r.pace
	r.recording.WatchTLBs()
	r.rec.ReserveTLBEvents(r.expectedTLBEvents())
	r.recording.WatchRequester(r.trace.R, strings.ToUpper(unitName(r.c.unit))+" L1 TLB (one entry)")
	if err := r.recording.MapBuffer("aux", r.area.VA, r.c.aux, r.buf.Chunks); err != nil {
		return err // the buffer is mapped: only the pacer can say stop
	}
	r.tptr = r.rec.AddPointer(timeline.PointerSpec{ID: unitName(r.c.unit), Label: strings.ToUpper(unitName(r.c.unit)) + " write pointer", Agent: r.agent})
	r.rec.MovePointer(0, r.tptr, r.area.VA)
	cells := min(uint64(maxCells), r.c.aux/mem.PageSize)
	r.cellBytes = r.c.aux / cells
	r.grid = r.rec.AddGrid(timeline.GridSpec{ID: "aux", Label: "AUX buffer (" + scenario.FormatBytes(int64(r.cellBytes)) + " per cell)",
		Base: r.area.VA, CellBytes: int64(r.cellBytes), Cells: int(cells)})
	r.ptr = r.rec.AddValue(timeline.ValueSpec{ID: "wp", Label: unitName(r.c.unit) + " write pointer", Kind: timeline.ValuePointer, Grid: r.grid}, 0)
	r.cell = 0
	r.recBase = r.snapshot()
	r.pmu = [3]timeline.Counter{{Name: MetricL2Refill, Group: "pmu"}, {Name: MetricL1Refill, Group: "pmu"}, {Name: MetricDTLBWalk, Group: "pmu"}}
	r.sampleCounters(0)
	return nil
}

// expectedTLBEvents is about how many TLB fills the recorded session
// makes: the trace unit's L1 and the L2 TLB fill about once per leaf of
// the buffer it writes (all of it for TRBE, SPE's share of it for SPE),
// and the program's simulated passes (the first few of the session: the
// replayed ones report nothing) fill the core's L1 TLBs and the L2 TLB up
// to once per page each.
func (r *run) expectedTLBEvents() int {
	leaves := float64(r.vmap.Pages + r.vmap.Contig + r.vmap.Blocks2M + r.vmap.Blocks1G)
	share := 1.0
	if r.c.unit == SPE {
		share = min(1, r.c.speBytes()/float64(r.c.aux))
	}
	n := 2*leaves*share + 8*float64(r.loop.Steps()) + 64
	return int(min(n, timeline.MaxTLBEvents))
}

// sampleCounters records the session's PMU counts so far at t (from the
// recorded session's start; the recorder keeps times from going back).
func (r *run) sampleCounters(t sim.Time) {
	c := r.snapshot().sub(r.recBase)
	r.pmu[0].Value, r.pmu[1].Value, r.pmu[2].Value = float64(c.l2Refill), float64(c.l1Refill), float64(c.dtlbWalk)
	r.rec.SampleCounters(t, r.pmu[:])
}

// traceBurst writes one burst at the write pointer at the unit's time:
// it translates the address (a miss stalls the unit for the translation's
// latency) and moves the pointer on, wrapping at the buffer's end.
func (r *run) traceBurst() {
	va := r.area.VA + r.wp
	cost, err := r.trace.TranslateCost(va, true, r.tTrace)
	if err != nil { // cannot happen: the whole buffer is mapped; stop the unit's clock honestly
		r.stall += sim.Microsecond
	}
	r.stall += cost
	r.tTrace += cost
	r.wp = (r.wp + r.c.burst) % r.c.aux
	if r.recording != nil && r.cell < maxCells && (r.wp == 0 || r.wp >= (r.cell+1)*r.cellBytes) {
		t := r.tTrace - r.origin
		r.rec.Cells(t, r.grid, int(r.cell), 1, timeline.CellDeviceWritten, r.agent)
		r.cell++
		r.rec.Value(t, r.ptr, int64(r.cell))
		r.rec.MovePointer(t, r.tptr, r.area.VA+r.cell*r.cellBytes)
		r.sampleCounters(t)
	}
}
