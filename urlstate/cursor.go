package urlstate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dmaviz/dmaviz/model/sim"
)

var timeUnits = []struct {
	suffix string
	unit   sim.Time
	digits int // decimal digits below the unit down to a picosecond
}{
	{"ps", sim.Picosecond, 0}, {"ns", sim.Nanosecond, 3}, {"us", sim.Microsecond, 6},
	{"ms", sim.Millisecond, 9}, {"s", sim.Second, 12},
}

// FormatTime prints t exactly, in the largest unit that keeps it short:
// "0", "250ns", "12.5us", "3.000001ms".
func FormatTime(t sim.Time) string {
	if t == 0 {
		return "0"
	}
	sign := ""
	if t < 0 {
		sign, t = "-", -t
	}
	u := timeUnits[0]
	for _, c := range timeUnits {
		if t >= c.unit {
			u = c
		}
	}
	whole, frac := t/u.unit, t%u.unit
	s := strconv.FormatInt(int64(whole), 10)
	if frac != 0 {
		f := fmt.Sprintf("%0*d", u.digits, int64(frac))
		s += "." + strings.TrimRight(f, "0")
	}
	return sign + s + u.suffix
}

// ParseTime reads a time such as "12.5us", "250ns", "3ms", "0" or a bare
// number of picoseconds, exactly (no floating point).
func ParseTime(s string) (sim.Time, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	u := timeUnits[0]
	// The two-letter suffixes come first in timeUnits, so "5ms" is not
	// read as "5m" seconds.
	for _, c := range timeUnits {
		if strings.HasSuffix(t, c.suffix) {
			u, t = c, strings.TrimSuffix(t, c.suffix)
			break
		}
	}
	whole, frac, dot := strings.Cut(t, ".")
	if whole == "" && (!dot || frac == "") || len(frac) > u.digits || strings.HasPrefix(frac, "+") || strings.HasPrefix(frac, "-") {
		return 0, fmt.Errorf("%q is not a time such as 12.5us", s)
	}
	var w int64
	if whole != "" {
		v, err := strconv.ParseUint(whole, 10, 63)
		if err != nil {
			return 0, fmt.Errorf("%q is not a time such as 12.5us", s)
		}
		w = int64(v)
	}
	var f int64
	if frac != "" {
		v, err := strconv.ParseUint(frac+strings.Repeat("0", u.digits-len(frac)), 10, 63)
		if err != nil {
			return 0, fmt.Errorf("%q is not a time such as 12.5us", s)
		}
		f = int64(v)
	}
	// w*unit + f must fit a sim.Time: exactly, so every time FormatTime
	// prints (up to the largest) reads back.
	const maxT = int64(^uint64(0) >> 1)
	if w > (maxT-f)/int64(u.unit) {
		return 0, fmt.Errorf("%q is too long", s)
	}
	return sim.Time(w)*u.unit + sim.Time(f), nil
}
