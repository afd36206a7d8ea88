package soc

import (
	"sort"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
)

// Observer sees what a view needs, as it happens. The machine calls it only
// for watched physical ranges (WatchPhys) and watched cache sets
// (WatchSets), and only when one is set: with no observer the per-line
// path pays one nil check. t is when the change happened on the clock of
// the agent that made it: the core's, or the device's for DMA lines and
// snoops (a device running ahead of the core reports ahead of it;
// scenario.Recorder clamps time so it never decreases).
type Observer interface {
	// Line reports what just happened to the data of the line at pa
	// (e.g. CellDeviceWritten, CellStale, CellCopied) and who wrote the
	// line's newest data.
	Line(t sim.Time, pa uint64, state scenario.CellState, writer uint8)
	// CacheEntry reports the new content of one way of a watched set of
	// cache level (0 = L1D) after a fill, eviction, write, clean or
	// invalidate. pa is the line address; meaningful when valid.
	CacheEntry(t sim.Time, level, set, way int, pa uint64, valid, dirty bool)
}

type physRange struct{ lo, hi uint64 } // line numbers [lo, hi)

// SetObserver installs o (nil removes it).
func (m *Machine) SetObserver(o Observer) { m.obs = o }

// WatchPhys asks for Line reports on [pa, pa+n).
func (m *Machine) WatchPhys(pa, n uint64) {
	if n == 0 {
		return
	}
	m.watch = append(m.watch, physRange{pa >> m.lineShift, (pa + n + m.lineBytes - 1) >> m.lineShift})
}

// WatchSets asks for CacheEntry reports on sets [first, first+count) of
// cache level. Out-of-range values are clipped.
func (m *Machine) WatchSets(level, first, count int) {
	if level < 0 || level >= len(m.lv) {
		return
	}
	n := m.lv[level].Sets()
	lo, hi := min(max(first, 0), n), min(max(first+count, 0), n)
	m.windows[level] = [2]int{lo, hi}
}

func (m *Machine) noteEntry(level, e int) { m.noteEntryAt(m.now, level, e) }

func (m *Machine) noteEntryAt(t sim.Time, level, e int) {
	c := m.lv[level]
	ways := c.Ways()
	if w := m.windows[level]; e < w[0]*ways || e >= w[1]*ways { // no division for unwatched sets
		return
	}
	set, way := e/ways, e%ways
	k, ok := c.Key(e)
	m.obs.CacheEntry(t, level, set, way, k<<m.lineShift, ok, ok && c.Meta[e].Dirty)
}

func (m *Machine) noteLine(line uint64, st scenario.CellState) {
	w := mem.Nobody
	if idx := m.ver.Index(line); idx >= 0 {
		w = m.ver.LatestWriter[idx]
	} else if st == scenario.CellCPUWritten {
		w = mem.CPU
	}
	m.noteLineAt(m.now, line, st, w)
}

func (m *Machine) noteLineAt(t sim.Time, line uint64, st scenario.CellState, writer uint8) {
	for _, r := range m.watch {
		if line >= r.lo && line < r.hi {
			m.obs.Line(t, line<<m.lineShift, st, writer)
			return
		}
	}
}

// Recording turns a machine's observations into a scenario.Recorder
// timeline: watched buffers become grids of cells, watched cache sets
// become cache windows. Consecutive reports that leave a cell unchanged
// are dropped, so a page-sized cell costs one event per state change, not
// one per line.
type Recording struct {
	m      *Machine
	r      *scenario.Recorder
	segs   []gridSeg // sorted by pa
	caches []cacheWin
}

type gridSeg struct {
	pa, n     uint64 // physical range
	grid      int
	off       uint64 // buffer offset of pa
	cellBytes uint64
}

type cacheWin struct {
	level, first, sets, ways, obj int
}

// NewRecording attaches a recorder to m as its observer.
func NewRecording(m *Machine, r *scenario.Recorder) *Recording {
	rec := &Recording{m: m, r: r}
	m.SetObserver(rec)
	return rec
}

