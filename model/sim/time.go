// Package sim holds the model's notion of time, clocks, events and randomness.
//
// Simulated time is an integer count of picoseconds (Time). A clock domain
// (Freq) converts between its own cycles and Time in one place, so no other
// code multiplies by a clock period. Nothing here reads the wall clock.
package sim

import (
	"fmt"
	"math"
)

// Time is simulated time in picoseconds since the start of a run.
// Invariant: a run never goes backwards in Time.
type Time int64

// Common durations.
const (
	Picosecond  Time = 1
	Nanosecond  Time = 1000
	Microsecond Time = 1000 * Nanosecond
	Millisecond Time = 1000 * Microsecond
	Second      Time = 1000 * Millisecond
)

// Nanoseconds returns t as a float number of nanoseconds.
func (t Time) Nanoseconds() float64 { return float64(t) / float64(Nanosecond) }

// Microseconds returns t as a float number of microseconds.
func (t Time) Microseconds() float64 { return float64(t) / float64(Microsecond) }

// String prints t with a unit chosen for readability (ps, ns, us, ms, s).
func (t Time) String() string {
	a := t
	if a < 0 {
		a = -a
	}
	switch {
	case a < Nanosecond:
		return fmt.Sprintf("%dps", int64(t))
	case a < Microsecond:
		return fmt.Sprintf("%.3gns", t.Nanoseconds())
	case a < Millisecond:
		return fmt.Sprintf("%.4gus", t.Microseconds())
	case a < Second:
		return fmt.Sprintf("%.4gms", float64(t)/float64(Millisecond))
	default:
		return fmt.Sprintf("%.4gs", float64(t)/float64(Second))
	}
}

// Freq is a clock frequency in hertz. It is the only place where cycles and
// Time are converted.
type Freq float64

// Common frequency units.
const (
	Hz  Freq = 1
	KHz Freq = 1e3
	MHz Freq = 1e6
	GHz Freq = 1e9
)

// Period returns the length of one cycle, rounded to the nearest picosecond.
func (f Freq) Period() Time { return f.Cycles(1) }

// Cycles returns the duration of n cycles (n may be fractional), rounded to
// the nearest picosecond.
func (f Freq) Cycles(n float64) Time {
	if f <= 0 {
		return 0
	}
	return Time(math.Round(n * 1e12 / float64(f)))
}

// InCycles returns how many cycles of f fit in t (fractional).
func (f Freq) InCycles(t Time) float64 {
	return float64(t) * float64(f) / 1e12
}

// Never is a time after every time a run reaches (an empty queue's next
// event, an unbounded horizon).
const Never Time = 1<<63 - 1
