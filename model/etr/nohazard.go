package etr

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/hwview"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// fates is what became of the cached copies the live session's trace
// made older than memory (the machine's count since startRecording).
func (r *run) fates() scenario.Fates {
	return hwview.Fates(r.m.Fates()).Sub(r.fates0)
}

// noHazard says why a bug policy read no stale trace and lost none in the
// live session, from the fates of its outdated copies, with the ETR's
// reason where the counts have one: a buffer larger than the last cache
// level (the copy's own fills evict the old copies first), data that did
// not wrap (the wrap-blind sync is then the whole buffer), or cold caches.
func (r *run) noHazard(p path, f scenario.Fates) string {
	w := scenario.FateWords{Device: "the ETR", Sync: "dma_sync_single_for_cpu"}
	llc := r.m.Cache(r.m.Levels() - 1)
	switch {
	case f.Stale+f.Doomed == 0 && r.c.prior == PriorCold:
		w.Clause = "with prior=cold the caches held none of the buffer when the session started"
	case f.Stale > 0 && f.Evicted == f.Stale && r.c.size > uint64(llc.Cfg.Size):
		w.Clause = fmt.Sprintf("the %s buffer does not fit the %s %s that held them (a buffer that does, such as the lesson size's, is read stale)",
			scenario.FormatBytes(int64(r.c.size)), scenario.FormatBytes(int64(llc.Cfg.Size)), levelName(r.m.Levels()-1))
	case f.Stale > 0 && f.Invalidated == f.Stale && r.pol.ID == WrongWrap && !p.window.Wraps(r.c.size):
		w.Clause = fmt.Sprintf("the data did not wrap (offset %#x, %s), so the wrap-blind sync covered all of it (laps above 1 and not whole make it wrap)",
			p.window.Offset, scenario.FormatBytes(int64(p.window.Len)))
	}
	return f.Why(w)
}

// levelName is "L1D", "L2" or "L3" for cache level i.
func levelName(i int) string {
	if i == 0 {
		return "L1D"
	}
	return fmt.Sprintf("L%d", i+1)
}
