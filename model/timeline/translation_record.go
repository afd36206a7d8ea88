package timeline

import (
	"sort"

	"github.com/dmaviz/dmaviz/model/sim"
)

// transRec is the Recorder's translation part (Recorder.tx), created by
// the first translation call.
type transRec struct {
	x        Translation
	live     [][]TLBEntryRec
	last     []TLBEvent // each TLB's last fill (Index -1: none)
	keyEvery int
	since    int // TLB changes since the last snapshot
	now      sim.Time
	walks    int // walks begun (numbered from 0)
	keepWalk bool
	moves    int // moves offered
	// spare are keys thinning dropped, whose copies the next snapshots
	// reuse (none is in the Translation).
	spare []TLBKey
}

func (r *Recorder) trans() *transRec {
	if r.tx == nil {
		r.tx = &transRec{keyEvery: TLBKeyEvery}
		r.tx.x.WalkStride, r.tx.x.MoveStride = 1, 1
		r.tx.x.TLBKeys = []TLBKey{{}}
	}
	return r.tx
}

// Translating reports whether anything translation-related was recorded.
func (r *Recorder) Translating() bool { return r.tx != nil }

// ReserveTLBEvents makes room for n TLB fills and invalidations (at most
// MaxTLBEvents), so a scenario that knows about how many its recording
// sees grows the list once instead of doubling it: each doubling copies
// every event so far. Recording more than n still works.
func (r *Recorder) ReserveTLBEvents(n int) {
	x := &r.trans().x
	x.TLBEvents = reserve(x.TLBEvents, min(n, MaxTLBEvents))
}

// reserve returns s with room for n elements (s itself when it has it).
func reserve[T any](s []T, n int) []T {
	if n <= cap(s) {
		return s
	}
	grown := make([]T, len(s), n)
	copy(grown, s)
	return grown
}

// continuedBy reports whether a run at va, pa (a leaf of leaf bytes, with
// these attributes, chunk, buffer and time) continues run l, so that
// MapRun extends l rather than adding a run.
func (l *Mapping) continuedBy(va, pa, leaf uint64, attr string, readOnly bool, chunk int, buffer string, t sim.Time) bool {
	return l.VA+l.Bytes == va && l.PA+l.Bytes == pa && l.Leaf == leaf && l.Attr == attr &&
		l.ReadOnly == readOnly && l.Chunk == chunk && l.Buffer == buffer && l.T == t
}

// MapRun records a mapping run. Runs may come in any order; the recorder
// sorts them by VA and merges runs beyond MaxMappings.
func (r *Recorder) MapRun(m Mapping) {
	x := &r.trans().x
	if m.Bytes == 0 {
		return
	}
	if n := len(x.Mappings); n > 0 {
		l := &x.Mappings[n-1]
		if !m.Scattered && l.continuedBy(m.VA, m.PA, m.Leaf, m.Attr, m.ReadOnly, m.Chunk, m.Buffer, m.T) {
			l.Bytes += m.Bytes
			return
		}
		if n >= MaxMappings && l.VA+l.Bytes == m.VA && l.Leaf == m.Leaf && l.Buffer == m.Buffer {
			l.Bytes += m.Bytes
			l.Scattered = true
			if l.Chunk != m.Chunk {
				l.Chunk = -1
			}
			return
		}
		if n >= MaxMappings {
			// Not adjacent: fold into the last run anyway (the view is
			// approximate past the ceiling).
			if m.VA+m.Bytes > l.VA+l.Bytes && m.VA >= l.VA {
				l.Bytes = m.VA + m.Bytes - l.VA
				l.Scattered = true
			}
			return
		}
	}
	x.Mappings = append(x.Mappings, m)
}

// ExtendMapping is MapRun's first rule for a recording that reads a page
// table leaf by leaf, without a Mapping built and passed by value per leaf
// (a memory.copy call each in Go's WASM port): when n bytes at va, pa
// (leaves of leaf bytes, with these attributes, chunk, buffer and time)
// continue the last run, it lengthens that run by n and reports true;
// otherwise it records nothing.
func (r *Recorder) ExtendMapping(va, pa, n, leaf uint64, attr string, readOnly bool, chunk int, buffer string, t sim.Time) bool {
	x := &r.trans().x
	k := len(x.Mappings)
	if n == 0 || k == 0 || !x.Mappings[k-1].continuedBy(va, pa, leaf, attr, readOnly, chunk, buffer, t) {
		return false
	}
	x.Mappings[k-1].Bytes += n
	return true
}

