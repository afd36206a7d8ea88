package cache

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/bytesize"
	"github.com/dmaviz/dmaviz/model/sim"
)

// Bounds of a cache level, which keep every run bounded in time and
// memory: a set walk of at most MaxCacheWays (the largest PLRU tree too),
// at most MaxCacheBytes (a million 64-byte lines; the largest modelled
// last-level cache is 32 MiB).
const (
	MaxCacheWays  = 64
	MaxCacheBytes = 64 << 20
)

// Config describes one write-back, write-allocate cache level.
type Config struct {
	Name      string // "l1d", "l2", "l3"; used in error messages and counters
	Size      int    // bytes; a multiple of Ways*LineBytes giving a power-of-two set count
	Ways      int    // 1..MaxWays (PLRU: a power of two up to 64)
	LineBytes int    // power of two, 16..1024
	Policy    Policy
	// Latency is the load-to-use latency of a hit at this level, counted
	// from the request (the machine adds levels on the way down).
	Latency sim.Time
}

// Sets returns the number of sets the config implies (0 if malformed).
func (c *Config) Sets() int {
	if c.Ways <= 0 || c.LineBytes <= 0 {
		return 0
	}
	return c.Size / (c.Ways * c.LineBytes)
}

// Validate checks the geometry; the error names the field and the allowed
// range.
func (c *Config) Validate() error {
	if c.Ways < 1 || c.Ways > MaxCacheWays {
		return fmt.Errorf("%s.ways: %d is out of range; allowed 1..%d", c.Name, c.Ways, MaxCacheWays)
	}
	if c.LineBytes < 16 || c.LineBytes > 1024 || c.LineBytes&(c.LineBytes-1) != 0 {
		return fmt.Errorf("%s.line_bytes: %d is not a power of two in 16..1024", c.Name, c.LineBytes)
	}
	if c.Size > MaxCacheBytes {
		return fmt.Errorf("%s.size: %s is out of range; allowed up to %s", c.Name, bytesize.Format(int64(c.Size)), bytesize.Format(MaxCacheBytes))
	}
	if c.Size <= 0 || c.Size%(c.Ways*c.LineBytes) != 0 {
		return fmt.Errorf("%s.size: %s is not a whole number of sets of %s (ways x line_bytes); allowed a power-of-two number of them", c.Name, bytesize.Format(int64(c.Size)), bytesize.Format(int64(c.Ways*c.LineBytes)))
	}
	if s := c.Sets(); s&(s-1) != 0 || s > 1<<24 {
		return fmt.Errorf("%s.size: %s gives %d sets of %s (ways x line_bytes), not a power of two; allowed a power-of-two number of sets up to 16777216", c.Name, bytesize.Format(int64(c.Size)), s, bytesize.Format(int64(c.Ways*c.LineBytes)))
	}
	if c.Policy > Random {
		return fmt.Errorf("%s.policy: %v is not one of lru, plru, random", c.Name, c.Policy)
	}
	if c.Policy == PLRU && c.Ways&(c.Ways-1) != 0 {
		return fmt.Errorf("%s.ways: %d is not a power of two, which plru needs; allowed 1, 2, 4 ... %d", c.Name, c.Ways, MaxWays)
	}
	if c.Latency < 0 {
		return fmt.Errorf("%s.latency: %v is negative; allowed 0 or more", c.Name, c.Latency)
	}
	return nil
}

// Cache is one level: an Array keyed by physical line number plus per-entry
// dirty bit, data version (see mem.Versions; 0 for untracked lines) and
// ready time (when an in-flight fill's data arrives; a hit before then
// waits).
type Cache struct {
	Array
	Cfg       Config
	LineShift uint
	// Meta is the per-entry payload, indexed like the Array's entries
	// (the Array's meta is the same slice). The Array also keeps the
	// fill hint and Evicted, what the last missing Claim displaced.
	Meta []Line
}

// Line is the payload of one cache entry, kept together so a fill touches
// one host cache line.
type Line struct {
	// Ready is when an in-flight fill's data arrives (a hit before then
	// waits).
	Ready sim.Time
	// Ver is the data version (see mem.Versions; 0 for untracked lines).
	Ver   uint32
	Dirty bool
}

// Victim describes the line an Access or Claim displaced.
type Victim struct {
	Line  uint64 // physical line number
	Valid bool
	Dirty bool
	Ver   uint32
	Entry int
}

// New builds an empty cache from a validated config. rng (for the random
// policy) must be the cache's alone, such as one split from the run's: the
// cache draws its victims a few fills early.
func New(c Config, rng *sim.RNG) (*Cache, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	a, err := NewArray(c.Name, c.Sets(), c.Ways, c.Policy, rng)
	if err != nil {
		return nil, err
	}
	shift := uint(0)
	for 1<<shift < c.LineBytes {
		shift++
	}
	a.Repl.drawAhead() // (rng: the cache's own)
	meta := make([]Line, a.Entries())
	a.meta, a.recent = meta, new([hintSize]int32)
	return &Cache{Array: *a, Cfg: c, LineShift: shift, Meta: meta}, nil
}

// Drop invalidates entry e (without write-back; the caller decides).
func (c *Cache) Drop(e int) {
	c.Invalidate(e)
	c.Meta[e].Dirty = false
}

// Access is a plain write-back, write-allocate access with no timing: a hit
// touches the line (and dirties it on a write); a miss fills it and returns
// the victim. Used by tests and by structures without a timing model.
func (c *Cache) Access(line uint64, write bool) (hit bool, v Victim) {
	e, hit := c.Claim(line, true)
	if hit {
		if write {
			c.Meta[e].Dirty = true
		}
		return true, Victim{Entry: e}
	}
	c.Meta[e].Dirty = write
	return false, c.Evicted
}

// Grid returns the contents as one string per set, ways separated by
// spaces: the line number in hex, "*" when dirty, "." for an invalid way.
// Tests write expected grids as literals in this form.
func (c *Cache) Grid() []string {
	out := make([]string, c.Sets())
	for s := range out {
		row := ""
		for w := 0; w < c.Ways(); w++ {
			e := s*c.Ways() + w
			if w > 0 {
				row += " "
			}
			k, ok := c.Key(e)
			switch {
			case !ok:
				row += "."
			case c.Meta[e].Dirty:
				row += fmt.Sprintf("%x*", k)
			default:
				row += fmt.Sprintf("%x", k)
			}
		}
		out[s] = row
	}
	return out
}
