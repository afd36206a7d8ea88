// Package timeline is what a run records and every view replays: the
// Recorder a scenario fills while its model runs, the Timeline it closes
// into (grids of cells, cache windows, named values, spans, phases,
// counters, keyframes), the State at any cursor, and the schemas of the
// views that need more than cells (the SMMU's stream table and
// transactions, the page mappings, TLBs and walks). It is plain data over
// simulated time (sim.Time): it knows no hardware and no drawing. The
// hardware's events become these states in package hwview.
package timeline

import (
	"sort"

	"github.com/dmaviz/dmaviz/model/sim"
)

// Timeline is a recorded run: the objects the views show (grids of cells,
// cache windows, named values, highlighted spans), the events that changed
// them, and keyframes of the whole State so that any cursor position is
// reached by copying the nearest earlier keyframe and replaying at most
// KeyEvery events. Playback, step back and scrubbing never re-run the model.
//
// Memory stays bounded for huge runs in two ways: the Recorder keeps at most
// MaxKeyframes keyframes (when full it drops every other one and doubles the
// keyframe interval), and once a run has recorded CoalesceAfter events it
// merges each cell update into the previous one when both touch adjacent
// cells of the same grid with the same state and writer (the merged event
// carries the later time). Sequential sweeps over gigabytes therefore cost a
// handful of events per sweep, at the price of time resolution inside it.
// Past MaxEvents the Recorder records no more events (Truncated, from
// TruncatedAt on), and a last mark event and keyframe carry the final state (the
// picture jumps to it at the end). The Recorder's doc states the memory
// ceiling this gives.
type Timeline struct {
	Grids  []GridSpec
	Caches []CacheSpec
	Values []ValueSpec
	Spans  []SpanSpec
	Phases []Phase
	// Counters are the machine's counters sampled during the run (see
	// Recorder.SampleCounters); empty when the scenario does not sample.
	Counters []CounterTrack
	// Events are ordered by (T, recording order). Invariant: T never
	// decreases along the slice.
	Events []Event
	// Keyframes[i].State is the State after applying Events[:Keyframes[i].Event].
	// Invariant: Keyframes[0].Event == 0 (the initial state).
	Keyframes []Keyframe
	End       sim.Time
	// Truncated says the recording reached MaxEvents at TruncatedAt; the
	// changes after it appear at once in the last keyframe.
	Truncated   bool
	TruncatedAt sim.Time
	// PhasesTruncated says phases past MaxPhases were dropped.
	PhasesTruncated bool
	// Writers names the writer ids of Cell.Writer from 2 on: Writers[0] is
	// writer 2 (e.g. "etr"). 0 is nobody and 1 the CPU. See WriterName.
	Writers []string
	// SMMU is set by scenarios that model an SMMU (the SMMU view); nil
	// otherwise.
	SMMU *SMMUSpec
	// Translation is the page-mapping and TLB views' data (nil when the
	// scenario records no translation).
	Translation *Translation
}

// Phase is a span of time spent on one kind of work, for the timeline view.
type Phase struct {
	Lane  string // e.g. "cpu", "etr", "smmu"
	Kind  string // e.g. "copy", "invalidate", "dsb-wait", "nc-read", "walk"
	Label string
	Start sim.Time
	End   sim.Time
}

// Point is one (x, y) sample: of a chart's series (a scenario's Result
// charts) or of a curve the SMMU view draws.
type Point struct{ X, Y float64 }

// GridSpec is a buffer shown as a grid of equal cells (cache lines or pages).
type GridSpec struct {
	ID    string
	Label string
	Base  uint64 // address of cell 0
	// Space names Base's address space ("VA" for the CPU's virtual
	// mapping of the buffer, "PA", "IOVA"); "" for an unstated one. Views
	// show buffer offsets first and label every address with it.
	Space     string
	CellBytes int64 // 64 for a line grid, 4096 for a page grid
	Cells     int
}

// CacheSpec is a window onto one cache: sets [FirstSet, FirstSet+Sets) of
// all its ways.
type CacheSpec struct {
	ID        string // "l1d", "l2"
	Label     string
	FirstSet  int
	Sets      int // sets shown
	TotalSets int
	Ways      int
	LineBytes int64
}

// ValueKind says how a named value is drawn.
type ValueKind uint8

const (
	ValuePointer ValueKind = iota // an offset into a grid (RRP, RWP, head, tail)
	ValueFlag                     // 0 or 1 (STS.FULL)
	ValueGauge                    // a level, e.g. outstanding DC ops
)

