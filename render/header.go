package render

// headerStyle is how a column's header is set: the sizes of its title and
// of its clock and caption, where the caption's baseline is, whether the
// clock is drawn first (the SMMU column's figures list it before the
// title).
type headerStyle struct {
	title, text float32
	captionDY   float32 // the caption's baseline is this far below the title's size
	top         float32 // the views under the header start this far down the column
	clockFirst  bool
}

// The two columns' header styles: the buffer and translation views', and
// the SMMU view's.
var (
	columnHeader = headerStyle{title: titleSz, text: textSz, captionDY: 22, top: headerH}
	smmuHeader   = headerStyle{title: smmuTitle, text: smmuSz, captionDY: 24, top: smmuTitle + 36, clockFirst: true}
)

// headerView is the top of a side's column: the column's outline, the side
// and the policy it runs, its clock, and the narration step at the cursor
// on one line (in presentation mode the narrationView shows it large
// instead). A side without a result says so.
type headerView struct {
	txt   *texts
	side  uint8
	sd    *Side
	ok    bool // the side has a result to show
	style headerStyle
	// caption is the step at the side's time, -1 for none; oneLine draws
	// it under the title.
	caption int
	oneLine bool
}

func (v *headerView) bind(txt *texts, side uint8, sd *Side, ok bool, style headerStyle, narrate bool) {
	*v = headerView{txt: txt, side: side, sd: sd, ok: ok, style: style, caption: -1}
	if ok {
		v.caption = captionAt(sd.Result.Narration, sd.Time)
		if sd.Step > 0 && sd.Step <= len(sd.Result.Narration) {
			v.caption = sd.Step - 1
		}
		v.oneLine = !narrate
	}
}

func (v *headerView) MinSize() Size { return Size{} }

func (v *headerView) TextSizes() TextSizes {
	return TextSizes{Title: v.style.title, Body: v.style.text, Least: v.style.text}
}

func (v *headerView) Describe(Ref) string { return "" }

func (v *headerView) Build(s *Scene, r Rect) {
	ids := &sideIDs[v.side]
	x, y, w := r.X, r.Y, r.W
	st := v.style
	s.Add(Item{Kind: KindRect, ID: ids.column, X: x, Y: y, W: w, H: r.H, Fill: None, Stroke: Surface, StrokeWidth: 1})
	if !v.ok {
		s.Text(ids.header, x+8, y+st.title+4, v.txt.Join(sideNames[v.side], " · ", "no result"), st.title, Muted, AlignStart)
		return
	}
	res := v.sd.Result
	title := v.sd.PolicyTitle
	if title == "" {
		title = res.Policy
	}
	clock := v.txt.Time(v.sd.Time)
	header := v.txt.Fit(v.txt.Join(sideNames[v.side], " · ", title), w-24-textWidth(clock, st.text), st.title)
	if st.clockFirst {
		s.Text(ids.clock, x+w-8, y+st.title+4, clock, st.text, Muted, AlignEnd)
	}
	s.Text(ids.header, x+8, y+st.title+4, header, st.title, Text, AlignStart)
	if !st.clockFirst {
		s.Text(ids.clock, x+w-8, y+st.title+4, clock, st.text, Muted, AlignEnd)
	}
	if v.caption >= 0 && v.oneLine {
		s.Text(ids.caption, x+8, y+st.title+st.captionDY, v.txt.Fit(v.stepCaption(), w-16, st.text), st.text, Muted, AlignStart)
	}
}

// stepCaption is the caption of the step at the side's time: "3. Sync".
func (v *headerView) stepCaption() string {
	return v.txt.Join(v.txt.Num(float64(v.caption+1)), ". ", v.sd.Result.Narration[v.caption].Title)
}

// narrationView shows a side's narration step large (presentation mode,
// the narration row): the caption in narrateSz (down to narrLeast before
// it is cut), then the text at the largest size from narrateSz down to
// narrLeast at which it fits the height it is given; the layout gives it
// the height of its longest step, and only past that is its last line
// marked. It keeps the last wrapped text, so an unchanged frame does not
// wrap again.
type narrationView struct {
	txt     *texts
	side    uint8
	text    string
	caption string // "" for none (a caption shared with the step above)
	memo    wrapMemo
}

func (v *narrationView) bind(txt *texts, side uint8, text, caption string) {
	v.txt, v.side, v.text, v.caption = txt, side, text, caption
}

func (v *narrationView) MinSize() Size { return Size{} }

func (v *narrationView) TextSizes() TextSizes {
	return TextSizes{Title: narrateSz, Body: narrateSz, Least: narrLeast}
}

func (v *narrationView) Describe(Ref) string { return "" }

func (v *narrationView) Build(s *Scene, r Rect) {
	ids := &sideIDs[v.side]
	x, y, w := r.X, r.Y, r.W
	capH := float32(0)
	if v.caption != "" {
		capH = narrateSz * 1.25
		capSz := float32(narrateSz)
		for capSz > narrLeast && textWidth(v.caption, capSz) > w {
			capSz -= 2 // a long title steps down to the text's least size before it is cut
		}
		s.Text(ids.caption, x, y+capH, v.txt.Fit(v.caption, w, capSz), capSz, Text, AlignStart)
	}
	m := v.memo.wrap(v.text, w, r.H-capH)
	lineH := m.size * 1.25
	n := min(len(m.lines), max(int((r.H-capH)/lineH), 0))
	for i := 0; i < n; i++ {
		line := m.lines[i]
		if i == n-1 && n < len(m.lines) {
			line = v.txt.Fit(line+" …", w, m.size)
		}
		s.Text(ids.narration, x, y+capH+lineH*float32(i+1), line, m.size, Text, AlignStart)
	}
}

// narrateSz is the size of the narration text in presentation mode, large
// enough to read from the back of a room.
const narrateSz = 18

// wrapMemo is one side's last wrapped narration: the size it is shown at
// and its lines.
type wrapMemo struct {
	text  string
	w, h  float32
	size  float32
	lines []string
}

// wrap wraps text to w at the largest size that fits h (narrLeast when
// none does), unless m holds that already.
func (m *wrapMemo) wrap(text string, w, h float32) *wrapMemo {
	if m.text == text && m.w == w && m.h == h && m.lines != nil {
		return m
	}
	m.text, m.w, m.h = text, w, h
	for _, size := range [...]float32{narrateSz, 16, narrLeast} {
		m.size, m.lines = size, Wrap(text, w, size)
		if float32(len(m.lines))*size*1.25 <= h {
			break
		}
	}
	return m
}
