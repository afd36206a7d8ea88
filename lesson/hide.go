package lesson

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// Hidden stands for a figure the class is still to guess.
const Hidden = "?"

// AnswerValues are the values of the figures the stop quotes from its own
// pair at the lesson size (not those of another policy or of the paper
// size, nor the setting's Given ones), taken from the runs a and b shown:
// the numbers the page keeps back until the answer is revealed.
func (s Stop) AnswerValues(a, b *scenario.Result) []float64 {
	if a == nil || b == nil {
		return nil
	}
	var vals []float64
	for _, f := range s.Figures {
		if f.Paper || f.Policy != "" || f.Given {
			continue
		}
		va, okA := a.Metric(f.Metric)
		vb, okB := b.Metric(f.Metric)
		needA, needB := f.Ratio != "" || f.Side == 'A', f.Ratio != "" || f.Side == 'B'
		if needA && !okA || needB && !okB {
			continue
		}
		v, err := f.value(va, vb)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) { // a ratio over 0
			continue
		}
		vals = append(vals, v)
	}
	return vals
}

// value is the figure's value from its run's metric on side A (va) and
// B (vb): one side's, or their ratio, times Scale. A figure of another
// policy (Policy) quotes that run as its B.
func (f Figure) value(va, vb float64) (float64, error) {
	var v float64
	switch {
	case f.Ratio == "A/B":
		v = va / vb
	case f.Ratio == "B/A":
		v = vb / va
	case f.Ratio != "":
		return 0, fmt.Errorf("ratio %q: allowed A/B or B/A", f.Ratio)
	case f.Policy != "" || f.Side == 'B':
		v = vb
	case f.Side == 'A':
		v = va
	default:
		return 0, fmt.Errorf("side %q: allowed A or B", f.Side)
	}
	if f.Scale != 0 {
		v *= f.Scale
	}
	return v, nil
}

// Hide replaces in text each number that prints one of vals at the
// precision it is written with ("2.9" for 2.9468, "208" for 208) by
// Hidden, unless the question itself states that number (the setup the
// class is told: "64 pages"). Numbers inside words and hex ("l2d",
// "0x2000") are left alone.
func (s Stop) Hide(text string, vals []float64) string {
	if len(vals) == 0 {
		return text
	}
	told := map[string]bool{}
	eachNumber(s.Question, func(_, _ int, num string) { told[num] = true })
	var b strings.Builder
	last := 0
	eachNumber(text, func(i, j int, num string) {
		if told[num] || !printsOneOf(num, vals) {
			return
		}
		b.WriteString(text[last:i])
		b.WriteString(Hidden)
		last = j
	})
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// eachNumber calls fn for every number in text that stands on its own
// (not inside a word or a hex literal): its byte span and its digits
// without thousands separators.
func eachNumber(text string, fn func(i, j int, num string)) {
	digit := func(c byte) bool { return c >= '0' && c <= '9' }
	word := func(c byte) bool { return c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	for i := 0; i < len(text); {
		if !digit(text[i]) || i > 0 && (digit(text[i-1]) || word(text[i-1])) {
			i++
			continue
		}
		j := i
		for j < len(text) && (digit(text[j]) || (text[j] == ',' || text[j] == '.') && j+1 < len(text) && digit(text[j+1])) {
			j++
		}
		if j < len(text) && (text[j] == 'x' || text[j] == '_') {
			i = j + 1 // 0x2000, l2d_
			continue
		}
		fn(i, j, strings.ReplaceAll(text[i:j], ",", ""))
		i = j
	}
}

// printsOneOf reports whether num (digits, an optional point and
// decimals) is one of vals rounded to num's decimals.
func printsOneOf(num string, vals []float64) bool {
	dec := 0
	if k := strings.IndexByte(num, '.'); k >= 0 {
		dec = len(num) - k - 1
	}
	for _, v := range vals {
		if !math.IsNaN(v) && !math.IsInf(v, 0) && strconv.FormatFloat(v, 'f', dec, 64) == num {
			return true
		}
	}
	return false
}