// ValueSpec declares a named value.
type ValueSpec struct {
	ID    string // "rwp", "rrp", "full", "dc_outstanding"
	Label string
	Kind  ValueKind
	Grid  int   // grid a pointer points into, -1 if none
	Max   int64 // full scale for a gauge
}

// SpanSpec declares a highlighted range of cells, e.g. the synced span.
type SpanSpec struct {
	ID    string
	Label string
	Grid  int
}

// CellState is what a view knows about one cell.
type CellState uint8

const (
	CellEmpty         CellState = iota // never written in this run
	CellDeviceWritten                  // a device wrote it; the CPU has not looked
	CellCPUWritten                     // the CPU wrote it (dirty or written back)
	CellInvalidated                    // cache maintenance made the CPU's view current
	CellCleaned                        // cleaned to the point of coherency
	CellCached                         // filled into the CPU cache by a read
	CellCopied                         // copied out by the CPU, data correct
	CellStale                          // the CPU read an older version than memory holds
	CellLost                           // data overwritten or dropped without being reported
	CellUncachedRead                   // read through a Normal-NC mapping
	// CellStaleCopy: a CPU cache holds a clean copy older than the line's
	// newest data (a device wrote the line after the CPU cached it): a
	// read would return old data. It lasts until the copy is read (Stale),
	// invalidated, evicted or written again.
	CellStaleCopy
	// CellDoomed: a CPU cache holds the line dirty, older than what a
	// device wrote under it: the write-back will destroy the device's
	// data (Lost), which is as good as lost from now.
	CellDoomed
	NumCellStates
)

var cellStateNames = [...]string{"empty", "device-written", "cpu-written", "invalidated", "cleaned", "cached", "copied", "stale", "lost",
	"uncached-read", "stale-copy", "doomed"}

// CellWhy says what put a cell in its state, where the state alone does
// not (a stale copy or doomed line: who made the cached copy old). It
// rides on the event that set the state (Recorder.CellsWhy), not in the
// State; Timeline.CellCause finds it.
type CellWhy uint8

const (
	WhyNone        CellWhy = iota
	WhyDeviceWrite         // a device wrote the line in memory after the CPU cached it
	WhyBounceSlot          // a device wrote the line's SWIOTLB bounce slot while the CPU had it cached
	WhyNCWrite             // the CPU wrote the line through a Normal-NC alias while a cacheable copy was cached
)

func (c CellState) String() string {
	if int(c) < len(cellStateNames) {
		return cellStateNames[c]
	}
	return "unknown"
}

// Cell is one cell's state and who wrote its data last.
type Cell struct {
	State  CellState
	Writer uint8 // 0 = nobody, 1 = CPU, 2.. = devices (scenario-defined names)
}

// CacheLine is one way of one set in a cache window.
type CacheLine struct {
	Tag   uint64 // line address (physical), meaningful when Valid
	Valid bool
	Dirty bool
	// Writer owns the line (a TLB entry's stream); 0 when not recorded.
	Writer uint8
	// Stale says the line is older than memory (a device wrote it after
	// it was cached): a stale copy, or a doomed one when also Dirty.
	Stale bool
}

// State is the full drawable state at one cursor position.
type State struct {
	Cells  [][]Cell      // per grid
	Caches [][]CacheLine // per cache window, index = (set-FirstSet)*Ways + way
	Values []int64       // per value spec
	Spans  []SpanRange   // per span spec
}

// SpanRange is a span's current range; Count 0 hides it.
type SpanRange struct{ First, Count int }

// EventKind says which part of State an event changes.
type EventKind uint8

const (
	EvCells EventKind = iota // Obj grid; A first cell; B count; C state | writer<<8 | why<<16
	EvCache                  // Obj cache; A index; B tag; C 1=valid | 2=dirty | 4=stale | writer<<8
	EvValue                  // Obj value; A new value
	EvSpan                   // Obj span; A first; B count
	EvMark                   // no state change; A narration step index
)

// Event is one recorded change.
type Event struct {
	T    sim.Time
	Kind EventKind
	Obj  int32
	A, B int64
	C    int64
}

// Keyframe is a snapshot of State after the first Event events.
type Keyframe struct {
	Event int
	State State
}

// Clone returns a deep copy of s.
func (s *State) Clone() State {
	var c State
	c.Cells = make([][]Cell, len(s.Cells))
	for i, g := range s.Cells {
		c.Cells[i] = append([]Cell(nil), g...)
	}
	c.Caches = make([][]CacheLine, len(s.Caches))
	for i, g := range s.Caches {
		c.Caches[i] = append([]CacheLine(nil), g...)
	}
	c.Values = append([]int64(nil), s.Values...)
	c.Spans = append([]SpanRange(nil), s.Spans...)
	return c
}

