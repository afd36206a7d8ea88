package mem

import "github.com/dmaviz/dmaviz/model/bytesize"

// frameTable is the buddy allocator's per-frame state, stored in chunks of
// one max-order block that are allocated on first change. An untouched
// chunk stands for a whole free max-order block, so gigabytes of memory
// that a run never splits cost one nil slice per 4 MiB.
type frameTable struct {
	shift  uint // frames per chunk = 1 << shift
	top    int8 // the free order of an untouched chunk's first frame
	chunks [][]frameInfo
}

// frameInfo is stored one up (0: no block starts here), so a chunk is
// materialized as zeroed memory, with no pass over its frames.
type frameInfo struct{ free1, alloc1 int8 }

func newFrameTable(frames uint64, maxOrder int) frameTable {
	t := frameTable{shift: uint(maxOrder), top: int8(maxOrder)}
	per := uint64(1) << t.shift
	t.chunks = make([][]frameInfo, (frames+per-1)/per)
	if frames%per != 0 { // the tail is not a whole block: materialize it empty
		c := t.chunk(frames - 1)
		c[0].free1 = 0
	}
	return t
}

// chunk returns the materialized chunk holding pfn.
func (t *frameTable) chunk(pfn uint64) []frameInfo {
	i := pfn >> t.shift
	if c := t.chunks[i]; c != nil {
		return c
	}
	c := make([]frameInfo, 1<<t.shift)
	c[0].free1 = t.top + 1
	t.chunks[i] = c
	return c
}

// get returns the frame's entry, stored one up.
func (t *frameTable) get(pfn uint64) frameInfo {
	c := t.chunks[pfn>>t.shift]
	if c == nil {
		if pfn&(1<<t.shift-1) == 0 {
			return frameInfo{t.top + 1, 0}
		}
		return frameInfo{}
	}
	return c[pfn&(1<<t.shift-1)]
}

func (t *frameTable) free(pfn uint64) int8  { return t.get(pfn).free1 - 1 }
func (t *frameTable) alloc(pfn uint64) int8 { return t.get(pfn).alloc1 - 1 }

// setFree and setAlloc change a materialized chunk in place; an untouched
// one is materialized only for a real change.
func (t *frameTable) setFree(pfn uint64, o int8) {
	c := t.chunks[pfn>>t.shift]
	if c == nil {
		if t.free(pfn) == o {
			return
		}
		c = t.chunk(pfn)
	}
	c[pfn&(1<<t.shift-1)].free1 = o + 1
}

func (t *frameTable) setAlloc(pfn uint64, o int8) {
	c := t.chunks[pfn>>t.shift]
	if c == nil {
		if t.alloc(pfn) == o {
			return
		}
		c = t.chunk(pfn)
	}
	c[pfn&(1<<t.shift-1)].alloc1 = o + 1
}

// FormatBytes prints n with the largest binary unit that divides it
// exactly ("4MiB", "48B"), for messages of the hardware packages
// (bytesize.Format).
func FormatBytes(n int64) string { return bytesize.Format(n) }
