package render

import (
	"strings"
	"unicode"
)

// mergeFigures returns one text for two narration texts that say the same
// but for a few figures, each difference written "A 208.0, B 148.0" in
// place ("l2d_tlb_refill averages A 208.0, B 148.0 per iteration"), and
// false when they differ in more than maxFigures words or in a word that
// is not a figure. The stage then shows the step once, and the figures
// side by side read as the comparison they are.
func mergeFigures(a, b string) (string, bool) {
	wa, wb := strings.Fields(a), strings.Fields(b)
	if len(wa) != len(wb) || a == b {
		return "", false
	}
	diffs := 0
	for i := range wa {
		if wa[i] == wb[i] {
			continue
		}
		if diffs++; diffs > maxFigures || !hasDigit(wa[i]) || !hasDigit(wb[i]) {
			return "", false
		}
	}
	var sb strings.Builder
	for i := range wa {
		if i > 0 {
			sb.WriteByte(' ')
		}
		if wa[i] == wb[i] {
			sb.WriteString(wa[i])
			continue
		}
		// The punctuation both share stays outside: "(16.0):" and
		// "(17.0):" read "(A 16.0, B 17.0):".
		p, s := punctPrefix(wa[i], wb[i]), punctSuffix(wa[i], wb[i])
		sb.WriteString(wa[i][:p])
		sb.WriteString("A ")
		sb.WriteString(wa[i][p : len(wa[i])-s])
		sb.WriteString(", B ")
		sb.WriteString(wb[i][p : len(wb[i])-s])
		sb.WriteString(wa[i][len(wa[i])-s:])
	}
	return sb.String(), true
}

// maxFigures is how many figures two merged texts may differ in.
const maxFigures = 6

func hasDigit(w string) bool { return strings.IndexFunc(w, unicode.IsDigit) >= 0 }

// punctPrefix is the length of the punctuation a and b both start with.
func punctPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] && isPunct(a[n]) {
		n++
	}
	return n
}

// punctSuffix is the length of the punctuation a and b both end with.
func punctSuffix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] && isPunct(a[len(a)-1-n]) {
		n++
	}
	return n
}

func isPunct(c byte) bool { return strings.IndexByte("()[]{},.;:!?'\"", c) >= 0 }
