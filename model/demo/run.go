package demo

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// cacheWindowSets is how many sets of the CPU cache the cache view shows.
const cacheWindowSets = 16

// startDelay is the pause between the setup and the device starting (the
// driver programming it), the same for every policy.
const startDelay = 100 * sim.Nanosecond

// way is one way of the CPU data cache. The demo never writes through the
// CPU, so lines are never dirty.
type way struct {
	tag     uint64 // line address; meaningful when valid
	version uint32 // version of the data the line holds
	valid   bool
	used    uint32 // LRU stamp: larger is more recent
}

// run is one simulation of one policy.
type run struct {
	c      costs
	policy string
	size   int64
	lines  int

	// mem[i] is the version of buffer line i in DRAM; the device bumps it.
	mem []uint32
	// devWrote[i] is the version the device wrote last; memory holding
	// anything else at the end means device data was lost.
	devWrote []uint32
	// cache is sets*ways, index set*ways + way.
	cache []way
	stamp uint32

	now sim.Time
	rec *timeline.Recorder
	dev uint8
	// recorded object indices
	grid, win, devPtr, cpuPtr, pending, synced, span int

	steps   []scenario.Step
	hazards []scenario.Hazard

	devTime, syncTime, copyTime   sim.Time
	accesses, refills, bus, dcOps int64
	dsbs, staleBytes, bytesCopied int64
	lostBytes                     int64
	// fates counts what became of the cached lines the device's write
	// made stale (scenario.Fates); stale[i] says line i's cached copy is
	// one now.
	fates scenario.Fates
	stale []bool
}

func newRun(c costs, size int64, policy string) *run {
	lines := int((size + LineBytes - 1) / LineBytes)
	r := &run{c: c, policy: policy, size: size, lines: lines,
		mem: make([]uint32, lines), devWrote: make([]uint32, lines), stale: make([]bool, lines),
		cache: make([]way, c.sets*c.ways), rec: timeline.NewRecorder()}
	r.dev = r.rec.Writer("dev")
	r.grid = r.rec.AddGrid(timeline.GridSpec{ID: "buf", Label: "DMA buffer", Base: BufferBase, CellBytes: LineBytes, Cells: lines})
	r.win = r.rec.AddCache(timeline.CacheSpec{ID: "l1d", Label: "CPU L1D", FirstSet: 0, Sets: min(cacheWindowSets, c.sets),
		TotalSets: c.sets, Ways: c.ways, LineBytes: LineBytes})
	r.devPtr = r.rec.AddValue(timeline.ValueSpec{ID: "dev", Label: "device write pointer", Kind: timeline.ValuePointer, Grid: r.grid}, 0)
	r.cpuPtr = r.rec.AddValue(timeline.ValueSpec{ID: "cpu", Label: "CPU copy pointer", Kind: timeline.ValuePointer, Grid: r.grid}, 0)
	r.pending = r.rec.AddValue(timeline.ValueSpec{ID: "dc_outstanding", Label: "DC ops not yet waited for", Kind: timeline.ValueGauge, Grid: -1, Max: int64(lines)}, 0)
	r.synced = r.rec.AddValue(timeline.ValueSpec{ID: "synced", Label: "synced for CPU", Kind: timeline.ValueFlag, Grid: -1}, 0)
	r.span = r.rec.AddSpan(timeline.SpanSpec{ID: "sync", Label: "synced span", Grid: r.grid})
	return r
}

func (r *run) cacheable() bool { return r.policy != PolicyNoncacheable }

func (r *run) step(title, text string) {
	r.rec.Mark(r.now, len(r.steps))
	r.steps = append(r.steps, scenario.Step{T: r.now, Title: title, Text: text})
}

