package timeline

import "github.com/dmaviz/dmaviz/model/sim"

// Changes reports whether anything the views draw changes in [from, to):
// a recorded event other than a mark, an SMMU transaction issued, or a
// translation record (a mapping made, a TLB entry filled or flushed, a
// walk's descriptor arriving, a pointer moving). A narration step whose
// span of time has none describes nothing on the stage.
func (tl *Timeline) Changes(from, to sim.Time) bool {
	if to <= from {
		return false
	}
	for i := tl.EventsUntil(from - 1); i < len(tl.Events) && tl.Events[i].T < to; i++ {
		if tl.Events[i].Kind != EvMark {
			return true
		}
	}
	in := func(t sim.Time) bool { return t >= from && t < to }
	if s := tl.SMMU; s != nil {
		if i := s.TxnsUntil(from - 1); i < len(s.Txns) && s.Txns[i].Issue < to {
			return true
		}
	}
	if x := tl.Translation; x != nil {
		for _, m := range x.Mappings {
			if in(m.T) {
				return true
			}
		}
		for _, e := range x.TLBEvents {
			if in(e.T) {
				return true
			}
		}
		for _, w := range x.Walks {
			if in(w.T) {
				return true
			}
		}
		for _, m := range x.Moves {
			if in(m.T) {
				return true
			}
		}
	}
	return false
}
