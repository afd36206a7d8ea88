package sgsync

// staleCount counts stale_bytes: the distinct bytes of the list (and of
// its bounce slots) the CPU read stale, once per transfer however often
// it read them, summed over the iterations. The machine's
// stale_lines_read counts reads instead (cpu=writes reads every line twice
// per iteration).
type staleCount struct {
	lo, hi uint64 // the tracked physical range
	// cover is, per line of [lo, hi), how many of its bytes belong to an
	// entry or a slot; built at the first stale read.
	cover []uint8
	sum   uint64 // simulated iterations
	last  uint64 // the last simulated iteration
}

// endTransfer adds the distinct stale bytes read since the last call and
// starts a new set.
func (r *run) endTransfer() {
	lines := r.m.StaleLines()
	r.m.ResetStaleLines()
	var n uint64
	if len(lines) > 0 {
		c := r.coverage()
		shift := lineShift(r.m.LineBytes())
		for _, pa := range lines {
			if pa >= r.stale.lo && pa < r.stale.hi {
				n += uint64(c[(pa-r.stale.lo)>>shift])
			}
		}
	}
	r.stale.sum += n
	r.stale.last = n
}

func (r *run) coverage() []uint8 {
	s := &r.stale
	if s.cover != nil {
		return s.cover
	}
	lb := r.m.LineBytes()
	shift := lineShift(lb)
	s.cover = make([]uint8, (s.hi-s.lo+lb-1)>>shift)
	add := func(pa, n uint64) error {
		for a, end := pa, pa+n; a < end; {
			next := min(end, (a|(lb-1))+1)
			if a >= s.lo && a < s.hi {
				s.cover[(a-s.lo)>>shift] += uint8(min(next-a, 255))
			}
			a = next
		}
		return nil
	}
	for _, l := range []*sgList{&r.list, &r.bounce} {
		for _, e := range l.entries {
			_ = l.runs(e, add)
		}
	}
	return s.cover
}

func lineShift(lb uint64) uint {
	s := uint(0)
	for uint64(1)<<s < lb {
		s++
	}
	return s
}
