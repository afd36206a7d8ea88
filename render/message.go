package render

import (
	"strings"

	"github.com/dmaviz/dmaviz/model/scenario"
)

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

// message shows why the stage has no runs to draw (the latest run failed),
// wrapped to the stage's width.
func (st *Stage) message(s *Scene, msg string, x, y, w float32) {
	s.Text("stage/message-title", x, y+titleSz+8, "The latest run failed; nothing to show", titleSz+3, Red, AlignStart)
	for i, line := range Wrap(msg, w, messageSz) {
		s.Text("stage/message", x, y+titleSz+8+float32(i+2)*messageSz*1.3, line, messageSz, Text, AlignStart)
	}
	s.Text("stage/message-hint", x, y+titleSz+8+float32(len(Wrap(msg, w, messageSz))+3)*messageSz*1.3,
		"Change the setting named above; the field says what it allows.", textSz+2, Muted, AlignStart)
}

// narrateSz is the size of the narration text in presentation mode, large
// enough to read from the back of a room.
const narrateSz = 18

// narration shows a step large in a side's column (presentation mode): the
// caption in narrateSz, then the text at the largest size from narrateSz
// down to 14 px at which it fits in maxH; a step that does not fit even at
// 14 px may take up to longH (the views below give way: in presentation
// mode the panel, with the full text, is closed), and only past that is its
// last line marked. It returns the height it took beyond the usual caption
// line.
func (st *Stage) narration(s *Scene, side uint8, step *scenario.Step, caption string, x, y, w, maxH, longH float32) float32 {
	ids := &sideIDs[side]
	capH := float32(narrateSz) * 1.25
	s.Text(ids.caption, x, y+capH, st.txt.Fit(caption, w, narrateSz), narrateSz, Text, AlignStart)
	m := st.wrapped(side, step.Text, w, maxH-capH, longH-capH)
	lineH := m.size * 1.25
	n := min(len(m.lines), max(int(m.room/lineH), 0))
	for i := 0; i < n; i++ {
		line := m.lines[i]
		if i == n-1 && n < len(m.lines) {
			line = st.txt.Fit(line+" …", w, m.size)
		}
		s.Text(ids.narration, x, y+capH+lineH*float32(i+1), line, m.size, Text, AlignStart)
	}
	return capH + lineH*float32(n) + 6 - (headerH - titleSz - 8)
}

// wrapped memoises, for each side's narration text (one step at a time),
// the size it is shown at, its lines and the height they may take (h, or
// up to long when even 14 px does not fit h), so an unchanged frame does
// not wrap again.
func (st *Stage) wrapped(side uint8, text string, w, h, long float32) *wrapMemo {
	m := &st.wrap[side&1]
	if m.text == text && m.w == w && m.h == h && m.long == long && m.lines != nil {
		return m
	}
	m.text, m.w, m.h, m.long = text, w, h, long
	fit := func(room float32) bool {
		for _, size := range [...]float32{narrateSz, 16, 14} {
			m.size, m.lines, m.room = size, Wrap(text, w, size), room
			if float32(len(m.lines))*size*1.25 <= room {
				return true
			}
		}
		return false
	}
	if !fit(h) && long > h {
		fit(min(long, float32(len(m.lines))*m.size*1.25))
	}
	return m
}

// wrapMemo is one side's last wrapped narration.
type wrapMemo struct {
	text       string
	w, h, long float32
	size, room float32 // the text's size and the height it may take
	lines      []string
}
