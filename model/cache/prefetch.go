package cache

// PrefetchConfig sets up a stride prefetcher.
type PrefetchConfig struct {
	// Streams is how many independent streams are tracked (0 disables).
	Streams int
	// Degree is how many lines ahead of the demand stream are requested.
	Degree int
	// Confirm is how many misses with the same stride train a stream.
	Confirm int
	// MaxStride is the largest stride in lines the detector accepts.
	MaxStride int
	// PageLines stops a stream at a boundary of this many lines (a 4 KiB
	// page = 64 lines) because the prefetcher sees physical addresses;
	// 0 lets streams cross pages.
	PageLines uint64
}

// Prefetcher is a stride detector over a few streams: a miss at line L
// continues a stream whose last miss was L-stride; after Confirm such
// misses it asks for the lines up to Degree strides ahead that it has not
// asked for yet. Streams are replaced round robin. Plain data, no
// allocation per access.
type Prefetcher struct {
	cfg     PrefetchConfig
	streams []stream
	next    int
}

type stream struct {
	last   uint64
	stride int64
	conf   int
	ahead  uint64 // furthest line already requested (in stride direction)
	valid  bool
}

// NewPrefetcher returns a prefetcher; Streams 0 gives one that never fires.
func NewPrefetcher(c PrefetchConfig) Prefetcher {
	return Prefetcher{cfg: c, streams: make([]stream, max(c.Streams, 0))}
}

// Train records a demand miss at line and returns the range of lines to
// prefetch: first, count, stride (count 0 when nothing is due).
func (p *Prefetcher) Train(line uint64) (first uint64, count int, stride int64) {
	if len(p.streams) == 0 || p.cfg.Degree <= 0 {
		return 0, 0, 0
	}
	for i := range p.streams {
		s := &p.streams[i]
		if !s.valid {
			continue
		}
		d := int64(line - s.last)
		if d == 0 {
			return 0, 0, 0
		}
		if s.stride != 0 && d == s.stride {
			s.conf++
			s.last = line
			if s.conf < p.cfg.Confirm {
				return 0, 0, 0
			}
			// Issue, written out here: it runs on every confirmed miss.
			// The lines due are from, from+stride, ... up to target (Degree
			// strides ahead of line) and within line's page, counted in
			// closed form (no loop over them).
			st := s.stride
			target := line + uint64(st*int64(p.cfg.Degree))
			from := s.ahead + uint64(st)
			if st > 0 && from <= line || st < 0 && from >= line {
				from = line + uint64(st)
			}
			// line's page is [page, page+pl) when pl is set.
			pl, page := p.cfg.PageLines, uint64(0)
			if pl&(pl-1) == 0 { // a power of two (a 4 KiB page): no division
				page = line &^ (pl - 1)
			} else {
				page = line - line%pl
			}
			var n uint64
			if st > 0 {
				hi := target // the last line due; page+pl-1 ends the page
				if pl != 0 {
					hi = min(hi, page+pl-1)
				}
				if from <= hi {
					n = hi - from
					if st != 1 {
						n /= uint64(st)
					}
					n++
				}
			} else {
				lo := target // the lowest line due (wrapped above line when none is)
				if pl != 0 {
					lo = max(lo, page)
				}
				if from >= lo {
					n = from - lo
					if st != -1 {
						n /= uint64(-st)
					}
					n++
				}
			}
			if n == 0 {
				return 0, 0, 0
			}
			n = min(n, uint64(p.cfg.Degree)+1)
			s.ahead = from + uint64(st*int64(n-1))
			return from, int(n), st
		}
		if s.conf <= 1 && d != 0 && d >= -int64(p.cfg.MaxStride) && d <= int64(p.cfg.MaxStride) {
			s.stride, s.conf, s.last, s.ahead = d, 1, line, line
			return 0, 0, 0
		}
	}
	s := &p.streams[p.next]
	p.next = (p.next + 1) % len(p.streams)
	*s = stream{last: line, ahead: line, valid: true}
	return 0, 0, 0
}
