package app

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/dmaviz/dmaviz/model/bytesize"
	"github.com/dmaviz/dmaviz/model/provenance"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// ParseHardware reads the text typed for a hardware field into the value
// in the field's unit (what a "hw.<path>" key holds) and the text the
// field then shows. A number may carry its unit or a larger or smaller one
// of the same kind ("2MiB", "95ns", "0.1us", "1.2GHz", "800MB/s", "15
// cycles"); enumerations take their names ("plru", "true", "4K|64K|2M").
// The error names the field ("hw.<path>") and what it takes.
func ParseHardware(p *provenance.Param, text string) (float64, string, error) {
	t := strings.TrimSpace(text)
	v, err := parseIn(p, t)
	if err != nil {
		return 0, "", fmt.Errorf("%s%s: %s %v", scenario.HardwarePrefix, p.Path, echo(t), err)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return 0, "", fmt.Errorf("%s%s: %s is out of range; allowed %s", scenario.HardwarePrefix, p.Path, echo(t), takes(p))
	}
	return v, formatHardware(p, v), nil
}

func echo(t string) string {
	if t == "" {
		return "(empty)"
	}
	return strconv.Quote(t)
}

// enumeration is how a field of no unit is named, read from its path and
// its printed value ("" for a plain number).
func enumeration(p *provenance.Param) string {
	switch {
	case p.Unit != "":
		return ""
	case strings.HasSuffix(p.Path, ".policy"):
		return "policy"
	case p.Path == "tlb.linear":
		return "linear"
	case strings.HasSuffix(p.Path, ".sizes"):
		return "sizes"
	case p.Text == "true" || p.Text == "false":
		return "flag"
	}
	return ""
}

// takes is what a field takes, in words, for messages.
func takes(p *provenance.Param) string {
	switch enumeration(p) {
	case "policy":
		return "lru, plru or random"
	case "linear":
		return "4K, 64K, 2M or 1G joined by |"
	case "sizes":
		return "entry sizes such as 4K|64K|2M"
	case "flag":
		return "true or false"
	}
	switch p.Unit {
	case "B":
		return "a size such as 2MiB or 64KiB"
	case "ns":
		return "a time such as 95ns or 0.1us"
	case "MHz":
		return "a frequency such as 950MHz or 1.2GHz"
	case "GB/s", "MB/s", "Gbit/s":
		return "a rate such as 6.4GB/s or 800MB/s"
	case "":
		return "a number, 0 or more"
	}
	return "a number of " + p.Unit + ", 0 or more"
}

var policyNames = []string{"lru", "plru", "random"}

// linearNames are mmu.Size's bits, in order.
var linearNames = []string{"4k", "64k", "2m", "1g"}

func parseIn(p *provenance.Param, t string) (float64, error) {
	low := strings.ToLower(t)
	switch enumeration(p) {
	case "policy":
		for i, n := range policyNames {
			if low == n {
				return float64(i), nil
			}
		}
		return 0, fmt.Errorf("is not allowed; allowed %s", takes(p))
	case "flag":
		switch low {
		case "true", "1", "yes":
			return 1, nil
		case "false", "0", "no":
			return 0, nil
		}
		return 0, fmt.Errorf("is not allowed; allowed %s", takes(p))
	case "linear", "sizes":
		return parseSizes(p, low)
	}
	v, ok := parseNumber(low, unitScales(p.Unit))
	if !ok {
		return 0, fmt.Errorf("is not %s", takes(p))
	}
	return v, nil
}

