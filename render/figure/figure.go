// Package figure writes the stage frame a URL shows as a standalone SVG:
// the same player, views and writer as the page's stage, for `dmaviz
// export` and the site builder's pre-rendered first views.
package figure

import (
	"fmt"
	"io"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/play"
	"github.com/dmaviz/dmaviz/render"
	"github.com/dmaviz/dmaviz/render/svg"
	"github.com/dmaviz/dmaviz/urlstate"
)

// MinCell is the smallest grid square in a figure: large buffers aggregate
// more cells per square than on the stage, so a figure of sg-sync's 10 MiB
// list stays a few hundred KB.
const MinCell = 10

// Options say where and how large the figure is.
type Options struct {
	End   bool // the finished runs, ignoring the state's cursor
	W, H  int  // CSS pixels
	Light bool // the light palette (for printed docs)
	// Masked draws the frame as a lesson stop shows it before its answer
	// is revealed: the counters without values, the timeline only up to
	// the cursor, no SMMU latency charts (render.Frame.Masked), and the
	// narration through Hide (the page's app.Hide), if set.
	Masked bool
	Hide   func(string) string
	// Top is the height a bar covers at the top (presentation mode's
	// collapsed panel), where the stage, which then narrates, draws
	// nothing (render.Frame.Top, Narrate).
	Top int
	// Card draws the stage as presentation mode shows it with a lesson
	// card open under it: without the narration row, whose place the
	// card takes (render.Frame.Card).
	Card bool
}

// PastEndError is a cursor past the end of the runs.
type PastEndError struct{ At, Length sim.Time }

func (e *PastEndError) Error() string {
	return fmt.Sprintf("%s is past the end of the run; allowed 0..%s, or end", e.At, e.Length)
}

// Write writes the frame of runs a and b of spec at st's cursor (or the
// end), alignment and zoom. It returns the cursor it drew.
func Write(w io.Writer, spec *scenario.Spec, a, b *scenario.Result, st urlstate.State, o Options) (sim.Time, error) {
	p := play.New(a, b)
	p.SetAlign(st.Align)
	if o.End {
		p.End()
	} else {
		if st.Cursor > p.Length() {
			return 0, &PastEndError{At: st.Cursor, Length: p.Length()}
		}
		p.Seek(st.Cursor)
	}
	sa, sb := p.States()
	if o.Masked && o.Hide != nil {
		a, b = Hidden(a, o.Hide), Hidden(b, o.Hide)
	}
	f := render.Frame{
		A:      render.Side{Result: a, State: sa, Time: p.SideTime(play.A), PolicyTitle: PolicyTitle(spec, a.Policy)},
		B:      render.Side{Result: b, State: sb, Time: p.SideTime(play.B), PolicyTitle: PolicyTitle(spec, b.Policy)},
		Cursor: p.Cursor(), Length: p.Length(), Progress: st.Align == play.AlignProgress,
		W: float32(o.W), H: float32(o.H),
		Zoom:    render.Zoom{First: st.ZoomFirst, Count: st.ZoomCount},
		MinCell: MinCell,
		Masked:  o.Masked,
		Top:     float32(o.Top), Narrate: o.Top > 0,
		Card: o.Card && o.Top > 0,
	}
	var scene render.Scene
	render.NewStage().Build(&scene, &f)
	opt := svg.Options{Titles: true}
	if o.Light {
		l := render.Light()
		opt.Palette = &l
	}
	return p.Cursor(), svg.Write(w, &scene, opt)
}

// PolicyTitle is a policy's id and title as the stage labels its side.
func PolicyTitle(spec *scenario.Spec, id string) string {
	if p, err := spec.Policy(id); err == nil {
		return p.ID + " · " + p.Title
	}
	return id
}

// Hidden is r with its narration's titles and texts through hide: the
// runs a lesson stop shows while its answer is kept back.
func Hidden(r *scenario.Result, hide func(string) string) *scenario.Result {
	if r == nil {
		return nil
	}
	c := *r
	c.Narration = make([]scenario.Step, len(r.Narration))
	for i, st := range r.Narration {
		st.Title, st.Text = hide(st.Title), hide(st.Text)
		c.Narration[i] = st
	}
	return &c
}
