// Package bytesize writes and reads sizes in bytes the way dmaviz shows
// them everywhere (parameters, messages, views): binary units only, as the
// kernel's memparse reads "2M". It imports only the standard library, so
// the hardware packages and the scenario contract share it.
package bytesize

import (
	"strconv"
	"strings"
)

// Format prints n with the largest binary unit that divides it exactly
// ("4MiB", "48B").
func Format(n int64) string {
	switch {
	case n != 0 && n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + "GiB"
	case n != 0 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + "MiB"
	case n != 0 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + "KiB"
	}
	return strconv.FormatInt(n, 10) + "B"
}

var units = []struct {
	suffix string
	mul    float64
}{
	{"gib", 1 << 30}, {"mib", 1 << 20}, {"kib", 1 << 10},
	{"gb", 1 << 30}, {"mb", 1 << 20}, {"kb", 1 << 10},
	{"g", 1 << 30}, {"m", 1 << 20}, {"k", 1 << 10}, {"b", 1},
}

// Parse reads a size such as "4MiB", "64k", "512" into bytes. Every unit
// is binary, as the kernel's memparse reads "2M" and as Format prints:
// "2MB" and "2mb" are 2 MiB, never 2,000,000 bytes. A fraction of a byte
// ("1.5B", "0.1KiB") is returned as it is, for the caller to refuse: it is
// never rounded to a size the user did not give.
func Parse(s string) (float64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mul := 1.0
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, mul = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mul
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return 0, err
	}
	return v * mul, nil
}