// addrSpace names the addresses a buffer's grid shows: "PA" when its VA
// is the identity of contiguous frames (a view of physical memory), else
// "VA", the CPU's mapping.
func addrSpace(b Buffer) string {
	if len(b.Pages) == 0 || b.VA != b.Pages[0] {
		return "VA"
	}
	for i := 1; i < len(b.Pages); i++ {
		if b.Pages[i] != b.Pages[i-1]+mem.PageSize {
			return "VA"
		}
	}
	return "PA"
}

// Recorder returns the underlying recorder.
func (rec *Recording) Recorder() *scenario.Recorder { return rec.r }

// Grid declares buffer b as a grid of cellBytes cells (64 for lines, 4096
// for pages), watches its frames and returns the grid index. Cells are in
// buffer-offset order even when the frames are scattered.
func (rec *Recording) Grid(id, label string, b Buffer, cellBytes uint64) int {
	if cellBytes == 0 {
		cellBytes = rec.m.lineBytes
	}
	g := rec.r.AddGrid(scenario.GridSpec{ID: id, Label: label, Base: b.VA, Space: addrSpace(b), CellBytes: int64(cellBytes),
		Cells: int((b.Size + cellBytes - 1) / cellBytes)})
	for i := 0; i < len(b.Pages); {
		j := i + 1
		for j < len(b.Pages) && b.Pages[j] == b.Pages[j-1]+mem.PageSize {
			j++
		}
		n := uint64(j-i) << mem.PageShift
		rec.segs = append(rec.segs, gridSeg{pa: b.Pages[i], n: n, grid: g, off: uint64(i) << mem.PageShift, cellBytes: cellBytes})
		rec.m.WatchPhys(b.Pages[i], n)
		i = j
	}
	sort.Slice(rec.segs, func(i, j int) bool { return rec.segs[i].pa < rec.segs[j].pa })
	return g
}

// Cache declares a window of sets [first, first+sets) of cache level and
// returns the cache index in the timeline.
func (rec *Recording) Cache(id, label string, level, first, sets int) int {
	c := rec.m.Cache(level)
	if c == nil {
		return -1
	}
	first = min(max(first, 0), c.Sets())
	sets = min(max(sets, 0), c.Sets()-first)
	obj := rec.r.AddCache(scenario.CacheSpec{ID: id, Label: label, FirstSet: first, Sets: sets,
		TotalSets: c.Sets(), Ways: c.Ways(), LineBytes: int64(c.Cfg.LineBytes)})
	rec.caches = append(rec.caches, cacheWin{level: level, first: first, sets: sets, ways: c.Ways(), obj: obj})
	rec.m.WatchSets(level, first, sets)
	return obj
}

// Locate returns the grid and cell showing physical address pa, or -1, -1.
func (rec *Recording) Locate(pa uint64) (grid, cell int) {
	i := sort.Search(len(rec.segs), func(i int) bool { return rec.segs[i].pa+rec.segs[i].n > pa })
	if i < len(rec.segs) && pa >= rec.segs[i].pa {
		s := &rec.segs[i]
		return s.grid, int((s.off + pa - s.pa) / s.cellBytes)
	}
	return -1, -1
}

// Annotate fills in the grid and cell of each hazard that falls in a grid.
func (rec *Recording) Annotate(hs []scenario.Hazard) {
	for i := range hs {
		hs[i].Grid, hs[i].Cell = rec.Locate(hs[i].Addr)
	}
}

// Line implements Observer.
func (rec *Recording) Line(t sim.Time, pa uint64, state scenario.CellState, writer uint8) {
	g, cell := rec.Locate(pa)
	if g < 0 {
		return
	}
	cells := rec.r.Live().Cells[g]
	if cell < len(cells) && cells[cell] == (scenario.Cell{State: state, Writer: writer}) {
		return
	}
	rec.r.Cells(t, g, cell, 1, state, writer)
}

// CacheEntry implements Observer.
func (rec *Recording) CacheEntry(t sim.Time, level, set, way int, pa uint64, valid, dirty bool) {
	for _, w := range rec.caches {
		if w.level == level && set >= w.first && set < w.first+w.sets {
			rec.r.CacheLine(t, w.obj, (set-w.first)*w.ways+way, pa, valid, dirty)
		}
	}
}

// compile-time check
var _ Observer = (*Recording)(nil)
