package platform

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dmaviz/dmaviz/model/bytesize"
	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
)

// The schema: every hardware parameter a preset sets, by dotted path (the
// unit, then the field: "l2.latency", "smmu.tbu.tlb_entries"), with its
// unit and a getter and setter on a Board. Latencies inside the core are
// in CPU cycles, the SMMU's in platform cycles, memory-side latencies in
// nanoseconds; a clock's setter keeps the cycle counts of its domain (a
// 15-cycle L2 stays 15 cycles at another frequency).
type param struct {
	path string
	unit string
	get  func(b *Board) float64
	// put sets the value; it refuses a value the field cannot hold (a
	// fraction for a count, a negative time) naming the allowed values.
	put func(b *Board, v float64) error
	// has says whether b has the unit (nil: every board): the L3's
	// geometry only with an L3, the SMMU's fields only with an SMMU, a
	// walk cache's ways only with entries.
	has func(b *Board) bool
	// name prints an enumerated value (nil: a number with the unit);
	// parseName reads one back (ok false: not a name), names says which
	// names are allowed.
	name      func(v float64) string
	parseName func(s string) (v float64, ok bool)
	names     string
	// rescale, for a time counted in a clock's cycles, multiplies it by
	// ratio (old period over new) when the clock changes.
	rescale func(b *Board, ratio float64)
}

func (p *param) applies(b *Board) bool { return p.has == nil || p.has(b) }

func (p *param) text(v float64) string {
	if p.name != nil {
		return p.name(v)
	}
	return FormatValue(v, p.unit)
}

// Units of the schema.
const (
	unitMHz    = "MHz"
	unitCycles = "cycles"          // CPU cycles
	unitPCyc   = "platform cycles" // the platform (interconnect, SMMU) clock
	unitNS     = "ns"
	unitBytes  = "B"
	unitGBs    = "GB/s"
	unitLines  = "lines"
	unitPages  = "pages"
	unitNone   = ""
)

// Field accessors return a pointer to the field on b.
type (
	intField  func(b *Board) *int
	u64Field  func(b *Board) *uint64
	timeField func(b *Board) *sim.Time
)

func whole(v float64, lo, hi float64) error {
	if v != math.Trunc(v) || v < lo || v > hi {
		return fmt.Errorf("%g is not a whole number in %g..%g", v, lo, hi)
	}
	return nil
}

func count(path, unit string, f intField) param {
	return param{path: path, unit: unit,
		get: func(b *Board) float64 { return float64(*f(b)) },
		put: func(b *Board, v float64) error {
			if err := whole(v, 0, 1<<40); err != nil {
				return err
			}
			*f(b) = int(v)
			return nil
		}}
}

func count64(path, unit string, f u64Field) param {
	return param{path: path, unit: unit,
		get: func(b *Board) float64 { return float64(*f(b)) },
		put: func(b *Board, v float64) error {
			if err := whole(v, 0, 1<<50); err != nil {
				return err
			}
			*f(b) = uint64(v)
			return nil
		}}
}

// duration is a time field read and written in units of per (the length
// of one unit in picoseconds: a CPU cycle, a nanosecond), read rounded to
// digits decimals (a time is whole picoseconds: 4 cycles at 2.6 GHz are
// 1538 ps, 3.9988 cycles).
func duration(path, unit string, f timeField, per func(b *Board) float64, digits int) param {
	scale := math.Pow(10, float64(digits))
	return param{path: path, unit: unit,
		get: func(b *Board) float64 { return math.Round(float64(*f(b))/per(b)*scale) / scale },
		put: func(b *Board, v float64) error {
			if math.IsNaN(v) || v < 0 || v*per(b) > float64(sim.Second) {
				return fmt.Errorf("%g %s is out of range; allowed 0..1 s", v, unit)
			}
			*f(b) = sim.Time(math.Round(v * per(b)))
			return nil
		},
		rescale: func(b *Board, ratio float64) { *f(b) = sim.Time(math.Round(float64(*f(b)) * ratio)) }}
}

func cpuPeriod(b *Board) float64 { return float64(sim.Second) / float64(b.Clocks.CPU) }
func nanosecond(*Board) float64  { return float64(sim.Nanosecond) }

