package render

import "github.com/dmaviz/dmaviz/model/scenario"

// headerStyle is how a column's header is set: the sizes of its title and
// of its clock and caption, where the caption's baseline is, whether the
// clock is drawn first (the SMMU column's figures list it before the
// title), and the share of the column's height the narration step may
// take in presentation mode (narrLong when it does not fit at 14 px).
type headerStyle struct {
	title, text         float32
	captionDY           float32 // the caption's baseline is this far below the title's size
	top                 float32 // the views under the header start this far down the column
	clockFirst          bool
	narration, narrLong float32
}

// The two columns' header styles: the buffer and translation views', and
// the SMMU view's.
var (
	columnHeader = headerStyle{title: titleSz, text: textSz, captionDY: 22, top: headerH, narration: 0.38, narrLong: 0.6}
	smmuHeader   = headerStyle{title: smmuTitle, text: smmuSz, captionDY: 24, top: smmuTitle + 36, clockFirst: true, narration: 0.3, narrLong: 0.5}
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

// narrationView shows a side's narration step large in its column
// (presentation mode): the caption in narrateSz, then the text at the
// largest size from narrateSz down to 14 px at which it fits the height
// it is given; a step that does not fit even at 14 px may take up to
// long (the views below give way: in presentation mode the panel, with
// the full text, is closed), and only past that is its last line marked.
// It keeps the last wrapped text, so an unchanged frame does not wrap
// again.
type narrationView struct {
	txt     *texts
	side    uint8
	step    *scenario.Step
	caption string
	long    float32
	memo    wrapMemo
	// used is the height the last Build took beyond the one-line
	// caption's.
	used float32
}

func (v *narrationView) bind(txt *texts, side uint8, step *scenario.Step, caption string, long float32) {
	v.txt, v.side, v.step, v.caption, v.long = txt, side, step, caption, long
}

func (v *narrationView) MinSize() Size { return Size{} }

func (v *narrationView) TextSizes() TextSizes {
	return TextSizes{Title: narrateSz, Body: narrateSz, Least: 14}
}

func (v *narrationView) Describe(Ref) string { return "" }

func (v *narrationView) Build(s *Scene, r Rect) {
	ids := &sideIDs[v.side]
	x, y, w := r.X, r.Y, r.W
	capH := float32(narrateSz) * 1.25
	s.Text(ids.caption, x, y+capH, v.txt.Fit(v.caption, w, narrateSz), narrateSz, Text, AlignStart)
	m := v.memo.wrap(v.step.Text, w, r.H-capH, v.long-capH)
	lineH := m.size * 1.25
	n := min(len(m.lines), max(int(m.room/lineH), 0))
	for i := 0; i < n; i++ {
		line := m.lines[i]
		if i == n-1 && n < len(m.lines) {
			line = v.txt.Fit(line+" …", w, m.size)
		}
		s.Text(ids.narration, x, y+capH+lineH*float32(i+1), line, m.size, Text, AlignStart)
	}
	v.used = capH + lineH*float32(n) - narrationBase
}

// narrationBase is the height of the step's caption line the header
// leaves room for anyway, less the step's bottom margin: a step takes
// its height less narrationBase beyond the header.
const narrationBase = headerH - titleSz - 8 - 6

// narrateSz is the size of the narration text in presentation mode, large
// enough to read from the back of a room.
const narrateSz = 18

// wrapMemo is one side's last wrapped narration: the size it is shown at,
// its lines and the height they may take.
type wrapMemo struct {
	text       string
	w, h, long float32
	size, room float32 // the text's size and the height it may take
	lines      []string
}

// wrap wraps text to w at the largest size that fits h, or up to long
// when even 14 px does not fit h, unless m holds that already.
func (m *wrapMemo) wrap(text string, w, h, long float32) *wrapMemo {
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