// CopyFrom overwrites s with src, reusing s's slices when they are large
// enough (so a player seeking every frame does not allocate).
func (s *State) CopyFrom(src *State) {
	s.Cells = resize(s.Cells, len(src.Cells))
	for i := range src.Cells {
		s.Cells[i] = append(s.Cells[i][:0], src.Cells[i]...)
	}
	s.Caches = resize(s.Caches, len(src.Caches))
	for i := range src.Caches {
		s.Caches[i] = append(s.Caches[i][:0], src.Caches[i]...)
	}
	s.Values = append(s.Values[:0], src.Values...)
	s.Spans = append(s.Spans[:0], src.Spans...)
}

func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return append(s[:cap(s)], make([]T, n-cap(s))...)
}

// Apply changes s by one event. Out-of-range events are ignored, so a
// malformed timeline can be drawn wrong but never panics the page. It
// takes the event by reference: in WebAssembly a copy of an Event is a
// call to memory.copy.
func (s *State) Apply(e *Event) {
	switch e.Kind {
	case EvCells:
		if int(e.Obj) < 0 || int(e.Obj) >= len(s.Cells) {
			return
		}
		g := s.Cells[e.Obj]
		lo, hi := clampRange(e.A, e.B, len(g))
		c := Cell{State: CellState(e.C & 0xff), Writer: uint8(e.C >> 8)}
		for i := lo; i < hi; i++ {
			g[i] = c
		}
	case EvCache:
		if int(e.Obj) < 0 || int(e.Obj) >= len(s.Caches) {
			return
		}
		g := s.Caches[e.Obj]
		if e.A < 0 || e.A >= int64(len(g)) {
			return
		}
		g[e.A] = CacheLine{Tag: uint64(e.B), Valid: e.C&1 != 0, Dirty: e.C&2 != 0, Stale: e.C&4 != 0, Writer: uint8(e.C >> 8)}
	case EvValue:
		if int(e.Obj) >= 0 && int(e.Obj) < len(s.Values) {
			s.Values[e.Obj] = e.A
		}
	case EvSpan:
		if int(e.Obj) >= 0 && int(e.Obj) < len(s.Spans) {
			s.Spans[e.Obj] = SpanRange{First: int(e.A), Count: int(e.B)}
		}
	}
}

func clampRange(first, count int64, n int) (int, int) {
	lo, hi := first, first+count
	if lo < 0 {
		lo = 0
	}
	if hi > int64(n) {
		hi = int64(n)
	}
	if hi < lo {
		hi = lo
	}
	return int(lo), int(hi)
}

// EventsUntil returns how many events happened at or before t.
func (tl *Timeline) EventsUntil(t sim.Time) int {
	return sort.Search(len(tl.Events), func(i int) bool { return tl.Events[i].T > t })
}

// CellCause returns when cell of grid took the state it has after the
// first n events, and the cause its event carried (Recorder.CellsWhy):
// the latest of those events that covers the cell. ok is false when none
// does (the cell has its initial state).
func (tl *Timeline) CellCause(grid, cell, n int) (since sim.Time, why CellWhy, ok bool) {
	n = min(max(n, 0), len(tl.Events))
	for i := n - 1; i >= 0; i-- {
		e := &tl.Events[i]
		if e.Kind == EvCells && int(e.Obj) == grid && int64(cell) >= e.A && int64(cell) < e.A+e.B {
			return e.T, CellWhy(e.C >> 16 & 0xff), true
		}
	}
	return 0, WhyNone, false
}

// StateAt writes into dst the state after the first n events (clamped to
// [0, len(Events)]): the nearest keyframe at or before n, then a replay.
func (tl *Timeline) StateAt(n int, dst *State) {
	if n < 0 {
		n = 0
	}
	if n > len(tl.Events) {
		n = len(tl.Events)
	}
	if len(tl.Keyframes) == 0 {
		*dst = State{}
		return
	}
	k := sort.Search(len(tl.Keyframes), func(i int) bool { return tl.Keyframes[i].Event > n }) - 1
	if k < 0 {
		k = 0
	}
	dst.CopyFrom(&tl.Keyframes[k].State)
	evs := tl.Events[tl.Keyframes[k].Event:n]
	for i := range evs {
		dst.Apply(&evs[i])
	}
}