// ReserveMappings makes room for n more mapping runs (at most MaxMappings
// in all), so a recording that knows about how many it adds grows the
// list once.
func (r *Recorder) ReserveMappings(n int) {
	x := &r.trans().x
	x.Mappings = reserve(x.Mappings, min(MaxMappings, len(x.Mappings)+n))
}

// ChunkCount returns how many chunks are recorded: the index the next
// AddChunk gives (below MaxChunks).
func (r *Recorder) ChunkCount() int { return len(r.trans().x.Chunks) }

// AddChunk records an allocator chunk and returns its index (once
// MaxChunks are recorded, later chunks are counted in DroppedChunks and -1
// is returned).
func (r *Recorder) AddChunk(c Chunk) int {
	x := &r.trans().x
	if len(x.Chunks) >= MaxChunks {
		x.DroppedChunks++
		return -1
	}
	x.Chunks = append(x.Chunks, c)
	return len(x.Chunks) - 1
}

// AddTLB declares a TLB and returns its index.
func (r *Recorder) AddTLB(s TLBSpec) int {
	t := r.trans()
	t.x.TLBs = append(t.x.TLBs, s)
	t.live = append(t.live, make([]TLBEntryRec, max(s.Entries, 0)))
	t.last = append(t.last, TLBEvent{TLB: len(t.live) - 1, Index: -1})
	k := &t.x.TLBKeys[0]
	k.Entries = append(k.Entries, make([]TLBEntryRec, max(s.Entries, 0)))
	return len(t.x.TLBs) - 1
}

// LiveTLB returns TLB k's current entries (read-only).
func (r *Recorder) LiveTLB(k int) []TLBEntryRec {
	if r.tx == nil || k < 0 || k >= len(r.tx.live) {
		return nil
	}
	return r.tx.live[k]
}

func (t *transRec) at(ts sim.Time) sim.Time {
	if ts < t.now {
		ts = t.now
	}
	t.now = ts
	return ts
}

// TLBFill records that entry index of TLB tlb now holds e at time ts; a
// valid entry it replaces is recorded as evicted.
func (r *Recorder) TLBFill(ts sim.Time, tlb, index int, e TLBEntryRec) {
	t := r.trans()
	if tlb < 0 || tlb >= len(t.live) || index < 0 || index >= len(t.live[tlb]) {
		return
	}
	e.Valid = true
	t.fill(t.at(ts), tlb, index, &e)
}

// fill is change for a fill of entry index of TLB tlb (both in range)
// with e, written field by field: in Go's WASM port a struct copy bigger
// than 16 bytes is a call, and a recorded run fills a TLB on every miss.
func (t *transRec) fill(ts sim.Time, tlb, index int, e *TLBEntryRec) {
	live := &t.live[tlb][index] // the old entry until the end
	evicted := live.Valid && *live != *e
	setFill(&t.last[tlb], ts, tlb, index, e, evicted, live)
	x := &t.x
	if n := len(x.TLBEvents); n < MaxTLBEvents {
		if n < cap(x.TLBEvents) {
			x.TLBEvents = x.TLBEvents[:n+1]
		} else {
			x.TLBEvents = append(x.TLBEvents, TLBEvent{})
		}
		setFill(&x.TLBEvents[n], ts, tlb, index, e, evicted, live)
	} else {
		x.Dropped++
	}
	setRec(live, e)
	t.changed(ts)
}

// setRec sets *d to *s field by field.
func setRec(d, s *TLBEntryRec) {
	d.VA, d.PA, d.Bytes, d.Owner, d.Valid = s.VA, s.PA, s.Bytes, s.Owner, s.Valid
}

// setFill sets *d to the fill of entry index of TLB tlb with e at ts,
// field by field.
func setFill(d *TLBEvent, ts sim.Time, tlb, index int, e *TLBEntryRec, evicted bool, old *TLBEntryRec) {
	d.T, d.Kind, d.TLB, d.Index, d.Evicted = ts, TLBFill, tlb, index, evicted
	setRec(&d.Entry, e)
	setRec(&d.Old, old)
}

// TLBInvalidateAll records that TLB tlb lost every entry at ts.
func (r *Recorder) TLBInvalidateAll(ts sim.Time, tlb int) {
	t := r.trans()
	if tlb < 0 || tlb >= len(t.live) {
		return
	}
	t.change(TLBEvent{T: t.at(ts), Kind: TLBInvalidate, TLB: tlb, Index: -1})
}

func (t *transRec) change(ev TLBEvent) {
	applyTLB(t.live, ev)
	if ev.Kind == TLBFill {
		t.last[ev.TLB] = ev
	} else {
		t.last[ev.TLB] = TLBEvent{TLB: ev.TLB, Index: -1}
	}
	x := &t.x
	if len(x.TLBEvents) < MaxTLBEvents {
		x.TLBEvents = append(x.TLBEvents, ev)
	} else {
		x.Dropped++
	}
	t.changed(ev.T)
}