func (r *run) simulate() {
	if r.cacheable() {
		r.step("Earlier, the CPU read the buffer",
			"The buffer is mapped cacheable. A previous copy, before this run, left its lines in the CPU cache, holding the old data.")
		// The earlier read happened before the run: it fills the cache but
		// takes no time and counts in no counter.
		for i := 0; i < r.lines; i++ {
			r.read(i)
			r.rec.Cells(r.now, r.grid, i, 1, timeline.CellCached, timeline.WriterNobody)
		}
		r.refills, r.bus = 0, 0
	} else {
		r.step("The buffer is mapped Normal-NC",
			"dma_alloc_coherent cleaned and invalidated the pages once; the CPU reaches them through a non-cacheable mapping, so nothing of the buffer is in any cache.")
	}
	// Both policies start the device at the same time, so runs aligned on
	// time start together.
	r.now += startDelay

	r.step("The device writes the buffer",
		"The device is not coherent: its writes go to DRAM and do not touch the CPU cache.")
	start := r.now
	for i := 0; i < r.lines; i++ {
		r.now += r.c.devLine
		r.mem[i]++
		r.devWrote[i] = r.mem[i]
		if set, w := r.find(i); w >= 0 {
			// The cached copy is now older than memory: a stale copy
			// from this moment, drawn so before anything reads it.
			r.stale[i] = true
			r.fates.Stale++
			r.rec.CellsWhy(r.now, r.grid, i, 1, timeline.CellStaleCopy, r.dev, timeline.WhyDeviceWrite)
			if set < cacheWindowSets {
				r.rec.StaleLine(r.now, r.win, set*r.c.ways+w)
			}
		} else {
			r.rec.Cells(r.now, r.grid, i, 1, timeline.CellDeviceWritten, r.dev)
		}
		r.rec.Value(r.now, r.devPtr, int64(i+1))
	}
	r.devTime = r.now - start
	r.rec.Phase(timeline.Phase{Lane: "dev", Kind: "dma-write", Label: "device writes", Start: start, End: r.now})

	if r.policy == PolicyCacheableSync {
		r.sync()
	}

	if r.cacheable() {
		r.step("The CPU copies the buffer (cached)", "Each load looks in the cache first; a miss fills the line from DRAM.")
	} else {
		r.step("The CPU copies the buffer (Normal-NC)", "Each load is its own DRAM read: no line fill, no prefetch.")
	}
	start = r.now
	for i := 0; i < r.lines; i++ {
		r.copyLine(i)
	}
	r.copyTime = r.now - start
	kind := "copy"
	if !r.cacheable() {
		kind = "nc-read"
	}
	r.rec.Phase(timeline.Phase{Lane: "cpu", Kind: kind, Label: "copy out", Start: start, End: r.now})

	for i := range r.mem {
		if r.mem[i] != r.devWrote[i] {
			r.lostBytes += r.lineBytes(i)
		}
	}
	r.step("Done", fmt.Sprintf("Copied %s in %s (sync %s); %d bytes stale, %d lost.",
		scenario.FormatBytes(r.bytesCopied), r.syncTime+r.copyTime, r.syncTime, r.staleBytes, r.lostBytes))
}

// sync is dma_sync_single_for_cpu: DC IVAC on every line, then DSB SY.
func (r *run) sync() {
	r.step("dma_sync_single_for_cpu",
		"DC IVAC on every line of the buffer drops the old copies from the cache; DSB SY waits until all of them completed.")
	start := r.now
	r.rec.Span(r.now, r.span, 0, r.lines)
	for i := 0; i < r.lines; i++ {
		r.now += r.c.dcIssue
		r.dcOps++
		r.invalidate(i)
		r.rec.Cells(r.now, r.grid, i, 1, timeline.CellInvalidated, r.dev)
		r.rec.Value(r.now, r.pending, int64(i+1))
	}
	r.rec.Phase(timeline.Phase{Lane: "cpu", Kind: "invalidate", Label: "DC IVAC", Start: start, End: r.now})
	wait := r.now
	r.now += r.c.dsb
	r.dsbs++
	r.rec.Value(r.now, r.pending, 0)
	r.rec.Value(r.now, r.synced, 1)
	r.rec.Phase(timeline.Phase{Lane: "cpu", Kind: "dsb-wait", Label: "DSB SY", Start: wait, End: r.now})
	r.syncTime = r.now - start
}

func (r *run) copyLine(i int) {
	r.accesses++
	var got uint32
	if r.cacheable() {
		v, hit := r.read(i)
		got = v
		if hit {
			r.now += r.c.hitLine
		} else {
			r.now += r.c.missLine
		}
	} else {
		r.bus++
		got = r.mem[i]
		r.now += r.c.ncLine
	}
	n := r.lineBytes(i)
	r.bytesCopied += n
	state := timeline.CellCopied
	if got != r.mem[i] {
		state = timeline.CellStale
		r.staleBytes += n
		r.addHazard(i, n)
		r.end(i, &r.fates.Read)
	}
	r.rec.Cells(r.now, r.grid, i, 1, state, r.dev)
	r.rec.Value(r.now, r.cpuPtr, int64(i+1))
}

func (r *run) addHazard(i int, n int64) {
	if k := len(r.hazards) - 1; k >= 0 {
		h := &r.hazards[k]
		if h.Cell+int(h.Bytes/LineBytes) == i && h.Bytes%LineBytes == 0 {
			h.Bytes += n
			return
		}
	}
	r.hazards = append(r.hazards, scenario.Hazard{T: r.now, Addr: BufferBase + uint64(i)*LineBytes, Bytes: n,
		Cause: "CPU read a line cached before the device wrote it (no dma_sync_single_for_cpu)", Grid: r.grid, Cell: i})
}

func (r *run) lineBytes(i int) int64 {
	return min(LineBytes, r.size-int64(i)*LineBytes)
}

// find returns the set and way holding buffer line i (way -1 when none).
func (r *run) find(i int) (set, way int) {
	addr := BufferBase + uint64(i)*LineBytes
	set = int(addr/LineBytes) % r.c.sets
	for w := 0; w < r.c.ways; w++ {
		if l := &r.cache[set*r.c.ways+w]; l.valid && l.tag == addr {
			return set, w
		}
	}
	return set, -1
}

