package soc

import "github.com/dmaviz/dmaviz/model/hwevent"

// checks is the machine's correctness bookkeeping: what it found wrong
// (hazards), which lines were read stale, the fates of outdated copies
// and the SWIOTLB slots standing in for CPU buffers.
type checks struct {
	shadows []shadow // SWIOTLB slots standing in for CPU buffers (Shadow), in slot order once shadowWrite sorts them
	// shadowMax is the longest shadow declared since the list was last
	// empty; shadowUnsorted says one was declared below the last.
	shadowMax      uint64
	shadowUnsorted bool
	// staleSeen marks, by version index, the lines in staleLines: the
	// distinct lines read stale since ResetStaleLines.
	// Invariant: staleSeen[Index(pa)] for exactly the pa in staleLines.
	staleSeen  []bool
	staleLines []uint64
	hazards    []hwevent.Event // correctness events, adjacent ones merged (see Hazards)
	dropped    int             // hazards not kept after MaxHazards

	// outdated is, by version index, the copy state of each tracked line
	// (copyCurrent, copyStale, copyDoomed; fates.go), grown on demand;
	// nOutdated counts the lines not copyCurrent, fates how the others
	// ended. Invariant: a line is not copyCurrent only while a cache
	// level holds it.
	outdated  []uint8
	nOutdated int
	fates     Fates
}

// record keeps hazard e, merged into the last one when adjacent with the
// same cause; beyond MaxHazards it is counted as dropped.
func (c *checks) record(e hwevent.Event) {
	if n := len(c.hazards); n > 0 {
		h := &c.hazards[n-1]
		if h.Kind == e.Kind && h.Flags == e.Flags && h.Why == e.Why && h.Addr+h.Bytes == e.Addr {
			h.Bytes += e.Bytes
			return
		}
	}
	if len(c.hazards) >= MaxHazards {
		c.dropped++
		return
	}
	c.hazards = append(c.hazards, e)
}

// markStale notes the line at pa (version index idx of tracked lines) as
// read stale for StaleLines.
func (c *checks) markStale(pa uint64, idx, tracked int) {
	if len(c.staleSeen) < tracked {
		c.staleSeen = append(c.staleSeen, make([]bool, tracked-len(c.staleSeen))...)
	}
	if !c.staleSeen[idx] {
		c.staleSeen[idx] = true
		c.staleLines = append(c.staleLines, pa)
	}
}

// outdateAs makes line idx's copy state st (copyStale or copyDoomed; of
// tracked lines), counting a copy newly outdated.
func (c *checks) outdateAs(idx int, st uint8, tracked int) {
	if len(c.outdated) < tracked {
		c.outdated = append(c.outdated, make([]uint8, tracked-len(c.outdated))...)
	}
	switch cur := c.outdated[idx]; {
	case cur == st:
		// Outdated since an earlier write (counted then); reported
		// again, as this write's data is what the copy now hides.
	case cur == copyCurrent && st == copyStale:
		c.fates.Stale++
		c.nOutdated++
	case cur == copyCurrent:
		c.fates.Doomed++
		c.nOutdated++
	}
	c.outdated[idx] = st
}

// copyState is line's copy state by version index idx (copyCurrent when
// untracked or never outdated). Inline-sized: the per-line paths ask it
// only while some copy is outdated.
func (c *checks) copyState(idx int) uint8 {
	if idx < 0 || idx >= len(c.outdated) {
		return copyCurrent
	}
	return c.outdated[idx]
}

// settle ends line idx's outdated copy (the caller checked it has one),
// counting it in fate.
func (c *checks) settle(idx int, fate *uint64) {
	c.outdated[idx] = copyCurrent
	c.nOutdated--
	*fate++
}

// readOutdated is a stale read of idx: a stale copy ends read (a doomed
// one stays doomed: its write-back is still to come).
func (c *checks) readOutdated(idx int) {
	if c.copyState(idx) == copyStale {
		c.settle(idx, &c.fates.Read)
	}
}

// rewritten is the core (or a coherent device) writing line idx: its
// cached copy, if any, holds the newest data again.
func (c *checks) rewritten(idx int) {
	if c.copyState(idx) != copyCurrent {
		c.settle(idx, &c.fates.Overwritten)
	}
}
