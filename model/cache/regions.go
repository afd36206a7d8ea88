package cache

// regions counts valid entries per group of keys, so that Find and Lookup
// of a key whose group no entry shares answer "miss" without walking the
// set: a streaming store, or cache maintenance over memory the cache does
// not hold (a DMA buffer), then costs one table read per line. A group is
// 64 consecutive keys (a 4 KiB page of 64-byte lines); groups hash into a
// power-of-two table of counts, so a non-zero count only means "maybe" and
// the walk decides. Claim does not consult it (its lines are usually
// there or next to lines that are) but keeps it up to date.
type regions struct {
	// Invariant: count[b] is the number of valid entries whose key's
	// group hashes to b (see bucket).
	count     []uint32
	hashShift uint // 64 - log2(len(count))
}

const groupShift = 6 // 64 keys per group

// GroupKeys is how many consecutive keys (aligned) Absent answers for at
// once: when it reports key absent, every key of key's group is absent.
const GroupKeys = 1 << groupShift

// newRegions sizes the table at about 16 buckets per group the structure
// can hold, so few groups share a bucket.
func newRegions(entries int) regions {
	n, shift := 64, uint(64-6)
	for n < entries>>groupShift*16 {
		n, shift = n<<1, shift-1
	}
	return regions{count: make([]uint32, n), hashShift: shift}
}

// bucket hashes key's group into the table (Fibonacci hashing: the top
// bits of the group times 2^64/phi), so that neighbouring pages and
// buffers a power of two apart spread over the table.
func (r *regions) bucket(key uint64) uint64 {
	return (key >> groupShift * 0x9e3779b97f4a7c15) >> (r.hashShift & 63) // (&63: no shift-overflow check)
}

// absent reports that no valid entry holds key (false means "maybe").
func (r *regions) absent(key uint64) bool { return r.count[r.bucket(key)] == 0 }

func (r *regions) add(key uint64)    { r.count[r.bucket(key)]++ }
func (r *regions) remove(key uint64) { r.count[r.bucket(key)]-- }
