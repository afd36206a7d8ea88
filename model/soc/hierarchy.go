package soc

import (
	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/sim"
)

// Hierarchy is the core's data caches: L1D, L2 and the optional L3 (a
// cluster or system-level cache), each write-back and write-allocate. It
// owns the caches' lookup hints (cache.Cache.Absent, Recent): the
// machine asks it whether and where a level holds a line, and the
// common answers ("no level holds it", "the prefetched line") cost no
// call. Fills, evictions and write-backs are the machine's: they cross
// into DRAM, the line versions and the observer.
//
// The lookups are kept inline-sized: the per-line path calls them.
type Hierarchy struct {
	// lv is L1D, L2[, L3]. Invariant: 2 or 3 levels, one line size.
	lv []*cache.Cache
}

// LevelState is one cache level's state as plain data.
type LevelState struct {
	Name       string
	Sets, Ways int
	LineBytes  int
	Latency    sim.Time
	Fills      uint64 // lines filled since the machine was built
}

// HierarchyState is the hierarchy's state as plain data (for views and
// golden tests), nearest the core first.
type HierarchyState struct {
	Levels []LevelState
}

// newHierarchy builds the levels of a validated cfg, each with its own
// stream of rng.
func newHierarchy(cfg *Config, rng *sim.RNG) (Hierarchy, error) {
	levels := []cache.Config{cfg.L1D, cfg.L2}
	if cfg.L3.Size != 0 {
		levels = append(levels, cfg.L3)
	}
	var h Hierarchy
	for _, lc := range levels {
		c, err := cache.New(lc, rng.Split())
		if err != nil {
			return Hierarchy{}, err
		}
		h.lv = append(h.lv, c)
	}
	return h, nil
}

// Snapshot returns the hierarchy's state.
func (h *Hierarchy) Snapshot() HierarchyState {
	s := HierarchyState{Levels: make([]LevelState, len(h.lv))}
	for i, c := range h.lv {
		s.Levels[i] = LevelState{Name: c.Cfg.Name, Sets: c.Sets(), Ways: c.Ways(), LineBytes: c.Cfg.LineBytes,
			Latency: c.Cfg.Latency, Fills: c.Fills()}
	}
	return s
}

// Levels returns the number of levels.
func (h *Hierarchy) Levels() int { return len(h.lv) }

// fills counts the fills so far, every level (each cache counts its
// missing Claims): DC's fast path over absent lines checks that none
// happened meanwhile.
func (h *Hierarchy) fills() uint64 {
	n := h.lv[0].Fills() + h.lv[1].Fills() // L1D and L2 always exist
	if len(h.lv) > 2 {
		n += h.lv[2].Fills()
	}
	return n
}

// absent reports that no level holds line, from the hints alone (false
// means "maybe").
func (h *Hierarchy) absent(line uint64) bool {
	for _, c := range h.lv {
		if !c.Absent(line) {
			return false
		}
	}
	return true
}

// absentAt reports that level i does not hold line, from its hint alone
// (false means "maybe"). The per-line loops ask it before they call the
// level's Find or Lookup, so the common miss costs no call.
func (h *Hierarchy) absentAt(i int, line uint64) bool { return h.lv[i].Absent(line) }

// find returns level i's entry holding line, or -1, without marking it
// used (the level's Find answers a cold set or the hint's miss first).
func (h *Hierarchy) find(i int, line uint64) int { return h.lv[i].Find(line) }

// claimRecent is Claim on level i, a prefetched line (the common case of
// a stream) found through the recent hint without the call.
func (h *Hierarchy) claimRecent(i int, line uint64) (int, bool) {
	c := h.lv[i]
	if e := c.Recent(line); e >= 0 {
		return e, true
	}
	return c.Claim(line, true)
}

// holds reports whether any level holds line, and whether a copy of it
// is dirty.
func (h *Hierarchy) holds(line uint64) (held, dirty bool) {
	for _, c := range h.lv {
		if c.Absent(line) { // the common case skips the call
			continue
		}
		if e := c.Find(line); e >= 0 {
			held, dirty = true, dirty || c.Meta[e].Dirty
		}
	}
	return held, dirty
}

// EntryState is one cache entry as plain data.
type EntryState struct {
	Valid, Dirty bool
	Line         uint64   // line number (address >> line shift), when Valid
	Ver          uint32   // the data's version (mem.Versions)
	Ready        sim.Time // when its data arrived
}

// window returns the entries of sets [first, first+n) of level i (both
// clipped to the level), set by set and way by way; nil for no such level.
func (h *Hierarchy) window(i, first, n int) []EntryState {
	if i < 0 || i >= len(h.lv) {
		return nil
	}
	c := h.lv[i]
	first = min(max(first, 0), c.Sets())
	n = min(max(n, 0), c.Sets()-first)
	out := make([]EntryState, n*c.Ways())
	for k := range out {
		e := first*c.Ways() + k
		if line, ok := c.Key(e); ok {
			m := &c.Meta[e]
			out[k] = EntryState{Valid: true, Dirty: m.Dirty, Line: line, Ver: m.Ver, Ready: m.Ready}
		}
	}
	return out
}
