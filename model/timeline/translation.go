package timeline

import (
	"sort"

	"github.com/dmaviz/dmaviz/model/sim"
)

// Translation is what the page-mapping and TLB views show, recorded
// beside the Timeline (Timeline.Translation, nil when the scenario records
// none): the mappings of the buffers a scenario watches, the allocator's
// chunks behind them, the TLBs' contents over time, sampled table walks
// and a write pointer per agent. It is plain data.
//
// Memory is bounded whatever the run's size (the recorder's ceilings):
//
//   - at most MaxMappings mapping runs: beyond it, runs of the same leaf
//     size that are adjacent in VA merge and lose their physical place
//     (Mapping.Scattered);
//   - at most MaxChunks chunks (later ones are not recorded but counted
//     in DroppedChunks; their mappings name no chunk);
//   - TLB contents: at most MaxTLBEvents fills and invalidations, and at
//     most MaxTLBKeys snapshots of every TLB (thinned like the Timeline's
//     keyframes); after MaxTLBEvents only snapshots are taken, so the
//     view is exact at snapshot times;
//   - at most MaxWalkSteps walk steps: when full, every other walk is
//     dropped and only every 2^k-th later walk is kept (uniform in time);
//   - at most MaxPointerMoves positions of all write pointers, thinned
//     alike (every other one dropped, the stride doubled).
//
// With TLBs of MaxTLBEntries entries in all (the presets' largest is
// 2048 + 96 + 1) this is at most about 30 MiB for any run
// (TestTranslationWorstCaseBytes).
//
// MaxTLBEntries is a recommendation for what a scenario declares, not
// enforced.
//
// A scenario on a soc machine fills it by observing: hwview.NewRecording, then
// Recording.WatchTLBs (the core's L1 data TLB and the shared L2 TLB),
// WatchRequester for each trace port's TLB, MapBuffer for each buffer
// (with the allocator's chunks), Recorder.AddPointer and MovePointer as
// its agent writes; TLB fills, evictions and walk steps then come from
// the machine's events. The stage draws the page-mapping and TLB views
// for any side whose Timeline has a Translation.
type Translation struct {
	// Mappings are VA-ordered, non-overlapping runs of leaves of one size.
	Mappings []Mapping
	// Chunks are the allocator's allocations behind the mappings (e.g.
	// rb_alloc_aux's chunks), in buffer order.
	Chunks []Chunk
	// TLBs declares each TLB shown (L1 ports, then the shared L2).
	TLBs []TLBSpec
	// TLBEvents change TLB entries; T never decreases along the slice.
	TLBEvents []TLBEvent
	// TLBKeys are snapshots of every TLB: TLBKeys[i].Entries[k] is TLB k
	// after TLBEvents[:TLBKeys[i].Event] (or at TLBKeys[i].T when events
	// stopped being recorded). Invariant: TLBKeys[0] is the empty state
	// at time 0.
	TLBKeys []TLBKey
	// Walks are sampled table-walk steps in time order; the steps of one
	// walk share Walk.
	Walks []WalkStep
	// Pointers are the write pointers, one per writing agent.
	Pointers []PointerSpec
	// Moves are pointer positions in time order.
	Moves []PointerMove
	// WalkStride is the sampling of walks after MaxWalkSteps (1: all
	// kept); MoveStride likewise for Moves.
	WalkStride, MoveStride int
	// Dropped counts TLB events that were not recorded (over the ceiling).
	Dropped int
	// DroppedChunks counts chunks that were not recorded (over MaxChunks).
	DroppedChunks int
}

// Ceilings of a Translation (see its doc comment).
const (
	MaxMappings     = 1 << 16
	MaxChunks       = 1 << 12
	MaxTLBEvents    = 1 << 17
	MaxTLBKeys      = 64
	MaxWalkSteps    = 1 << 14
	MaxPointerMoves = 1 << 12
	// TLBKeyEvery is the initial number of TLB events between snapshots.
	TLBKeyEvery = 1024
	// MaxTLBEntries is the entries of all TLBs a recording should declare.
	MaxTLBEntries = 4200
)

// Leaf sizes of a mapping, in bytes.
const (
	Leaf4K  = 4 << 10
	Leaf64K = 64 << 10 // 16 PTEs with the contiguous hint
	Leaf2M  = 2 << 20
	Leaf1G  = 1 << 30
)

