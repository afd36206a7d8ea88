package render

import "strings"

// Wrap breaks s into lines of at most width pixels at size (0.58 em per
// character, as Fit counts), breaking at spaces; a word longer than a line
// is cut by Fit.
func Wrap(s string, width, size float32) []string {
	chars := int(width / (size * 0.58))
	if chars <= 0 {
		return nil
	}
	var lines []string
	var cur []rune
	for _, w := range strings.Fields(s) {
		r := []rune(w)
		switch {
		case len(cur) == 0:
			cur = append(cur, r...)
		case len(cur)+1+len(r) <= chars:
			cur = append(append(cur, ' '), r...)
		default:
			lines = append(lines, string(cur))
			cur = append(cur[:0], r...)
		}
		for len(cur) > chars {
			lines = append(lines, string(cur[:chars-1])+"…")
			cur = cur[:0]
		}
	}
	if len(cur) > 0 {
		lines = append(lines, string(cur))
	}
	return lines
}

// messageSz is the size of the stage's message text.
const messageSz = 18

// messageView says why the stage has no runs to draw (the latest run
// failed), wrapped to its width.
type messageView struct{ msg string }

func (v *messageView) MinSize() Size { return Size{} }

func (v *messageView) TextSizes() TextSizes {
	return TextSizes{Title: titleSz + 3, Body: messageSz, Least: textSz + 2}
}

func (v *messageView) Describe(Ref) string { return "" }

func (v *messageView) Build(s *Scene, r Rect) {
	x, y, w, msg := r.X, r.Y, r.W, v.msg
	s.Text("stage/message-title", x, y+titleSz+8, "The latest run failed; nothing to show", titleSz+3, Red, AlignStart)
	for i, line := range Wrap(msg, w, messageSz) {
		s.Text("stage/message", x, y+titleSz+8+float32(i+2)*messageSz*1.3, line, messageSz, Text, AlignStart)
	}
	s.Text("stage/message-hint", x, y+titleSz+8+float32(len(Wrap(msg, w, messageSz))+3)*messageSz*1.3,
		"Change the setting named above; the field says what it allows.", textSz+2, Muted, AlignStart)
}
