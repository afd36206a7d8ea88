package lesson

import (
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
		var v float64
		switch {
		case f.Ratio == "A/B" && okA && okB && vb != 0:
			v = va / vb
		case f.Ratio == "B/A" && okA && okB && va != 0:
			v = vb / va
		case f.Ratio == "" && f.Side == 'A' && okA:
			v = va
		case f.Ratio == "" && f.Side == 'B' && okB:
			v = vb
		default:
			continue
		}
		if f.Scale != 0 {
			v *= f.Scale
		}
		vals = append(vals, v)
	}
	return vals
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
