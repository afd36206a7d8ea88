package hwview

import "github.com/dmaviz/dmaviz/model/mem"

// maxWindowLines bounds the lines CacheOver counts one by one: past it a
// buffer covers every set many times over and the rest of it changes no
// window's share much.
const maxWindowLines = 1 << 16

// CacheOver is Cache with the window placed where grid's lines are: the
// sets of cache level holding the most of them (a physically indexed
// cache puts a line in set (PA / line size) mod sets, so a buffer of 256
// lines at PA 0x4000 fills sets 256..511 of a 512-set L1D and none of
// sets 0..15). Of windows holding equally many, the one from the set of
// the grid's first line is taken, else the lowest. An unknown grid or
// level gives the window from set 0.
func (rec *Recording) CacheOver(id, label string, level, sets, grid int) int {
	return rec.Cache(id, label, level, rec.WindowOver(level, sets, grid), sets)
}

// WindowOver returns the first set of the window CacheOver places.
func (rec *Recording) WindowOver(level, sets, grid int) int {
	levels := rec.m.State().Caches.Levels
	if level < 0 || level >= len(levels) || grid < 0 || grid >= len(rec.cellBy) {
		return 0
	}
	c := levels[level]
	total, line := c.Sets, uint64(c.LineBytes)
	if sets >= total || total <= 0 || line == 0 {
		return 0
	}
	count := make([]int, total)
	start, seen := -1, 0
	for _, r := range rec.runs.Runs() {
		if r.List != grid {
			continue
		}
		if r.Off == 0 {
			start = int(r.PA / line % uint64(total))
		}
		seen = countSets(count, r, line, seen)
	}
	return densest(count, sets, min(max(start, 0), total-sets))
}

// countSets adds run r's lines to count (lines per set), the first
// maxWindowLines-seen of them one by one and any whole rounds of every
// set in one step; it returns the lines counted one by one so far.
func countSets(count []int, r mem.Run, line uint64, seen int) int {
	total := uint64(len(count))
	first, n := r.PA/line, (r.N+line-1)/line
	if rounds := n / total; rounds > 0 {
		for s := range count {
			count[s] += int(rounds)
		}
		first, n = first+rounds*total, n-rounds*total
	}
	for l := first; l < first+n && seen < maxWindowLines; l++ {
		count[l%total]++
		seen++
	}
	return seen
}

// densest returns the first set of the window of sets sets holding the
// most lines of count, trying windows from start upward, then from 0: the
// first best wins.
func densest(count []int, sets, start int) int {
	last := len(count) - sets
	// upto[i] is the lines in sets [0, i).
	upto := make([]int, len(count)+1)
	for s, c := range count {
		upto[s+1] = upto[s] + c
	}
	best, bestN := start, upto[start+sets]-upto[start]
	for i := 1; i <= last; i++ {
		f := (start + i) % (last + 1)
		if n := upto[f+sets] - upto[f]; n > bestN {
			best, bestN = f, n
		}
	}
	return best
}
