package cache

// regions counts valid entries per group of keys, so that Find and Lookup
// of a key whose group no entry shares answer "miss" without walking the
// set: a streaming store, or cache maintenance over memory the cache does
// not hold (a DMA buffer), then costs one table read per line. A group is
// 64 consecutive keys (a 4 KiB page of 64-byte lines); groups fold into a
// power-of-two table of counts, so a non-zero count only means "maybe" and
// the walk decides. Claim does not consult it (its lines are usually
// there or next to lines that are) but keeps it up to date.
type regions struct {
	// Invariant: count[b] is the number of valid entries whose key's
	// group folds to b (see bucket).
	count []uint32
	mask  uint64
}

const groupShift = 6 // 64 keys per group

// newRegions sizes the table at about 16 buckets per group the structure
// can hold, so few groups share a bucket.
func newRegions(entries int) regions {
	n := 64
	for n < entries>>groupShift*16 {
		n <<= 1
	}
	return regions{count: make([]uint32, n), mask: uint64(n - 1)}
}

// bucket folds key's group into the table, mixing in higher bits so that
// buffers a power of two apart do not share buckets.
func (r *regions) bucket(key uint64) uint64 {
	g := key >> groupShift
	return (g ^ g>>10 ^ g>>20) & r.mask
}

// absent reports that no valid entry holds key (false means "maybe").
func (r *regions) absent(key uint64) bool { return r.count[r.bucket(key)] == 0 }

func (r *regions) add(key uint64)    { r.count[r.bucket(key)]++ }
func (r *regions) remove(key uint64) { r.count[r.bucket(key)]-- }
