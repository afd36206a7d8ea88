package cache

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/sim"
)

// refIssue is the prefetch issue rule written as the plain loop over the
// lines due: from the line after the furthest already requested (or after
// line) up to Degree strides ahead of line, stopping at line's page end.
func refIssue(c PrefetchConfig, s *stream, line uint64) (uint64, int, int64) {
	target := line + uint64(s.stride*int64(c.Degree))
	from := s.ahead + uint64(s.stride)
	if s.stride > 0 && from <= line || s.stride < 0 && from >= line {
		from = line + uint64(s.stride)
	}
	pl, page := c.PageLines, uint64(0)
	if pl != 0 {
		page = line - line%pl
	}
	n := 0
	for l := from; n <= c.Degree; l += uint64(s.stride) {
		if s.stride > 0 && l > target || s.stride < 0 && l < target || pl != 0 && l-page >= pl {
			break
		}
		n++
	}
	if n == 0 {
		return 0, 0, 0
	}
	s.ahead = from + uint64(s.stride*int64(n-1))
	return from, n, s.stride
}

// refTrain is Train with refIssue.
func refTrain(p *Prefetcher, line uint64) (uint64, int, int64) {
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
			return refIssue(p.cfg, s, line)
		}
		if s.conf <= 1 && d >= -int64(p.cfg.MaxStride) && d <= int64(p.cfg.MaxStride) {
			s.stride, s.conf, s.last, s.ahead = d, 1, line, line
			return 0, 0, 0
		}
	}
	s := &p.streams[p.next]
	p.next = (p.next + 1) % len(p.streams)
	*s = stream{last: line, ahead: line, valid: true}
	return 0, 0, 0
}

// Train's closed-form issue asks for the same lines, in the same order, as
// the loop over them, and leaves the same state, over seeded walks of
// interleaved strided streams (forward and backward, across pages, near
// line 0) with random jumps, for page sizes that are and are not powers of
// two.
func TestPrefetcherMatchesLoop(t *testing.T) {
	rng := sim.NewRNG(11)
	issued := 0
	for trial := 0; trial < 300; trial++ {
		cfg := PrefetchConfig{
			Streams:   1 + rng.Intn(4),
			Degree:    rng.Intn(17),
			Confirm:   1 + rng.Intn(3),
			MaxStride: 1 + rng.Intn(8),
			PageLines: []uint64{0, 16, 48, 64, 100}[rng.Intn(5)],
		}
		got, want := NewPrefetcher(cfg), NewPrefetcher(cfg)
		heads := []uint64{rng.Uint64n(40), 5000 + rng.Uint64n(1000), 1 << 30}
		for step := 0; step < 400; step++ {
			h := rng.Intn(len(heads))
			switch rng.Intn(10) {
			case 0:
				heads[h] = rng.Uint64n(1 << 20)
			case 1, 2:
				heads[h] -= uint64(1 + rng.Intn(cfg.MaxStride)) // backward
			default:
				heads[h] += uint64(1 + rng.Intn(2))
			}
			f1, n1, s1 := got.Train(heads[h])
			f2, n2, s2 := refTrain(&want, heads[h])
			require.Equal(t, f2, f1, "trial %d step %d %+v: Train(%d) = %d+%dx%d, loop gives %d+%dx%d", trial, step, cfg, heads[h], f1, n1, s1, f2, n2, s2)
			require.Equal(t, n2, n1, "trial %d step %d %+v: Train(%d) = %d+%dx%d, loop gives %d+%dx%d", trial, step, cfg, heads[h], f1, n1, s1, f2, n2, s2)
			require.Equal(t, s2, s1, "trial %d step %d %+v: Train(%d) = %d+%dx%d, loop gives %d+%dx%d", trial, step, cfg, heads[h], f1, n1, s1, f2, n2, s2)
			issued += n1
			for i := range got.streams {
				require.Equal(t, want.streams[i], got.streams[i], "trial %d step %d: stream %d is %+v, loop leaves %+v", trial, step, i, got.streams[i], want.streams[i])
			}
		}
	}
	require.NotEqualValues(t, 0, issued, "no prefetch was issued: the walks do not exercise the issue rule")
}
