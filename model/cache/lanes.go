package cache

// lanes holds a 16-bit partial tag per entry, four to a uint64 word, so a
// lookup compares four ways per word (SWAR) instead of one way per
// iteration: the classic "has a zero lane" test on word XOR pattern flags
// candidate ways, which are then confirmed against the full tag. A zero
// lane means an invalid way; a valid key's partial tag has its top bit
// set, and
// padding lanes (ways not a multiple of 4) are all ones so they never look
// free or match (a match is also bounds-checked against ways).
type lanes struct {
	words []uint64
	wps   int  // words per set
	shift uint // bits above the set index start here
}

const (
	laneOnes = 0x0001_0001_0001_0001
	laneHigh = 0x8000_8000_8000_8000
)

func newLanes(sets, ways int) lanes {
	wps := (ways + 3) / 4
	l := lanes{words: make([]uint64, sets*wps), wps: wps}
	for s := 1; s < sets; s <<= 1 {
		l.shift++
	}
	if pad := wps*4 - ways; pad > 0 {
		mask := ^uint64(0) << (16 * uint(4-pad))
		for s := 0; s < sets; s++ {
			l.words[s*wps+wps-1] |= mask
		}
	}
	return l
}

// partial is the low 15 key bits above the set index with the lane's top
// bit set, so it is never zero (keys 2^15 sets apart share it and are told
// apart by the full tag).
func (l *lanes) partial(key uint64) uint64 {
	return key>>(l.shift&63)&0x7fff | 0x8000 // (&63: no shift-overflow check)
}

// pattern is the partial tag of key repeated in all four lanes.
func (l *lanes) pattern(key uint64) uint64 { return l.partial(key) * laneOnes }

// setLane stores partial tag p for (set, way).
func (l *lanes) setLane(set, way int, p uint64) {
	i := set*l.wps + way>>2
	sh := uint(way&3) * 16
	l.words[i] = l.words[i]&^(0xffff<<sh) | p<<sh
}
