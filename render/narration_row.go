package render

import (
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
)

// The narration row of presentation mode shows, across the stage, what
// each side's step at the cursor says: A's step under its caption, then
// B's; one step for both when they say the same; one caption for both
// when their captions are the same ("A and B · 4. What caching a bypass
// buys"), with one text when the two differ only in figures
// (mergeFigures), else each text starting with its side's letter.

// stepGap is the space between two blocks of the narration row.
const stepGap = 4

// stepBlock is one block of the narration row: a side's step, under a
// caption line (who and the step's caption) or, under a caption shared
// with the block before it, with its side's letter before its text.
type stepBlock struct {
	side    uint8
	caption bool
	who     string // before the caption: "A · ", "B · ", "A and B · "
	prefix  string // before the text: "A: ", "B: " under a shared caption
	step    *scenario.Step
	text    string // the step's text, or both sides' merged
	// folded: the block shows its caption only (the row cannot hold
	// both steps whole, and the other began later).
	folded bool
}

// blocks fills out with the blocks of the narration row for A's step i of
// a and B's step j of b (-1: none) and returns how many there are; it
// remembers the last merged pair.
func (m *narrationRow) blocks(a, b *scenario.Result, i, j int, out *[2]stepBlock) int {
	if i >= 0 && j >= 0 && i == j && a.Narration[i].Title == b.Narration[j].Title {
		sa, sb := &a.Narration[i], &b.Narration[j]
		if sa.Text == sb.Text {
			out[0] = stepBlock{side: 0, caption: true, who: "A and B · ", step: sa, text: sa.Text}
			return 1
		}
		if m.ma != sa || m.mb != sb {
			m.ma, m.mb = sa, sb
			m.merged, m.mok = mergeFigures(sa.Text, sb.Text)
		}
		if m.mok {
			out[0] = stepBlock{side: 0, caption: true, who: "A and B · ", step: sa, text: m.merged}
			return 1
		}
		out[0] = stepBlock{side: 0, caption: true, who: "A and B · ", prefix: "A: ", step: sa, text: sa.Text}
		out[1] = stepBlock{side: 1, prefix: "B: ", step: sb, text: sb.Text}
		return 2
	}
	n := 0
	if i >= 0 {
		out[n] = stepBlock{side: 0, caption: true, who: "A · ", step: &a.Narration[i], text: a.Narration[i].Text}
		n++
	}
	if j >= 0 {
		out[n] = stepBlock{side: 1, caption: true, who: "B · ", step: &b.Narration[j], text: b.Narration[j].Text}
		n++
	}
	return n
}

// height is the block's height w wide with its text at size (its
// caption's only when folded).
func (b *stepBlock) height(w, size float32) float32 {
	h := float32(0)
	if b.caption {
		h = narrateSz * 1.25
	}
	if b.folded {
		return h
	}
	return h + float32(len(Wrap(b.prefix+b.text, w, size)))*size*1.25
}

// rowHeight is the height of n blocks w wide at size, with the gaps
// between them.
func rowHeight(blocks *[2]stepBlock, n int, w, size float32) float32 {
	h := float32(0)
	for k := 0; k < n; k++ {
		h += blocks[k].height(w, size)
		if k > 0 {
			h += stepGap
		}
	}
	return h
}

// narrationRow remembers the height of the tallest row a pair of results
// shows w wide (at narrLeast), and the size and heights of the blocks
// shown last.
type narrationRow struct {
	a, b    *scenario.Result
	w       float32
	tallest float32
	// The last row fitted: its steps, its size and its blocks' heights.
	fi, fj int
	fw, fh float32
	size   float32
	hs     [2]float32
	folded int // the block fit folded, -1 for none
	// The last pair of steps merged (mergeFigures) and its text.
	ma, mb *scenario.Step
	merged string
	mok    bool
}

