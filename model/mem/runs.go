package mem

import "sort"

// A page list is a buffer's 4 KiB frames in buffer order: pages[i] is the
// physical address of bytes [i*PageSize, (i+1)*PageSize). Run, RunAt and
// Runs are the one way the model splits a page list into its physically
// contiguous pieces (what a DMA stream, a scatterlist entry, a page-table
// run or a view's grid segment covers).

// Run is bytes [Off, Off+N) of a page list, physically contiguous from PA.
// List says which list it belongs to in a RunIndex (0 otherwise).
type Run struct {
	Off, PA, N uint64
	List       int
}

// RunAt returns the physically contiguous run of pages starting at byte
// off and ending at end at the latest (N 0 when off >= end or off is past
// the list). It allocates nothing.
func RunAt(pages []uint64, off, end uint64) Run {
	end = min(end, uint64(len(pages))<<PageShift)
	if off >= end {
		return Run{Off: off}
	}
	pg := off >> PageShift
	last := (end - 1) >> PageShift
	for pg < last && pages[pg+1] == pages[pg]+PageSize {
		pg++
	}
	return Run{Off: off, PA: pages[off>>PageShift] + off&(PageSize-1), N: min(end, (pg+1)<<PageShift) - off}
}

// Runs returns the physically contiguous runs of bytes [off, end) of
// pages, in list order (end is clipped to the list).
func Runs(pages []uint64, off, end uint64) []Run {
	var out []Run
	for {
		r := RunAt(pages, off, end)
		if r.N == 0 {
			return out
		}
		out = append(out, r)
		off += r.N
	}
}

// Contiguous reports whether the whole page list is one physical run.
func Contiguous(pages []uint64) bool {
	n := uint64(len(pages)) << PageShift
	return RunAt(pages, 0, n).N == n
}

// RunIndex finds where a physical address falls in the runs of one or
// more page lists. Lookups come in streams over one run (a copy, a DMA
// transfer), so the run of the last hit is tried first, then a binary
// search; nothing allocates.
type RunIndex struct {
	runs []Run // sorted by PA
	// last is the run of the last hit, [lastPA, lastPA+lastN) its frames
	// (lastN 0: none, or overlapping runs).
	last          int
	lastPA, lastN uint64
	// overlap says two runs share frames (one list mapped twice): Find
	// then always searches, and its answer is the earliest run by PA.
	overlap bool
}

// Add indexes the runs of the first size bytes of pages as list.
func (x *RunIndex) Add(list int, pages []uint64, size uint64) {
	for _, r := range Runs(pages, 0, size) {
		r.List = list
		x.runs = append(x.runs, r)
	}
	sort.Slice(x.runs, func(i, j int) bool { return x.runs[i].PA < x.runs[j].PA })
	x.overlap, x.lastN = false, 0
	for i := 1; i < len(x.runs); i++ {
		x.overlap = x.overlap || x.runs[i-1].PA+x.runs[i-1].N > x.runs[i].PA
	}
}

// Runs returns the indexed runs, sorted by physical address.
func (x *RunIndex) Runs() []Run { return x.runs }

// Find returns the index in Runs of the run holding physical address pa
// (its list offset is r.Off + pa - r.PA), or -1. Small enough to inline:
// the last hit's run is tried here, the search is a call.
func (x *RunIndex) Find(pa uint64) int {
	if pa-x.lastPA < x.lastN {
		return x.last
	}
	return x.search(pa)
}

// search is Find's binary search for the first run ending after pa.
func (x *RunIndex) search(pa uint64) int {
	lo, hi := 0, len(x.runs)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if r := &x.runs[mid]; r.PA+r.N > pa {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	if lo < len(x.runs) && pa >= x.runs[lo].PA {
		if !x.overlap {
			x.last, x.lastPA, x.lastN = lo, x.runs[lo].PA, x.runs[lo].N
		}
		return lo
	}
	return -1
}
