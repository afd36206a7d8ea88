// Package hwview is the one adapter from hardware events to view states:
// a Recording observes a soc machine (its buffers, cache sets, TLBs and
// walks) and records into a timeline.Recorder what the views draw, and
// the machine's correctness events become the Result's hazards in words.
// It is the only package between the scenario contract, the timeline and
// the hardware packages: the views, the player and the panel see the
// recorded timeline only.
package hwview

import (
	"fmt"
	"math/bits"

	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// Recording is the one adapter from hardware events to views: it watches
// buffers of a soc machine as grids of cells and windows of its cache
// sets, and turns the machine's events into cell states and cache lines
// of a Recorder timeline. The rules are the views', in one place:
//
//   - a read shows Cached, Copied (a copy's source), UncachedRead (through
//     a Normal-NC mapping, copy or not) or Stale;
//   - a cached copy that newer data outdated shows StaleCopy (clean) or
//     Doomed (dirty) from that moment, with its cause (outdated.go), until
//     it is read (Stale), invalidated, evicted, written back (Lost) or
//     written again; cache windows mark the line's way stale meanwhile;
//   - a Stale or Lost cell stays so until new data or maintenance makes
//     the CPU's view current again (a device write, a DC op, another
//     loss): a coarse cell, or a line written after a stale read, must not
//     turn green again;
//   - consecutive reports that leave a cell unchanged are dropped, so a
//     page-sized cell costs one event per state change.
//
// Times are shifted by Origin (the machine time shown as 0).
type Recording struct {
	m      *soc.Machine
	r      *timeline.Recorder
	runs   mem.RunIndex // the grids' frames; Run.List is the grid
	cellBy []uint64     // cell bytes by grid index
	// overlap says two grids' runs share frames: a physical address's
	// cell is then the earliest run's (RunIndex.Find), and no report is
	// quieted.
	overlap bool
	// qGrid, qCell is the cell the machine was told to quiet reports
	// of (lineCell), qGrid -1 for none.
	qGrid, qCell int
	caches       []cacheWin
	tw           transWatch // TLBs and walks (translation.go)
	// Origin is the machine time the timeline starts at; earlier events
	// show at 0.
	Origin sim.Time
	// Next, if set, sees every event after the recording (a scenario's
	// own accounting).
	Next hwevent.Observer
	// Pace, if set, counts a unit of work per page MapBuffer and MapIOVA
	// look up, so recording a large buffer's mappings gives way.
	Pace *scenario.Pacer
}

type cacheWin struct {
	level, first, sets, ways, obj int
	total                         int // the level's sets
}

// NewRecording attaches a recording into r to m as its observer.
func NewRecording(m *soc.Machine, r *timeline.Recorder) *Recording {
	rec := &Recording{m: m, r: r, qGrid: -1}
	m.SetObserver(rec)
	m.WatchKinds(RecordingKinds)
	return rec
}

// RecordingKinds are the event kinds a Recording draws, and so the ones a
// Next observer of it sees.
var RecordingKinds = hwevent.Kinds(hwevent.LineRead, hwevent.LineWrite, hwevent.DCOp, hwevent.WriteBack,
	hwevent.Discard, hwevent.DMABurst, hwevent.Fill, hwevent.Drop, hwevent.Update,
	hwevent.StaleCopy, hwevent.Doomed, hwevent.StaleEvicted)

// Recorder returns the underlying recorder.
func (rec *Recording) Recorder() *timeline.Recorder { return rec.r }

// Grid declares buffer b as a grid of cellBytes cells (64 for lines, 4096
// for pages), watches its frames and returns the grid index. Cells are in
// buffer-offset order even when the frames are scattered.
func (rec *Recording) Grid(id, label string, b soc.Buffer, cellBytes uint64) int {
	if cellBytes == 0 {
		cellBytes = rec.m.LineBytes()
	}
	g := rec.r.AddGrid(timeline.GridSpec{ID: id, Label: label, Base: b.VA, Space: addrSpace(b), CellBytes: int64(cellBytes),
		Cells: int((b.Size + cellBytes - 1) / cellBytes)})
	for len(rec.cellBy) <= g {
		rec.cellBy = append(rec.cellBy, 0)
	}
	rec.cellBy[g] = cellBytes
	size := uint64(len(b.Pages)) << mem.PageShift
	rec.runs.Add(g, b.Pages, size)
	runs := rec.runs.Runs()
	for i := 1; i < len(runs); i++ {
		rec.overlap = rec.overlap || runs[i-1].PA+runs[i-1].N > runs[i].PA
	}
	for _, r := range mem.Runs(b.Pages, 0, size) {
		rec.m.WatchPhys(r.PA, r.N)
	}
	return g
}

// Cache declares a window of sets [first, first+sets) of cache level and
// returns the cache index in the timeline.
func (rec *Recording) Cache(id, label string, level, first, sets int) int {
	levels := rec.m.State().Caches.Levels
	if level < 0 || level >= len(levels) {
		return -1
	}
	c := levels[level]
	first = min(max(first, 0), c.Sets)
	sets = min(max(sets, 0), c.Sets-first)
	obj := rec.r.AddCache(timeline.CacheSpec{ID: id, Label: label, FirstSet: first, Sets: sets,
		TotalSets: c.Sets, Ways: c.Ways, LineBytes: int64(c.LineBytes)})
	rec.caches = append(rec.caches, cacheWin{level: level, first: first, sets: sets, ways: c.Ways, total: c.Sets, obj: obj})
	rec.m.WatchSets(level, first, sets)
	return obj
}

// Locate returns the grid and cell showing physical address pa, or -1, -1.
func (rec *Recording) Locate(pa uint64) (grid, cell int) {
	i := rec.runs.Find(pa)
	if i < 0 {
		return -1, -1
	}
	r := &rec.runs.Runs()[i]
	return r.List, int((r.Off + pa - r.PA) / rec.cellBy[r.List])
}

// Annotate fills in the grid and cell of each hazard that falls in a grid.
func (rec *Recording) Annotate(hs []scenario.Hazard) {
	for i := range hs {
		hs[i].Grid, hs[i].Cell = rec.Locate(hs[i].Addr)
	}
}

func (rec *Recording) at(t sim.Time) sim.Time {
	if t < rec.Origin {
		return 0
	}
	return t - rec.Origin
}

// Event implements hwevent.Observer.
func (rec *Recording) Event(e *hwevent.Event) {
	switch e.Kind {
	case hwevent.LineRead:
		st := timeline.CellCached
		switch {
		case e.Has(hwevent.Stale):
			st = timeline.CellStale
		case e.Has(hwevent.NC):
			st = timeline.CellUncachedRead
		case e.Has(hwevent.Copy):
			st = timeline.CellCopied
		}
		rec.lineCell(e, st)
	case hwevent.LineWrite:
		rec.lineCell(e, timeline.CellCPUWritten)
	case hwevent.DCOp:
		st := timeline.CellInvalidated
		if e.Op == 0 { // DC CVAC
			st = timeline.CellCleaned
		}
		rec.lineCell(e, st)
	case hwevent.WriteBack, hwevent.Discard:
		if e.Has(hwevent.Lost) {
			rec.cell(e.T, e.Addr, timeline.CellLost, e.Writer)
		}
	case hwevent.DMABurst:
		if e.Has(hwevent.Write) {
			// The burst's lines in one cell after its first change
			// nothing more (see lineCell): one cell call per cell.
			lb := rec.m.LineBytes()
			for a, end := e.Addr&^(lb-1), e.Addr+e.Bytes; a < end; {
				i, cell := rec.cell(e.T, a, timeline.CellDeviceWritten, e.Agent)
				a += lb
				if i >= 0 && rec.cellBy[rec.runs.Runs()[i].List] > lb {
					_, hi := rec.cellSpan(i, cell)
					a = max(a, (hi+lb-1)&^(lb-1))
				}
			}
		}
	case hwevent.TLBLookup, hwevent.TLBFill, hwevent.WalkStep:
		rec.translationEvent(e)
	case hwevent.StaleCopy, hwevent.Doomed, hwevent.StaleEvicted:
		rec.outdatedEvent(e)
	case hwevent.Fill, hwevent.Drop, hwevent.Update:
		for _, w := range rec.caches {
			set := int(e.Set)
			if w.level == int(e.Level) && set >= w.first && set < w.first+w.sets {
				rec.r.CacheLine(rec.at(e.T), w.obj, (set-w.first)*w.ways+int(e.Way), e.Addr, e.Kind != hwevent.Drop, e.Has(hwevent.Dirty))
			}
		}
	}
	if rec.Next != nil {
		rec.Next.Event(e)
	}
}

// clears says whether st replaces a stale or lost cell: only new data (a
// device write, which may outdate a cached copy at once) or maintenance
// that makes the CPU's view current.
func clears(st timeline.CellState) bool {
	switch st {
	case timeline.CellDeviceWritten, timeline.CellInvalidated, timeline.CellCleaned, timeline.CellLost,
		timeline.CellStaleCopy, timeline.CellDoomed:
		return true
	}
	return false
}

// replaces says whether st may replace a cell showing cur: a stale or
// lost cell only by what clears it; an outdated copy (stale copy, doomed)
// only by what ends it (a stale read, a loss, an invalidate, the CPU
// writing the line, or the other outdated state), not by the device write
// that outdated it or a read of another line of a coarse cell.
func replaces(cur, st timeline.CellState) bool {
	switch cur {
	case timeline.CellStale, timeline.CellLost:
		return clears(st)
	case timeline.CellStaleCopy, timeline.CellDoomed:
		switch st {
		case timeline.CellStale, timeline.CellLost, timeline.CellInvalidated, timeline.CellCPUWritten,
			timeline.CellStaleCopy, timeline.CellDoomed:
			return true
		}
		return false
	}
	return true
}

// cell records that the line at pa was set to st by writer, unless the
// cell shows that already or stays Stale or Lost. It returns the run
// (index in rec.runs) and cell of pa, or -1 when pa is in no grid's cell.
// Either way the cell then shows st by writer or stays Stale or Lost, so
// the same report again changes nothing until something else happens to
// the cell.
func (rec *Recording) cell(t sim.Time, pa uint64, st timeline.CellState, writer uint8) (run, cell int) {
	return rec.setCell(t, pa, st, writer, timeline.WhyNone, false)
}

// setCell is cell with the cause the state carries (Recorder.CellsWhy);
// force sets st whatever the cell shows (an outdated copy's end that no
// ordinary report expresses, such as its eviction).
func (rec *Recording) setCell(t sim.Time, pa uint64, st timeline.CellState, writer uint8, why timeline.CellWhy, force bool) (run, cell int) {
	i := rec.runs.Find(pa)
	if i < 0 {
		return -1, -1
	}
	r := &rec.runs.Runs()[i]
	g := r.List
	cell = int((r.Off + pa - r.PA) / rec.cellBy[g])
	cells := rec.r.Live().Cells[g]
	if cell >= len(cells) {
		return -1, -1
	}
	if g == rec.qGrid && cell == rec.qCell { // this may change it: the word is taken back
		rec.qGrid = -1
		rec.m.Quiet(0, 0, 0, 0, 0, 0)
	}
	cur := cells[cell]
	if cur == (timeline.Cell{State: st, Writer: writer}) {
		return i, cell
	}
	if !force && !replaces(cur.State, st) {
		return i, cell
	}
	rec.r.CellsWhy(rec.at(t), g, cell, 1, st, writer, why)
	return i, cell
}

// cellSpan returns the physical addresses [lo, hi) of run i (in
// rec.runs) that cell shows.
func (rec *Recording) cellSpan(i, cell int) (lo, hi uint64) {
	r := &rec.runs.Runs()[i]
	cb := rec.cellBy[r.List]
	off := uint64(cell) * cb
	return r.PA + max(off, r.Off) - r.Off, r.PA + min(off+cb, r.Off+r.N) - r.Off
}

// lineCell is cell for a line report of the core (LineRead, LineWrite,
// DCOp). The same report on the cell's other lines would then change
// nothing, so unless a Next observer takes e's kind the machine is told to
// skip those (soc.Machine.Quiet): a page-sized cell costs the machine one
// report per state change, not one per line.
func (rec *Recording) lineCell(e *hwevent.Event, st timeline.CellState) {
	i, cell := rec.cell(e.T, e.Addr, st, e.Writer)
	if i < 0 || rec.overlap || rec.cellBy[rec.runs.Runs()[i].List] <= rec.m.LineBytes() || rec.nextTakes(e.Kind) {
		return
	}
	lo, hi := rec.cellSpan(i, cell)
	lb := rec.m.LineBytes()
	shift := uint(bits.TrailingZeros64(lb))
	rec.m.Quiet(e.Kind, e.Flags, e.Op, e.Writer, (lo+lb-1)>>shift, (hi+lb-1)>>shift)
	rec.qGrid, rec.qCell = rec.runs.Runs()[i].List, cell
}

// nextTakes reports whether the Next observer takes events of kind k
// (all kinds unless it says otherwise: hwevent.Taker; as WebAssembly the
// type assertion is a runtime lookup, so it is asked last, once per cell
// change).
func (rec *Recording) nextTakes(k hwevent.Kind) bool {
	if rec.Next == nil {
		return false
	}
	if t, ok := rec.Next.(hwevent.Taker); ok {
		return t.Takes().Has(k)
	}
	return true
}

var _ hwevent.Observer = (*Recording)(nil)

// HazardOf turns a machine's correctness event (soc.Machine.Hazards) into
// a hazard with its cause in words. Grid is -1 (see Recording.Annotate).
func HazardOf(e hwevent.Event) scenario.Hazard {
	return scenario.Hazard{T: e.T, Addr: e.Addr, Bytes: int64(e.Bytes), Cause: CauseOf(e), Grid: -1}
}

// HazardsOf is HazardOf for each event.
func HazardsOf(es []hwevent.Event) []scenario.Hazard {
	out := make([]scenario.Hazard, len(es))
	for i, e := range es {
		out[i] = HazardOf(e)
	}
	return out
}

// CauseOf says in words what a correctness event means and what usually
// causes it.
func CauseOf(e hwevent.Event) string {
	switch e.Kind {
	case hwevent.LineRead:
		switch {
		case e.Has(hwevent.Lost):
			return "CPU read what a dirty line's write-back left in DRAM: the device's newer data there was destroyed (missing DC CVAC before the DMA: dma_sync_*_for_device)"
		case e.Has(hwevent.Elsewhere):
			return "CPU read its buffer while the device's data was still in the SWIOTLB bounce slot (missing dma_unmap_*/dma_sync_*_for_cpu: the slot was never copied back)"
		case e.Has(hwevent.NC):
			return "read through a Normal-NC alias returned DRAM data older than a dirty cacheable copy (clean the linear map before using the alias)"
		case e.Has(hwevent.OwnWrite):
			return "CPU read data older than its own write (the newer copy was lost or bypassed)"
		}
		return "CPU read a stale cached copy: a device wrote the line after it was cached and nothing invalidated it (missing dma_sync_*_for_cpu)"
	case hwevent.DeviceStaleRead:
		return "device read DRAM older than a dirty CPU line (missing DC CVAC before the DMA: dma_sync_*_for_device)"
	case hwevent.WriteBack:
		return "a dirty CPU line was written back over newer data a device had written (" + e.Why.String() + "; clean before the DMA, invalidate after)"
	case hwevent.Discard:
		return "DC IVAC discarded a dirty line holding the CPU's newest data (use DC CIVAC on partial lines)"
	}
	return fmt.Sprintf("%s at %#x", e.Kind, e.Addr)
}

// addrSpace names the addresses a buffer's grid shows: "PA" when its VA
// is the identity of contiguous frames (a view of physical memory), else
// "VA", the CPU's mapping.
func addrSpace(b soc.Buffer) string {
	if len(b.Pages) == 0 || b.VA != b.Pages[0] || !mem.Contiguous(b.Pages) {
		return "VA"
	}
	return "PA"
}

// Counters turns the machine's counter readings into the timeline's
// counter samples (Recorder.SampleCounters), in the machine's fixed
// counter order.
func Counters(cs []soc.CounterValue) []timeline.Counter {
	out := make([]timeline.Counter, len(cs))
	for i, c := range cs {
		out[i] = timeline.Counter{Name: c.Name, Unit: c.Unit, Value: c.Value, Group: c.Group}
	}
	return out
}