// changed counts a TLB change at ts and takes a snapshot every keyEvery
// changes (thinning the snapshots to MaxTLBKeys).
func (t *transRec) changed(ts sim.Time) {
	x := &t.x
	t.since++
	if t.since < t.keyEvery {
		return
	}
	t.since = 0
	if len(x.TLBKeys) >= MaxTLBKeys {
		kept := x.TLBKeys[:1]
		for i := 1; i < len(x.TLBKeys); i++ {
			if i%2 == 0 {
				kept = append(kept, x.TLBKeys[i])
			} else { // dropped: its copies hold the next snapshots
				t.spare = append(t.spare, x.TLBKeys[i])
			}
		}
		clear(x.TLBKeys[len(kept):])
		x.TLBKeys = kept
		t.keyEvery *= 2
	}
	x.TLBKeys = append(x.TLBKeys, t.snapshot(ts, len(x.TLBEvents)))
}

// snapshot copies every TLB's entries and last fill into a key, reusing
// the copies of a key that thinning dropped.
func (t *transRec) snapshot(ts sim.Time, event int) TLBKey {
	var k TLBKey
	if n := len(t.spare); n > 0 {
		k = t.spare[n-1]
		t.spare[n-1] = TLBKey{}
		t.spare = t.spare[:n-1]
	}
	k.T, k.Event = ts, event
	k.Last = append(k.Last[:0], t.last...)
	k.Entries = reserve(k.Entries[:0], len(t.live))[:len(t.live)]
	for i, l := range t.live {
		k.Entries[i] = append(k.Entries[i][:0], l...)
	}
	return k
}

// BeginWalk starts a new walk for the following WalkStep calls; it
// returns whether the walk is kept (sampling past MaxWalkSteps).
func (r *Recorder) BeginWalk() bool {
	t := r.trans()
	w := t.walks
	t.walks++
	x := &t.x
	if len(x.Walks) >= MaxWalkSteps {
		// Drop every other kept walk, double the stride.
		kept := x.Walks[:0]
		for _, s := range x.Walks {
			if (s.Walk/x.WalkStride)%2 == 0 {
				kept = append(kept, s)
			}
		}
		x.Walks = kept
		x.WalkStride *= 2
	}
	t.keepWalk = w%x.WalkStride == 0
	return t.keepWalk
}

// WalkStep records one step of the current walk (Walk is filled in).
func (r *Recorder) WalkStep(s WalkStep) {
	t := r.trans()
	if t.walks == 0 {
		r.BeginWalk()
	}
	if !t.keepWalk {
		return
	}
	s.Walk = t.walks - 1
	if n := len(t.x.Walks); n > 0 && s.T < t.x.Walks[n-1].T {
		s.T = t.x.Walks[n-1].T
	}
	t.x.Walks = append(t.x.Walks, s)
}

// AddPointer declares a write pointer and returns its index.
func (r *Recorder) AddPointer(p PointerSpec) int {
	x := &r.trans().x
	x.Pointers = append(x.Pointers, p)
	return len(x.Pointers) - 1
}

// MovePointer records pointer p at va from ts on.
func (r *Recorder) MovePointer(ts sim.Time, p int, va uint64) {
	t := r.trans()
	x := &t.x
	if p < 0 || p >= len(x.Pointers) {
		return
	}
	t.moves++
	if (t.moves-1)%x.MoveStride != 0 {
		return
	}
	if len(x.Moves) >= MaxPointerMoves {
		kept := x.Moves[:0]
		for i, m := range x.Moves {
			if i%2 == 0 {
				kept = append(kept, m)
			}
		}
		x.Moves = kept
		x.MoveStride *= 2
	}
	if n := len(x.Moves); n > 0 && ts < x.Moves[n-1].T {
		ts = x.Moves[n-1].T
	}
	x.Moves = append(x.Moves, PointerMove{T: ts, Pointer: p, VA: va})
}

// finishTranslation hands the recorded translation to the timeline.
func (r *Recorder) finishTranslation() *Translation {
	if r.tx == nil {
		return nil
	}
	x := r.tx.x
	for i := 1; i < len(x.Mappings); i++ {
		if x.Mappings[i].VA < x.Mappings[i-1].VA { // runs came out of order (one check of each pair, else no sort)
			sort.SliceStable(x.Mappings, func(i, j int) bool { return x.Mappings[i].VA < x.Mappings[j].VA })
			break
		}
	}
	r.tx = nil
	return &x
}