func cycles(path string, f timeField) param { return duration(path, unitCycles, f, cpuPeriod, 2) }
func nanos(path string, f timeField) param  { return duration(path, unitNS, f, nanosecond, 3) }

func flag(path string, f func(b *Board) *bool) param {
	return param{path: path, unit: unitNone,
		get: func(b *Board) float64 {
			if *f(b) {
				return 1
			}
			return 0
		},
		put: func(b *Board, v float64) error {
			if v != 0 && v != 1 {
				return fmt.Errorf("%g is not 0 (false) or 1 (true)", v)
			}
			*f(b) = v == 1
			return nil
		},
		name: func(v float64) string {
			if v != 0 {
				return "true"
			}
			return "false"
		},
		parseName: func(s string) (float64, bool) {
			switch strings.ToLower(s) {
			case "true", "1", "on", "yes":
				return 1, true
			case "false", "0", "off", "no":
				return 0, true
			}
			return 0, false
		},
		names: "true or false"}
}

func policy(path string, f func(b *Board) *cache.Policy) param {
	return param{path: path, unit: unitNone,
		get: func(b *Board) float64 { return float64(*f(b)) },
		put: func(b *Board, v float64) error {
			if err := whole(v, float64(cache.LRU), float64(cache.Random)); err != nil {
				return fmt.Errorf("%g is not 0 (lru), 1 (plru) or 2 (random)", v)
			}
			*f(b) = cache.Policy(v)
			return nil
		},
		name: func(v float64) string { return cache.Policy(v).String() },
		parseName: func(s string) (float64, bool) {
			for p := cache.LRU; p <= cache.Random; p++ {
				if strings.EqualFold(s, p.String()) || s == strconv.Itoa(int(p)) {
					return float64(p), true
				}
			}
			return 0, false
		},
		names: "lru, plru or random"}
}

func entrySizes(path string, f func(b *Board) *mmu.EntrySizes) param {
	return param{path: path, unit: unitNone,
		get: func(b *Board) float64 { return float64(*f(b)) },
		put: func(b *Board, v float64) error {
			if err := whole(v, 1, 1<<52); err != nil {
				return fmt.Errorf("%g is not a mask of entry sizes", v)
			}
			*f(b) = mmu.EntrySizes(v)
			return nil
		},
		name:      func(v float64) string { return mmu.EntrySizes(v).String() },
		parseName: parseSizes,
		names:     "entry sizes such as 4K|64K|2M|1G"}
}

// parseSizes reads a mask of sizes written "4K|64K|2M" (the mask of
// log2 of each size), or the mask as a number.
func parseSizes(s string) (float64, bool) {
	if n, err := strconv.ParseUint(s, 10, 63); err == nil {
		return float64(n), true
	}
	var mask uint64
	for part := range strings.SplitSeq(s, "|") {
		b, err := bytesize.Parse(strings.TrimSpace(part))
		n := uint64(b)
		if err != nil || b < 1 || b > 1<<62 || float64(n) != b || n&(n-1) != 0 {
			return 0, false
		}
		mask |= n // bit k is 2^k bytes
	}
	return float64(mask), true
}

// freq is a clock in MHz; set sets each of its fields (a clock may
// drive several units) and keeps the cycle counts of the times counted in
// its cycles (unit cyc).
func freq(path, cyc string, fields func(b *Board) []*sim.Freq) param {
	return param{path: path, unit: unitMHz,
		get: func(b *Board) float64 { return float64(*fields(b)[0]) / 1e6 },
		put: func(b *Board, v float64) error {
			if !(v >= 10 && v <= 10000) {
				return fmt.Errorf("%g MHz is out of range; allowed 10..10000", v)
			}
			ratio := float64(*fields(b)[0]) / (v * 1e6)
			for _, p := range inUnit(b, cyc) {
				if p.rescale != nil {
					p.rescale(b, ratio)
				}
			}
			for _, f := range fields(b) {
				*f = sim.Freq(v * 1e6)
			}
			return nil
		}}
}

// inUnit lists b's parameters in unit u.
func inUnit(b *Board, u string) []*param {
	var out []*param
	for i := range schema {
		if p := &schema[i]; p.unit == u && p.applies(b) {
			out = append(out, p)
		}
	}
	return out
}