// end ends line i's stale copy, if it has one, counting it in fate.
func (r *run) end(i int, fate *int64) {
	if r.stale[i] {
		r.stale[i] = false
		*fate++
	}
}

// read loads buffer line i through the cache and returns the version it got
// and whether it hit. A miss fills the least recently used way; a stale
// copy it evicts ends unread, and its cell shows the device's data again.
func (r *run) read(i int) (uint32, bool) {
	addr := BufferBase + uint64(i)*LineBytes
	set := int(addr/LineBytes) % r.c.sets
	r.stamp++
	victim := 0
	for w := 0; w < r.c.ways; w++ {
		l := &r.cache[set*r.c.ways+w]
		if l.valid && l.tag == addr {
			l.used = r.stamp
			return l.version, true
		}
		if v := &r.cache[set*r.c.ways+victim]; v.valid && (!l.valid || l.used < v.used) {
			victim = w
		}
	}
	r.refills++
	r.bus++
	l := &r.cache[set*r.c.ways+victim]
	if old := int((l.tag - BufferBase) / LineBytes); l.valid && r.stale[old] {
		r.end(old, &r.fates.Evicted)
		r.rec.Cells(r.now, r.grid, old, 1, timeline.CellDeviceWritten, r.dev)
	}
	*l = way{tag: addr, version: r.mem[i], valid: true, used: r.stamp}
	r.recordWay(set, victim)
	return l.version, false
}

// invalidate is DC IVAC on buffer line i.
func (r *run) invalidate(i int) {
	addr := BufferBase + uint64(i)*LineBytes
	set := int(addr/LineBytes) % r.c.sets
	for w := 0; w < r.c.ways; w++ {
		l := &r.cache[set*r.c.ways+w]
		if l.valid && l.tag == addr {
			l.valid = false
			r.recordWay(set, w)
			r.end(i, &r.fates.Invalidated)
		}
	}
}

func (r *run) recordWay(set, w int) {
	if set >= cacheWindowSets {
		return
	}
	l := r.cache[set*r.c.ways+w]
	r.rec.CacheLine(r.now, r.win, set*r.c.ways+w, l.tag, l.valid, false)
}

func (r *run) result() *scenario.Result {
	us := func(t sim.Time) float64 { return t.Microseconds() }
	tl := r.rec.Finish(r.now)
	for _, s := range r.stale {
		if s {
			r.fates.Cached++
		}
	}
	res := &scenario.Result{
		End: tl.End,
		Metrics: []scenario.Metric{
			{Name: "readout_us", Label: "sync + copy", Unit: "us", Value: us(r.syncTime + r.copyTime), Group: "time"},
			{Name: "sync_us", Label: "dma_sync_single_for_cpu", Unit: "us", Value: us(r.syncTime), Group: "time"},
			{Name: "copy_us", Label: "CPU copy", Unit: "us", Value: us(r.copyTime), Group: "time"},
			{Name: "device_write_us", Label: "device write", Unit: "us", Value: us(r.devTime), Group: "time"},
			{Name: "l1d_cache", Label: "L1D accesses (per line)", Value: float64(r.accesses), Group: "pmu"},
			{Name: "l1d_cache_refill", Label: "L1D refills", Value: float64(r.refills), Group: "pmu"},
			{Name: "bus_access", Label: "bus reads (lines)", Value: float64(r.bus), Group: "pmu"},
			{Name: "dc_ops", Label: "DC ops", Value: float64(r.dcOps), Group: "model"},
			{Name: "dsb_count", Label: "DSB SY", Value: float64(r.dsbs), Group: "model"},
		},
		Checks: []scenario.Metric{
			{Name: "stale_bytes", Label: "stale bytes copied", Unit: "B", Value: float64(r.staleBytes)},
			{Name: "lost_bytes", Label: "device bytes lost", Unit: "B", Value: float64(r.lostBytes)},
		},
		Hazards:   r.hazards,
		Narration: r.steps,
		Timeline:  tl,
		Fates:     &r.fates,
	}
	if r.policy == PolicyCacheableNoSync && res.Clean() {
		w := scenario.FateWords{Device: "the device"}
		if r.fates.Evicted == r.fates.Stale && r.fates.Stale > 0 {
			w.Clause = fmt.Sprintf("the earlier read left only the last %s of the %s buffer in the %s L1D, and the copy, "+
				"starting at the other end, evicts each set's old lines before it reaches them", scenario.FormatBytes(r.fates.Stale*LineBytes),
				scenario.FormatBytes(r.size), scenario.FormatBytes(int64(r.c.sets*r.c.ways*LineBytes)))
		}
		res.NoHazard = r.fates.Why(w)
	}
	return res
}
