package timeline

import "github.com/dmaviz/dmaviz/model/sim"

// Recorder limits, see Timeline.
const (
	DefaultKeyEvery = 4096
	MaxKeyframes    = 128
	CoalesceAfter   = 1 << 20
	// MaxEvents and MaxPhases are the recorder's ceilings: past them it
	// records no more events (or phases) and closes the timeline with the
	// final state (Timeline.Truncated).
	MaxEvents = 3 << 19 // 1.5 M events, 60 MiB
	MaxPhases = 1 << 17 // 131072 phases, 8 MiB
)

// Recorder builds a Timeline while a model runs. Declare the objects first
// (AddGrid, AddCache, AddValue, AddSpan), then record changes in time order.
// A Recorder is single-threaded, like the model.
//
// Its memory has a fixed ceiling whatever the run records: at most
// MaxEvents events of 40 bytes (60 MiB), MaxPhases phases (about 8 MiB
// with their texts' headers; the texts are the scenario's constants), and
// MaxKeyframes+1 copies of the State plus the live one. A State costs 2
// bytes per declared grid cell, 24 per cache way and 8 per value or span,
// and the scenarios bound their grids (65536 cells each at most), so a
// State is at most a few hundred KiB and the keyframes a few tens of MiB.
// Events past MaxEvents still update the live state, which the timeline
// ends with.
type Recorder struct {
	tl       Timeline
	live     State
	keyEvery int
	started  bool
	now      sim.Time
	full     bool // MaxEvents reached: events only update the live state

	counterIdx map[string]int // Timeline.Counters by name (counters.go)
	tx         *transRec      // translation views' data (translation_record.go)
}

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder { return &Recorder{keyEvery: DefaultKeyEvery} }

// AddGrid declares a grid and returns its index.
func (r *Recorder) AddGrid(g GridSpec) int {
	r.tl.Grids = append(r.tl.Grids, g)
	r.live.Cells = append(r.live.Cells, make([]Cell, max(g.Cells, 0)))
	return len(r.tl.Grids) - 1
}

// AddCache declares a cache window and returns its index.
func (r *Recorder) AddCache(c CacheSpec) int {
	r.tl.Caches = append(r.tl.Caches, c)
	r.live.Caches = append(r.live.Caches, make([]CacheLine, max(c.Sets*c.Ways, 0)))
	return len(r.tl.Caches) - 1
}

// AddValue declares a named value (initially v) and returns its index.
func (r *Recorder) AddValue(v ValueSpec, initial int64) int {
	r.tl.Values = append(r.tl.Values, v)
	r.live.Values = append(r.live.Values, initial)
	return len(r.tl.Values) - 1
}

// AddSpan declares a highlighted span (initially hidden) and returns its index.
func (r *Recorder) AddSpan(s SpanSpec) int {
	r.tl.Spans = append(r.tl.Spans, s)
	r.live.Spans = append(r.live.Spans, SpanRange{})
	return len(r.tl.Spans) - 1
}

// Reserve makes room for n events (at most MaxEvents+1, the ceiling and
// the closing mark), so a scenario that knows about how many it records
// grows the event slice once instead of doubling it from 4096: each
// doubling copies every event so far and clears twice the room. Recording
// more than n still works (the slice doubles from there).
func (r *Recorder) Reserve(n int) {
	n = min(n, MaxEvents+1)
	if n <= cap(r.tl.Events) {
		return
	}
	grown := make([]Event, len(r.tl.Events), n)
	copy(grown, r.tl.Events)
	r.tl.Events = grown
}

// Live returns the current state (read-only for callers).
func (r *Recorder) Live() *State { return &r.live }

// push records one event. It takes the event's fields rather than an
// Event and writes them into the slice in place: in WebAssembly every copy
// of a struct this size is a call to memory.copy, and a run records
// hundreds of thousands of events.
func (r *Recorder) push(t sim.Time, kind EventKind, obj int32, a, b, c int64) {
	if !r.started {
		r.started = true
		r.tl.Keyframes = append(r.tl.Keyframes, Keyframe{Event: 0, State: r.live.Clone()})
	}
	if t < r.now {
		t = r.now // keep the invariant: time never decreases
	}
	r.now = t
	if r.full || len(r.tl.Events) >= MaxEvents {
		if !r.full {
			r.full, r.tl.Truncated, r.tl.TruncatedAt = true, true, t
		}
		e := Event{T: t, Kind: kind, Obj: obj, A: a, B: b, C: c}
		r.live.Apply(&e)
		return
	}
	n := len(r.tl.Events)
	if n >= CoalesceAfter && kind == EvCells && n > r.tl.Keyframes[len(r.tl.Keyframes)-1].Event {
		last := &r.tl.Events[n-1]
		if last.Kind == EvCells && last.Obj == obj && last.C == c && last.A+last.B == a {
			last.B += b
			last.T = t
			e := Event{T: t, Kind: kind, Obj: obj, A: a, B: b, C: c}
			r.live.Apply(&e)
			return
		}
	}
	if n == cap(r.tl.Events) {
		// Double, rather than append's 1.25x for large slices: a run
		// records hundreds of thousands of events, and each growth copies
		// them all.
		// Room for the closing mark past the ceiling (see Finish).
		grown := make([]Event, n, min(max(2*cap(r.tl.Events), 4096), MaxEvents+1))
		copy(grown, r.tl.Events)
		r.tl.Events = grown
	}
	r.tl.Events = r.tl.Events[:n+1]
	e := &r.tl.Events[n]
	e.T, e.Kind, e.Obj, e.A, e.B, e.C = t, kind, obj, a, b, c
	r.live.Apply(e)
	n++
	if n%r.keyEvery == 0 {
		if len(r.tl.Keyframes) >= MaxKeyframes {
			kept := r.tl.Keyframes[:0]
			for i, k := range r.tl.Keyframes {
				if i%2 == 0 {
					kept = append(kept, k)
				}
			}
			r.tl.Keyframes = kept
			r.keyEvery *= 2
		}
		if n%r.keyEvery == 0 {
			r.tl.Keyframes = append(r.tl.Keyframes, Keyframe{Event: n, State: r.live.Clone()})
		}
	}
}