// parseSizes reads a list of entry sizes ("4K|64K|2M", commas too) into
// the field's mask: bit log2(size) for TLB entry sizes, mmu.Size's bit
// for tlb.linear.
func parseSizes(p *provenance.Param, low string) (float64, error) {
	bad := fmt.Errorf("is not allowed; allowed %s", takes(p))
	var mask uint64
	for _, part := range strings.FieldsFunc(low, func(r rune) bool { return r == '|' || r == ',' || r == ' ' }) {
		n, err := bytesize.Parse(part)
		if err != nil || n < 1 || n != math.Trunc(n) || n > 1<<52 || bits.OnesCount64(uint64(n)) != 1 {
			return 0, bad
		}
		bit := bits.TrailingZeros64(uint64(n))
		if enumeration(p) == "linear" {
			i := indexOf(linearNames, strings.TrimSuffix(strings.TrimSuffix(part, "b"), "i"))
			if i < 0 {
				return 0, bad
			}
			bit = i
		}
		mask |= 1 << bit
	}
	if mask == 0 {
		return 0, bad
	}
	return float64(mask), nil
}

func indexOf(names []string, s string) int {
	for i, n := range names {
		if n == s {
			return i
		}
	}
	return -1
}

// scale is a unit suffix and how many of the field's unit it is.
type scale struct {
	suffix string
	mul    float64
}

// unitScales lists the suffixes a number of unit u may carry, longest
// first; a bare number is in u.
func unitScales(u string) []scale {
	switch u {
	case "ns":
		return []scale{{"ps", 1e-3}, {"ns", 1}, {"us", 1e3}, {"µs", 1e3}, {"ms", 1e6}, {"s", 1e9}}
	case "MHz":
		return []scale{{"khz", 1e-3}, {"mhz", 1}, {"ghz", 1e3}, {"hz", 1e-6}}
	case "GB/s":
		return []scale{{"kb/s", 1e-6}, {"mb/s", 1e-3}, {"gb/s", 1}, {"tb/s", 1e3}}
	case "MB/s":
		return []scale{{"kb/s", 1e-3}, {"mb/s", 1}, {"gb/s", 1e3}}
	case "Gbit/s":
		return []scale{{"mbit/s", 1e-3}, {"gbit/s", 1}}
	case "":
		return nil
	}
	return []scale{{strings.ToLower(u), 1}}
}

// parseNumber reads low (lower case) as a number with one of the
// suffixes, or bare; sizes ("B") go through bytesize.
func parseNumber(low string, scales []scale) (float64, bool) {
	if len(scales) == 1 && scales[0].suffix == "b" {
		v, err := bytesize.Parse(low)
		return v, err == nil
	}
	mul := 1.0
	// Longest suffix first: "mhz" before "hz", "ns" before "s".
	best := ""
	for _, s := range scales {
		if strings.HasSuffix(low, s.suffix) && len(s.suffix) > len(best) {
			best, mul = s.suffix, s.mul
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(low, best)), 64)
	if err != nil {
		return 0, false
	}
	return v * mul, true
}

// formatHardware prints v as the field shows it: bytes in binary units,
// enumerations by name, numbers with the unit.
func formatHardware(p *provenance.Param, v float64) string {
	switch enumeration(p) {
	case "policy":
		if i := int(v); float64(i) == v && i >= 0 && i < len(policyNames) {
			return policyNames[i]
		}
	case "flag":
		return strconv.FormatBool(v != 0)
	case "linear", "sizes":
		return formatSizes(p, uint64(v))
	}
	if p.Unit == "B" {
		return provenance.FormatValue(v, p.Unit)
	}
	return strings.TrimSpace(strconv.FormatFloat(v, 'g', -1, 64) + " " + p.Unit)
}

func formatSizes(p *provenance.Param, mask uint64) string {
	var parts []string
	for bit := 0; bit < 64; bit++ {
		if mask&(1<<bit) == 0 {
			continue
		}
		if enumeration(p) == "linear" {
			if bit < len(linearNames) {
				parts = append(parts, strings.ToUpper(linearNames[bit]))
			}
			continue
		}
		parts = append(parts, strings.TrimSuffix(strings.ToUpper(bytesize.Format(1<<bit)), "IB"))
	}
	return strings.Join(parts, "|")
}
