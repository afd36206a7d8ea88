package mem

import (
	"fmt"
	"sort"
)

// Writer ids: who wrote a line's data last. Devices use 2 and up (the
// scenario names them, see timeline.Recorder.Writer).
const (
	Nobody uint8 = 0
	CPU    uint8 = 1
)

// Versions records, for every tracked 64-byte line of physical memory, the
// version of the data held in DRAM and the newest version anyone has written
// (in DRAM or in a CPU cache), with the writer of each. A version is a
// run-wide counter that increases with every line write, so comparing two
// versions says which data is newer:
//
//   - a CPU read that returns version v is stale when v < Latest (the
//     device wrote DRAM after the cache filled, or an NC alias read DRAM
//     while a dirty cacheable copy was newer);
//   - a write-back of version v over DRAM holding Mem > v destroys newer
//     data (lost), as does discarding a dirty line newer than DRAM.
//
// Only ranges passed to Track are recorded (tracking a gigabyte costs about
// 160 MiB, so scenarios track the buffers they check); untracked lines have
// index -1 and are never flagged. Line data is addressed by a flat index so
// the machine's per-line path indexes slices directly.
type Versions struct {
	lineShift uint
	regions   []region // sorted by first line, disjoint
	last      int      // region of the previous lookup (sequential sweeps)
	// Lines [first, first+n) of regions[last] have index line+delta
	// (n is 0 while untracked).
	first, n uint64
	delta    int
	lo, hi   uint64 // lines outside [lo, hi) are untracked (fast reject)
	next     uint32 // last version handed out

	// Per tracked line, by index.
	Mem          []uint32 // version in DRAM
	Latest       []uint32 // newest version anywhere
	MemWriter    []uint8  // who wrote the DRAM data
	LatestWriter []uint8  // who wrote the newest data
	// Destroyed says the newest data was destroyed: a write-back put
	// older data over it in DRAM (WriteBack reported lost), and nothing
	// has written the line since.
	Destroyed []bool
}

type region struct {
	first, n uint64 // line numbers
	off      int    // index of the first line
}

// NewVersions returns an empty tracker for lines of 1<<lineShift bytes.
func NewVersions(lineShift uint) *Versions { return &Versions{lineShift: lineShift} }

// Track starts recording lines covering [pa, pa+bytes). Tracking a range
// that overlaps a tracked one is an error.
func (v *Versions) Track(pa, bytes uint64) error {
	if bytes == 0 {
		return nil
	}
	first := pa >> v.lineShift
	end := (pa + bytes + 1<<v.lineShift - 1) >> v.lineShift
	for _, r := range v.regions {
		if first < r.first+r.n && r.first < end {
			return fmt.Errorf("track %#x+%d: overlaps tracked lines %#x..%#x", pa, bytes, r.first<<v.lineShift, (r.first+r.n)<<v.lineShift)
		}
	}
	n := end - first
	off := len(v.Mem)
	v.regions = append(v.regions, region{first: first, n: n, off: off})
	sort.Slice(v.regions, func(i, j int) bool { return v.regions[i].first < v.regions[j].first })
	v.Mem = append(v.Mem, make([]uint32, n)...)
	v.Latest = append(v.Latest, make([]uint32, n)...)
	v.MemWriter = append(v.MemWriter, make([]uint8, n)...)
	v.LatestWriter = append(v.LatestWriter, make([]uint8, n)...)
	v.Destroyed = append(v.Destroyed, make([]bool, n)...)
	v.setLast(0)
	v.lo, v.hi = v.regions[0].first, 0
	for _, r := range v.regions {
		v.hi = max(v.hi, r.first+r.n)
	}
	return nil
}

// Tracked reports whether any range is tracked (a fast path for callers).
func (v *Versions) Tracked() bool { return len(v.regions) != 0 }

// Index returns the flat index of line number line, or -1 if untracked.
// The line of the previous lookup's region is answered here (small enough
// to inline into the per-line path); index does the rest.
func (v *Versions) Index(line uint64) int {
	if line-v.first < v.n {
		return int(line) + v.delta
	}
	return v.index(line)
}

func (v *Versions) index(line uint64) int {
	if line < v.lo || line >= v.hi {
		return -1
	}
	lo, hi := 0, len(v.regions)
	for lo < hi { // first region ending after line
		mid := (lo + hi) / 2
		if v.regions[mid].first+v.regions[mid].n > line {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	if lo < len(v.regions) && line >= v.regions[lo].first {
		v.setLast(lo)
		return v.regions[lo].off + int(line-v.regions[lo].first)
	}
	return -1
}

func (v *Versions) setLast(i int) {
	r := v.regions[i]
	v.last, v.first, v.n, v.delta = i, r.first, r.n, r.off-int(r.first)
}

// Run reports whether lines [line, line+n) are all tracked in one region
// (their indexes are then Index(line)+i) and returns Index(line).
func (v *Versions) Run(line, n uint64) (int, bool) {
	i := v.Index(line)
	if i < 0 || n == 0 {
		return i, false
	}
	r := &v.regions[v.last] // Index left the matching region here
	return i, line+n <= r.first+r.n
}

// Untracked reports that no line of [line, line+n) is tracked, from the
// tracked span alone (false means "maybe").
func (v *Versions) Untracked(line, n uint64) bool { return line >= v.hi || line+n <= v.lo }

// Next hands out a new version.
func (v *Versions) Next() uint32 {
	if v.next < ^uint32(0) {
		v.next++
	}
	return v.next
}

// WriteMem records writer putting new data directly in DRAM (a device, an
// NC store, a streaming store) at index i and returns its version.
func (v *Versions) WriteMem(i int, writer uint8) uint32 {
	ver := v.Next()
	v.Mem[i], v.Latest[i] = ver, ver
	v.MemWriter[i], v.LatestWriter[i] = writer, writer
	v.Destroyed[i] = false
	return ver
}

// WriteCached records the CPU writing new data into a cache line at index i
// and returns its version (DRAM keeps its old data until write-back).
func (v *Versions) WriteCached(i int) uint32 {
	ver := v.Next()
	v.Latest[i], v.LatestWriter[i], v.Destroyed[i] = ver, CPU, false
	return ver
}

// WriteBack records a dirty CPU line of version ver reaching DRAM. It
// reports whether that destroyed newer data already in DRAM (lost data).
func (v *Versions) WriteBack(i int, ver uint32) (lost bool) {
	lost = v.Mem[i] > ver
	v.Mem[i], v.MemWriter[i] = ver, CPU
	v.Destroyed[i] = v.Destroyed[i] || lost
	return lost
}

// Supersede records writer putting new data for line i somewhere else
// than DRAM or the CPU caches (a device writing the line's SWIOTLB bounce
// slot): the newest version is now one nobody can read at i until it is
// copied there. DRAM keeps its old data.
func (v *Versions) Supersede(i int, writer uint8) uint32 {
	ver := v.Next()
	v.Latest[i], v.LatestWriter[i], v.Destroyed[i] = ver, writer, false
	return ver
}

// Elsewhere reports whether line i's newest data was written by a device
// but is not in DRAM: it sits in another buffer (Supersede), rather than
// having been destroyed there (Destroyed).
func (v *Versions) Elsewhere(i int) bool {
	return v.LatestWriter[i] >= 2 && v.Mem[i] < v.Latest[i] && !v.Destroyed[i]
}
