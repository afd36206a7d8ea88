package soc

// State is the machine's state as plain data, one part per unit: what a
// view or a golden test reads instead of the units themselves. It holds
// no pointers into the machine; taking it changes nothing.
type State struct {
	Core    CoreState
	Caches  HierarchyState
	DRAM    DRAMState
	NC      NCState
	Maint   MaintState
	Masters MastersState
	TLB     TranslationState
}

// State returns every unit's state at the core's current time.
func (m *Machine) State() State {
	now := m.core.now
	return State{Core: m.core.Snapshot(), Caches: m.hier.Snapshot(), DRAM: m.dram.Snapshot(),
		NC: m.nc.Snapshot(now), Maint: m.maint.Snapshot(now), Masters: m.dma.Snapshot(), TLB: m.x.Snapshot()}
}

// CacheWindow returns the entries of sets [first, first+sets) of cache
// level (0 = L1D), clipped to the level, set by set and way by way (entry
// set*ways+way of the level is element (set-first)*ways+way); nil for no
// such level.
func (m *Machine) CacheWindow(level, first, sets int) []EntryState {
	return m.hier.window(level, first, sets)
}

// Holds reports whether any cache level holds physical line number line,
// and whether some level holds it dirty.
func (m *Machine) Holds(line uint64) (held, dirty bool) { return m.hier.holds(line) }