// Cells sets count cells of grid from first to state, written last by writer.
func (r *Recorder) Cells(t sim.Time, grid, first, count int, state CellState, writer uint8) {
	if count <= 0 {
		return
	}
	r.push(t, EvCells, int32(grid), int64(first), int64(count), int64(state)|int64(writer)<<8)
}

// CellsWhy is Cells for a state that carries its cause (a stale copy or
// a doomed line): why rides on the event, for Timeline.CellCause.
func (r *Recorder) CellsWhy(t sim.Time, grid, first, count int, state CellState, writer uint8, why CellWhy) {
	if count <= 0 {
		return
	}
	r.push(t, EvCells, int32(grid), int64(first), int64(count), int64(state)|int64(writer)<<8|int64(why)<<16)
}

// StaleLine marks the valid line at index of a cache window as older than
// memory (CacheLine.Stale) until its way next changes. A way that is not
// valid is left alone.
func (r *Recorder) StaleLine(t sim.Time, cache, index int) {
	if cache < 0 || cache >= len(r.live.Caches) || index < 0 || index >= len(r.live.Caches[cache]) {
		return
	}
	l := r.live.Caches[cache][index]
	if !l.Valid || l.Stale {
		return
	}
	c := int64(1 | 4)
	if l.Dirty {
		c |= 2
	}
	r.push(t, EvCache, int32(cache), int64(index), int64(l.Tag), c|int64(l.Writer)<<8)
}

// CacheLine records the content of one way of a cache window. index is
// (set-FirstSet)*Ways + way; lines outside the window are not recorded.
func (r *Recorder) CacheLine(t sim.Time, cache, index int, tag uint64, valid, dirty bool) {
	var c int64
	if valid {
		c |= 1
	}
	if dirty {
		c |= 2
	}
	r.push(t, EvCache, int32(cache), int64(index), int64(tag), c)
}

// Value sets a named value.
func (r *Recorder) Value(t sim.Time, value int, v int64) {
	if value >= 0 && value < len(r.live.Values) && r.live.Values[value] == v {
		return
	}
	r.push(t, EvValue, int32(value), v, 0, 0)
}

// Span sets a highlighted span; count 0 hides it.
func (r *Recorder) Span(t sim.Time, span, first, count int) {
	r.push(t, EvSpan, int32(span), int64(first), int64(count), 0)
}

// Mark records a point without a state change (e.g. a narration step), so
// stepping by event stops there.
func (r *Recorder) Mark(t sim.Time, step int) {
	r.push(t, EvMark, 0, int64(step), 0, 0)
}

// Phase records a span of time spent on one kind of work (at most
// MaxPhases; later ones are dropped and Timeline.PhasesTruncated says so).
func (r *Recorder) Phase(p Phase) {
	if p.End <= p.Start {
		return
	}
	if len(r.tl.Phases) >= MaxPhases {
		r.tl.PhasesTruncated = true
		return
	}
	r.tl.Phases = append(r.tl.Phases, p)
}

// Finish closes the timeline at end and returns it. The recorder must not
// be used afterwards.
func (r *Recorder) Finish(end sim.Time) *Timeline {
	if !r.started {
		r.started = true
		r.tl.Keyframes = append(r.tl.Keyframes, Keyframe{Event: 0, State: r.live.Clone()})
	}
	if end < r.now {
		end = r.now
	}
	if r.full {
		// The events past the ceiling are summed up by a last mark and a
		// keyframe of the final state after it (replacing the last
		// keyframe if there is no room: the one before still replays).
		r.tl.Events = append(r.tl.Events, Event{T: r.now, Kind: EvMark, A: -1})
		if len(r.tl.Keyframes) >= MaxKeyframes {
			r.tl.Keyframes = r.tl.Keyframes[:MaxKeyframes-1]
		}
		r.tl.Keyframes = append(r.tl.Keyframes, Keyframe{Event: len(r.tl.Events), State: r.live.Clone()})
	}
	r.tl.End = end
	r.tl.Translation = r.finishTranslation()
	tl := r.tl
	r.tl = Timeline{}
	return &tl
}
