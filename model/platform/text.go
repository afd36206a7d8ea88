package platform

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dmaviz/dmaviz/model/bytesize"
)

// A parameter's value as text, the way a board file, a link's
// "hw.<path>" key and the CLI write it: a number with the path's unit
// ("2MiB", "95ns", "1.2GHz", "12.8GB/s"), a count or a cycle count
// plain ("16"), an enumeration by name ("plru", "true", "4K|2M").
// FormatText writes the canonical form, which ParseText reads back to
// the same value: a shared link or a board file reproduces the board.

// unitSuffixes are the suffixes ParseText accepts for each unit, with
// the factor to the schema's unit; the first is the canonical one ("":
// the number stands alone).
var unitSuffixes = map[string][]struct {
	suffix string
	mul    float64
}{
	unitMHz:    {{"MHz", 1}, {"GHz", 1e3}, {"kHz", 1e-3}, {"Hz", 1e-6}},
	unitNS:     {{"ns", 1}, {"us", 1e3}, {"µs", 1e3}, {"ms", 1e6}, {"ps", 1e-3}, {"s", 1e9}},
	unitGBs:    {{"GB/s", 1}, {"MB/s", 1e-3}, {"GBps", 1}, {"MBps", 1e-3}},
	unitCycles: {{"", 1}, {"cycles", 1}, {"cycle", 1}, {"cyc", 1}},
	unitPCyc:   {{"", 1}, {"platform cycles", 1}, {"cycles", 1}, {"cycle", 1}, {"cyc", 1}},
	unitLines:  {{"", 1}, {"lines", 1}, {"line", 1}},
	unitPages:  {{"", 1}, {"pages", 1}, {"page", 1}},
	unitNone:   {{"", 1}}, // a plain number is in the path's unit
}

// unitForms says in words what ParseText accepts for a unit.
func unitForms(unit string) string {
	switch unit {
	case unitBytes:
		return "a size such as 64B, 32KiB, 2MiB"
	case unitMHz:
		return "a frequency such as 950MHz or 1.2GHz"
	case unitNS:
		return "a time such as 95ns or 0.1us"
	case unitGBs:
		return "a bandwidth such as 6.4GB/s"
	case unitNone:
		return "a number"
	}
	return "a number of " + unit
}

// ParseText reads text as a value of the parameter at path, in the
// path's unit (Unit; a plain number is in it). The error names the path and what it accepts; the
// value's range is the setter's to check (Board.Apply).
func ParseText(path, text string) (float64, error) {
	p := paramByPath(path)
	if p == nil {
		return 0, unknownPath(path)
	}
	return p.parse(text)
}

func (p *param) parse(text string) (float64, error) {
	s := strings.TrimSpace(text)
	if p.parseName != nil {
		if v, ok := p.parseName(s); ok {
			return v, nil
		}
		return 0, fmt.Errorf("%s: %s is not allowed; allowed %s", p.path, echo(text), p.names)
	}
	v, ok := parseWithUnit(s, p.unit)
	if !ok {
		return 0, fmt.Errorf("%s: %s is not %s", p.path, echo(text), unitForms(p.unit))
	}
	return v, nil
}

// parseWithUnit reads a number with one of unit's suffixes (any case;
// a space before it allowed) in unit.
func parseWithUnit(s, unit string) (float64, bool) {
	if unit == unitBytes {
		v, err := bytesize.Parse(s)
		return v, err == nil && finite(v)
	}
	lower := strings.ToLower(s)
	for _, f := range append(unitSuffixes[unit], unitSuffixes[unitNone]...) {
		num := s
		if f.suffix != "" {
			cut, ok := strings.CutSuffix(lower, strings.ToLower(f.suffix))
			if !ok {
				continue
			}
			num = strings.TrimSpace(s[:len(cut)])
		}
		v, err := strconv.ParseFloat(num, 64)
		if err == nil && finite(v) {
			return v * f.mul, true
		}
	}
	return 0, false
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// FormatText is the canonical text of v at path (ParseText reads it
// back to v).
func FormatText(path string, v float64) string {
	p := paramByPath(path)
	if p == nil {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return p.format(v)
}

func (p *param) format(v float64) string {
	if p.name != nil {
		return p.name(v)
	}
	if p.unit == unitBytes && v == math.Trunc(v) && v >= 0 && v < 1<<62 {
		return bytesize.Format(int64(v))
	}
	suffix := ""
	if forms := unitSuffixes[p.unit]; len(forms) > 0 {
		suffix = forms[0].suffix
	}
	return strconv.FormatFloat(v, 'g', -1, 64) + suffix
}

// echo quotes a refused value, cut when long.
func echo(text string) string {
	const most = 40
	if r := []rune(text); len(r) > most {
		return strconv.Quote(string(r[:most])) + "…"
	}
	return strconv.Quote(text)
}

// unknownPath names an unknown path and a few known ones.
func unknownPath(path string) error {
	return fmt.Errorf("%s: unknown hardware parameter; %s", echoPath(path), KnownPaths(path))
}

func echoPath(path string) string {
	if r := []rune(path); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return path
}

// KnownPaths says briefly which paths exist: those of path's unit
// ("l2.": "l2.size, l2.ways, ...") when it names one, else the units,
// and how to list them all.
func KnownPaths(path string) string {
	unit, _, _ := strings.Cut(path, ".")
	var same []string
	var units []string
	for i := range schema {
		u, _, _ := strings.Cut(schema[i].path, ".")
		if u == unit {
			same = append(same, schema[i].path)
		}
		if !slices.Contains(units, u) {
			units = append(units, u)
		}
	}
	const most = 8
	if len(same) > 0 {
		if len(same) > most {
			same = append(same[:most], "…")
		}
		return "known in " + unit + ": " + strings.Join(same, ", ")
	}
	return "units are " + strings.Join(units, ", ") + " (dmaviz board show NAME lists every path)"
}