// LeafName names a leaf size: "4K", "64K contig", "2M block", "1G block".
func LeafName(bytes uint64) string {
	switch bytes {
	case Leaf4K:
		return "4K page"
	case Leaf64K:
		return "64K contig"
	case Leaf2M:
		return "2M block"
	case Leaf1G:
		return "1G block"
	}
	return sizeName(bytes)
}

func sizeName(b uint64) string {
	switch {
	case b >= 1<<30 && b%(1<<30) == 0:
		return itoa(b>>30) + "G"
	case b >= 1<<20 && b%(1<<20) == 0:
		return itoa(b>>20) + "M"
	case b >= 1<<10 && b%(1<<10) == 0:
		return itoa(b>>10) + "K"
	}
	return itoa(b) + "B"
}

func itoa(v uint64) string {
	if v == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for v > 0 {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
	}
	return string(b[i:])
}

// Mapping is a run of leaves of one size: VA..VA+Bytes maps to
// PA..PA+Bytes (unless Scattered).
type Mapping struct {
	VA, PA, Bytes uint64
	Leaf          uint64 // leaf size: Leaf4K, Leaf64K, Leaf2M or Leaf1G
	Attr          string // "normal", "normal-nc", "device"
	ReadOnly      bool
	// Chunk is the index in Translation.Chunks the run's pages came from,
	// -1 for none or several.
	Chunk int
	// Scattered: the run merged physically separate runs (over
	// MaxMappings); PA is the first one's.
	Scattered bool
	// Buffer names the buffer the run belongs to (the grid id).
	Buffer string
	// T is when the run was mapped (the view shows it from then on).
	T sim.Time
}

// Chunk is one allocation of physically contiguous pages.
type Chunk struct {
	PA    uint64
	Order int // 2^Order pages
	// VA is where the chunk's first page is mapped in the buffer.
	VA uint64
}

// Bytes is the chunk's size.
func (c Chunk) Bytes() uint64 { return 4096 << c.Order }

// TLBSpec declares one TLB.
type TLBSpec struct {
	Name    string // "l1d_tlb", "l2_tlb", "trbe_tlb"
	Label   string
	Entries int
	Ways    int
	Level   int // 0: a requester's L1 TLB, 1: the shared L2 TLB
	Owner   uint8
}

// TLBEntryRec is one TLB entry as recorded.
type TLBEntryRec struct {
	VA, PA uint64
	Bytes  uint64
	Owner  uint8 // requester whose miss allocated it (hwevent agent id)
	Valid  bool
}

// TLBEventKind is what a TLBEvent did.
type TLBEventKind uint8

const (
	TLBFill       TLBEventKind = iota // entry Index now holds Entry (Evicted: Old left)
	TLBInvalidate                     // every entry of TLB invalid
)

// TLBEvent is one change of a TLB.
type TLBEvent struct {
	T       sim.Time
	Kind    TLBEventKind
	TLB     int
	Index   int
	Entry   TLBEntryRec
	Evicted bool
	Old     TLBEntryRec
}

// TLBKey is a snapshot of every TLB.
type TLBKey struct {
	T       sim.Time
	Event   int
	Entries [][]TLBEntryRec
	// Last is each TLB's last fill before the snapshot (Index -1: none).
	Last []TLBEvent
}

// Walk step kinds (what the descriptor was).
const (
	DescInvalid = "invalid"
	DescTable   = "table"
	DescBlock   = "block"
	DescPage    = "page"
)

// WalkStep is one level of a table walk.
type WalkStep struct {
	T     sim.Time // when the descriptor arrived
	Walk  int      // walk number (steps of one walk share it)
	Agent uint8    // requester that walked
	VA    uint64   // address being translated
	Level int      // 0..3
	// DescAddr is the descriptor's physical address; Desc its value.
	DescAddr, Desc uint64
	Kind           string // DescTable, DescBlock, DescPage, DescInvalid
	// WalkCache: it came from a walk cache (no memory read).
	WalkCache bool
}

// PointerSpec declares a write pointer.
type PointerSpec struct {
	ID    string // "core", "trbe"
	Label string
	Agent uint8
}

