package render

import "github.com/dmaviz/dmaviz/model/scenario"

// header shows the header of side's column r in style (ok: the side has
// a result), and in presentation mode (narrate) the step at its time
// large under the title; it returns the height the step took beyond the
// one-line caption's.
func (st *Stage) header(s *Scene, sv *sideViews, side uint8, sd *Side, ok bool, style headerStyle, narrate bool, r Rect) float32 {
	h := &sv.header
	h.bind(&st.txt, side, sd, ok, style, narrate)
	st.show(s, h, r)
	if !ok || !narrate || h.caption < 0 {
		return 0
	}
	step := &sd.Result.Narration[h.caption]
	sv.narration.bind(&st.txt, side, step, h.stepCaption(), r.H*style.narrLong)
	st.show(s, &sv.narration, Rect{r.X + 8, r.Y + style.title + 8, r.W - 16, r.H * style.narration})
	return sv.narration.used
}

// stateOf is the side's state at the cursor, or its timeline's first.
func stateOf(sd *Side) *scenario.State {
	if sd.State == nil && len(sd.Result.Timeline.Keyframes) > 0 {
		return &sd.Result.Timeline.Keyframes[0].State
	}
	return sd.State
}
