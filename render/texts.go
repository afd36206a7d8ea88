package render

import (
	"math"
	"strconv"
	"strings"

	"github.com/dmaviz/dmaviz/model/sim"
)

// texts memoises the strings a frame shows (addresses, numbers, times,
// joined labels) so that rebuilding an unchanged or slowly changing frame
// does not allocate. Each map is cleared when it grows past textsLimit.
type texts struct {
	fit   map[fitKey]string
	hex   map[uint64]string
	num   map[float64]string
	times map[sim.Time]string
	join  map[[3]string]string
	ratio map[[2]float64]string
	short map[float64]string
}

const textsLimit = 8192

func (t *texts) Hex(v uint64) string {
	if s, ok := t.hex[v]; ok {
		return s
	}
	t.hex = limit(t.hex)
	s := "0x" + strconv.FormatUint(v, 16)
	t.hex[v] = s
	return s
}

// Num prints v with at most 4 significant digits, and whole numbers (and
// values of 10,000 and more, rounded) in full: never 1.235e+04.
func (t *texts) Num(v float64) string {
	if s, ok := t.num[v]; ok {
		return s
	}
	t.num = limit(t.num)
	var s string
	if r := math.Round(v); (v == r || math.Abs(v) >= 1e4) && v < 1e15 && v > -1e15 {
		s = strconv.FormatInt(int64(r), 10)
	} else {
		s = strconv.FormatFloat(v, 'g', 4, 64)
	}
	t.num[v] = s
	return s
}

// Short prints v in at most about five characters: whole numbers below
// 10,000 in full, else three significant digits, with k, M, G or T from
// 10,000 on ("161k", "1.62M", "14.2").
func (t *texts) Short(v float64) string {
	if s, ok := t.short[v]; ok {
		return s
	}
	t.short = limit(t.short)
	s := ShortNumber(v)
	t.short[v] = s
	return s
}

// ShortNumber is Short without the memo.
func ShortNumber(v float64) string {
	a := v
	if a < 0 {
		a = -a
	}
	if a < 1e4 {
		if v == float64(int64(v)) {
			return strconv.FormatInt(int64(v), 10)
		}
		return formatSig(v, 3)
	}
	for _, u := range [...]struct {
		div  float64
		unit string
	}{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if a >= u.div*0.9995 {
			return formatSig(v/u.div, 3) + u.unit
		}
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

func (t *texts) Time(v sim.Time) string {
	if s, ok := t.times[v]; ok {
		return s
	}
	t.times = limit(t.times)
	s := v.String()
	t.times[v] = s
	return s
}

// Join returns a+b+c.
func (t *texts) Join(a, b, c string) string {
	k := [3]string{a, b, c}
	if s, ok := t.join[k]; ok {
		return s
	}
	t.join = limit(t.join)
	s := a + b + c
	t.join[k] = s
	return s
}

func limit[K comparable](m map[K]string) map[K]string {
	if m == nil || len(m) > textsLimit {
		return make(map[K]string)
	}
	return m
}

type fitKey struct {
	s     string
	chars int
}

// Fit shortens s with an ellipsis so that it fits width pixels at size,
// counting textWidth's 0.6 em per character (so what Fit lets through, the
// layout test and the hit areas agree fits).
func (t *texts) Fit(s string, width, size float32) string {
	chars := int(width / (size * 0.6))
	if chars <= 0 {
		return ""
	}
	n := 0
	for range s {
		n++
	}
	if n <= chars {
		return s
	}
	k := fitKey{s, chars}
	if r, ok := t.fit[k]; ok {
		return r
	}
	t.fit = limit(t.fit)
	r := []rune(s)
	out := string(r[:max(chars-1, 0)]) + "…"
	t.fit[k] = out
	return out
}

// FitFirst returns the first candidate that fits width pixels at size whole,
// else the last one shortened by Fit: a label's shorter wordings, longest
// first, so that a narrow stage keeps whole words rather than an ellipsis.
func (t *texts) FitFirst(width, size float32, candidates ...string) string {
	for _, c := range candidates {
		if textWidth(c, size) <= width {
			return c
		}
	}
	if len(candidates) == 0 {
		return ""
	}
	return t.Fit(candidates[len(candidates)-1], width, size)
}

// baseLabel is label without a trailing parenthesis ("ETR buffer" for
// "ETR buffer (4MiB)").
func baseLabel(label string) string {
	if i := strings.Index(label, " ("); i > 0 && strings.HasSuffix(label, ")") {
		return label[:i]
	}
	return label
}

// Ratio is RatioText(a, b), memoised.
func (t *texts) Ratio(a, b float64) string {
	k := [2]float64{a, b}
	if s, ok := t.ratio[k]; ok {
		return s
	}
	t.ratio = limit(t.ratio)
	s := RatioText(a, b)
	t.ratio[k] = s
	return s
}