// height is the narration row's height for f's pair w wide: the tallest
// row at any cursor (each side's steps paired by time; with the sides
// aligned on progress, or a side missing, any step of A with any of B).
func (m *narrationRow) height(f *Frame, w float32) float32 {
	a, b := f.A.Result, f.B.Result
	if m.a == a && m.b == b && m.w == w {
		return m.tallest
	}
	*m = narrationRow{a: a, b: b, w: w, fi: -2, ma: m.ma, mb: m.mb, merged: m.merged, mok: m.mok}
	var blocks [2]stepBlock
	pair := func(i, j int) {
		m.tallest = max(m.tallest, rowHeight(&blocks, m.blocks(a, b, i, j, &blocks), w, narrLeast))
	}
	na, nb := 0, 0
	if a != nil {
		na = len(a.Narration)
	}
	if b != nil {
		nb = len(b.Narration)
	}
	if na == 0 || nb == 0 || f.Progress {
		for i := -1; i < na; i++ {
			for j := -1; j < nb; j++ {
				pair(i, j)
			}
		}
		return m.tallest
	}
	at := func(t sim.Time) {
		pair(captionAt(a.Narration, min(t, a.End)), captionAt(b.Narration, min(t, b.End)))
	}
	for i := range a.Narration {
		at(a.Narration[i].T)
	}
	for j := range b.Narration {
		at(b.Narration[j].T)
	}
	return m.tallest
}

// fit sets the size (the largest narration size at which n blocks fit
// w x h) and the blocks' heights, unless they are those of the last row
// fitted (A's step i, B's step j).
func (m *narrationRow) fit(blocks *[2]stepBlock, n, i, j int, w, h float32) {
	if m.fi == i && m.fj == j && m.fw == w && m.fh == h {
		return
	}
	m.fi, m.fj, m.fw, m.fh, m.folded = i, j, w, h, -1
	for _, size := range [...]float32{narrateSz, 16, narrLeast} {
		m.size = size
		if rowHeight(blocks, n, w, size) <= h {
			break
		}
	}
	if n == 2 && blocks[0].caption && blocks[1].caption && rowHeight(blocks, n, w, narrLeast) > h {
		// A stage too short for both steps whole (a pair shown only in
		// the moment between the sides' steps): the step that began
		// first, shown whole a moment ago, folds to its caption.
		k := 0
		if blocks[1].step.T < blocks[0].step.T {
			k = 1
		}
		blocks[k].folded = true
		m.folded = k
		for _, size := range [...]float32{narrateSz, 16, narrLeast} {
			m.size = size
			if rowHeight(blocks, n, w, size) <= h {
				break
			}
		}
	}
	total := float32(0)
	for k := 0; k < n; k++ {
		m.hs[k] = blocks[k].height(w, m.size)
		total += m.hs[k]
	}
	if room := h - float32(max(n-1, 0))*stepGap; total > room && total > 0 {
		// Not even at the least size (a stage shorter than a
		// projector's): each block keeps its share, its last line marked.
		for k := 0; k < n; k++ {
			m.hs[k] *= room / total
		}
	}
}

// presentSteps shows the narration row r for the sides' steps at their
// times, at the largest size at which it fits.
func (st *Stage) presentSteps(s *Scene, f *Frame, r Rect) {
	i, j := st.sides[0].header.caption, st.sides[1].header.caption
	if !st.sides[0].ok {
		i = -1
	}
	if !st.sides[1].ok {
		j = -1
	}
	var blocks [2]stepBlock
	row := &st.narrRow
	n := row.blocks(f.A.Result, f.B.Result, i, j, &blocks)
	row.fit(&blocks, n, i, j, r.W, r.H)
	if row.folded >= 0 {
		blocks[row.folded].folded = true // as fit found, for the frames it remembers
	}
	y := r.Y
	for k := 0; k < n; k++ {
		b := &blocks[k]
		sv := &st.sides[b.side]
		caption := ""
		if b.caption {
			caption = st.txt.Join(b.who, sv.header.stepCaption(), "")
		}
		text := st.txt.Join(b.prefix, b.text, "")
		if b.folded {
			text = ""
		}
		sv.narration.bind(&st.txt, b.side, text, caption)
		st.show(s, &sv.narration, Rect{r.X, y, r.W, row.hs[k]})
		y += row.hs[k] + stepGap
	}
}