// PointerMove is a pointer's position (a VA) from T on.
type PointerMove struct {
	T       sim.Time
	Pointer int
	VA      uint64
}

// TLBState is every TLB's contents at a cursor time, with what changed
// last (for highlighting).
type TLBState struct {
	Entries [][]TLBEntryRec
	// Last is the last fill at or before the time, per TLB (Index -1:
	// none since the last snapshot or invalidation).
	Last []TLBEvent
}

// TLBsAt returns the TLB contents at time t into dst (reused).
func (x *Translation) TLBsAt(t sim.Time, dst *TLBState) {
	n := len(x.TLBs)
	dst.Entries = resize(dst.Entries, n)
	dst.Last = resize(dst.Last, n)
	k := sort.Search(len(x.TLBKeys), func(i int) bool { return x.TLBKeys[i].T > t }) - 1
	for i := range dst.Last {
		dst.Last[i] = TLBEvent{TLB: i, Index: -1}
		if k >= 0 && i < len(x.TLBKeys[k].Last) {
			dst.Last[i] = x.TLBKeys[k].Last[i]
		}
	}
	from := 0
	for i := range dst.Entries {
		dst.Entries[i] = resize(dst.Entries[i], x.TLBs[i].Entries)
		if k >= 0 && i < len(x.TLBKeys[k].Entries) {
			copy(dst.Entries[i], x.TLBKeys[k].Entries[i])
		} else {
			clear(dst.Entries[i])
		}
	}
	if k >= 0 {
		from = x.TLBKeys[k].Event
	}
	for _, e := range x.TLBEvents[min(from, len(x.TLBEvents)):] {
		if e.T > t {
			break
		}
		applyTLB(dst.Entries, e)
		if e.TLB < n {
			if e.Kind == TLBFill {
				dst.Last[e.TLB] = e
			} else {
				dst.Last[e.TLB] = TLBEvent{TLB: e.TLB, Index: -1}
			}
		}
	}
}

func applyTLB(ents [][]TLBEntryRec, e TLBEvent) {
	if e.TLB < 0 || e.TLB >= len(ents) {
		return
	}
	switch e.Kind {
	case TLBFill:
		if e.Index >= 0 && e.Index < len(ents[e.TLB]) {
			ents[e.TLB][e.Index] = e.Entry
		}
	case TLBInvalidate:
		clear(ents[e.TLB])
	}
}

// WalkAt returns the steps of the last recorded walk that started at or
// before t, and how many of them had arrived by t.
func (x *Translation) WalkAt(t sim.Time) (steps []WalkStep, arrived int) {
	// The walk's first step arrives after its first read; a walk "starts"
	// at its first step's time.
	i := sort.Search(len(x.Walks), func(i int) bool { return x.Walks[i].T > t })
	if i == 0 {
		return nil, 0
	}
	w := x.Walks[i-1].Walk
	lo := i - 1
	for lo > 0 && x.Walks[lo-1].Walk == w {
		lo--
	}
	hi := i
	for hi < len(x.Walks) && x.Walks[hi].Walk == w {
		hi++
	}
	return x.Walks[lo:hi], i - lo
}

// PointerAt returns pointer p's VA at t (ok false before its first move).
func (x *Translation) PointerAt(p int, t sim.Time) (va uint64, ok bool) {
	i := sort.Search(len(x.Moves), func(i int) bool { return x.Moves[i].T > t })
	for j := i - 1; j >= 0; j-- {
		if x.Moves[j].Pointer == p {
			return x.Moves[j].VA, true
		}
	}
	return 0, false
}

// MappingAt returns the index of the mapping holding va, or -1.
func (x *Translation) MappingAt(va uint64) int {
	i := sort.Search(len(x.Mappings), func(i int) bool { return x.Mappings[i].VA+x.Mappings[i].Bytes > va })
	if i < len(x.Mappings) && va >= x.Mappings[i].VA {
		return i
	}
	return -1
}

// LeafBytes sums the mapped bytes per leaf size (4K, 64K, 2M, 1G).
func (x *Translation) LeafBytes() map[uint64]uint64 {
	out := map[uint64]uint64{}
	for _, m := range x.Mappings {
		out[m.Leaf] += m.Bytes
	}
	return out
}
