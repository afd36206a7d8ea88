// Package site holds the Vugu components of the control panel. Go code lives
// in the .go files; the .vugu files hold markup only and are compiled by the
// pinned vugugen (make generate). The panel's rules live in site/app and its
// link to the stage in site/control, both plain Go tested natively.
package site

import (
	"errors"
	"fmt"
	"strings"

	"github.com/vugu/vugu"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/render"
	"github.com/dmaviz/dmaviz/site/app"
	"github.com/dmaviz/dmaviz/site/control"
)

// Root is the panel. It shows App and sends player commands to Ctl; Rerun
// starts a run after a choice changed.
type Root struct {
	App   *app.App
	Ctl   *control.Controller
	Rerun func()
	Page  string // the page's URL without query, for links
	// ToggleKeys shows or hides the key map overlay (nil: no overlay).
	ToggleKeys func()
	// StartBands starts the error bars of the current setting and
	// CancelBands stops them (the page's runner runs them; nil: no button).
	StartBands, CancelBands func()
	// StagePlay offers a large play control over the stage while the
	// player rests at the start: the live page sets it for a first visit
	// that does not play at once (reduced motion); a pre-rendered panel
	// has nothing to play.
	StagePlay bool
	// StageSize is the stage's size in CSS pixels, for Export figure
	// (nil: no figures).
	StageSize func() (w, h int)
	AttrMap   vugu.AttrMap
}

func (c *Root) send(k control.CommandKind, n int64) { c.Ctl.Send(control.Command{Kind: k, Int: n}) }
func (c *Root) prev()                               { c.send(control.CmdStepNarration, -1) }
func (c *Root) next()                               { c.send(control.CmdStepNarration, 1) }
func (c *Root) toggle()                             { c.send(control.CmdToggle, 0) }

// MetricsHTML is the metrics table's markup for the panel's #metrics-host
// (see Metrics).
func (c *Root) MetricsHTML() string {
	return (&Metrics{Rows: c.App.Rows(), Masked: c.App.Masked()}).HTML()
}

func (c *Root) cancelBands() {
	if c.CancelBands != nil {
		c.CancelBands()
	}
}

func (c *Root) bands() app.BandsState { return c.App.CurrentBands(c.Ctl.Run()) }

func (c *Root) bandLines() []BandLine { return bandLines(c.App.Spec, c.bands().Result) }

// figure draws the stage at the cursor at the stage's size.
func (c *Root) figure() (*app.Figure, error) {
	if c.StageSize == nil {
		return nil, errors.New("this page has no stage to draw")
	}
	w, h := c.StageSize()
	return c.App.Figure(c.Ctl.Snapshot(), w, h)
}

func (c *Root) results() [2]*scenario.Result { return [2]*scenario.Result{c.App.A, c.App.B} }

// hasCharts reports whether a run carries charts of its own, shown
// under the heading the headline chart would otherwise give.
func (c *Root) hasCharts() bool {
	for _, r := range c.results() {
		if r != nil && len(r.Charts) > 0 {
			return true
		}
	}
	return false
}

func (c *Root) rerun(changed bool) {
	if changed && c.Rerun != nil {
		c.Rerun()
	}
}

func (c *Root) setScenario(id string) { c.rerun(c.App.SetScenario(id)) }
func (c *Root) setA(id string)        { c.rerun(c.App.SetPolicy(0, id)) }
func (c *Root) setB(id string)        { c.rerun(c.App.SetPolicy(1, id)) }
func (c *Root) swap()                 { c.rerun(c.App.SwapPolicies()) }
func (c *Root) setParam(name, text string) {
	c.rerun(c.App.SetParam(name, text))
}

// goStop opens the lesson's stop n from its start, paused, and runs it.
func (c *Root) goStop(n int) { c.lessonMoved(c.App.GoStop(n)) }

// LessonForward and LessonBack are a clicker's PageDown and PageUp: the
// answer, then the next stop; the question, then the previous stop.
func (c *Root) LessonForward() { c.lessonMoved(c.App.LessonForward()) }
func (c *Root) LessonBack()    { c.lessonMoved(c.App.LessonBack()) }

func (c *Root) lessonMoved(run bool) {
	if !run {
		return
	}
	c.send(control.CmdPause, 0)
	c.send(control.CmdStart, 0)
	c.rerun(true)
}

func (c *Root) toggleCollapsed() { c.App.State.Collapsed = !c.App.State.Collapsed }

func (c *Root) panelClass() string {
	switch {
	case c.App.State.Embed:
		return "panel embed"
	case c.App.State.Collapsed:
		return "panel collapsed"
	}
	return "panel"
}

// stagePlay says whether the large play control shows: when offered, on
// the full page, with results, paused at the start.
func (c *Root) stagePlay() bool {
	snap := c.Ctl.Snapshot()
	return c.StagePlay && !c.App.State.Embed && c.App.A != nil && !snap.Playing && snap.Cursor == 0
}

func (c *Root) playLabel() string {
	if c.Ctl.Snapshot().Playing {
		return "Pause"
	}
	return "Play"
}

func (c *Root) params() []scenario.Param {
	if c.App.Spec == nil {
		return nil
	}
	return c.App.Spec.Params
}

func (c *Root) scenarioOptions() []Option {
	var out []Option
	for _, s := range c.App.Registry.All() {
		sp := s.Spec()
		out = append(out, Option{sp.ID, sp.Title})
	}
	return out
}

func (c *Root) policyOptions() []Option {
	if c.App.Spec == nil {
		return nil
	}
	out := make([]Option, len(c.App.Spec.Policies))
	for i, p := range c.App.Spec.Policies {
		label := p.ID + " — " + p.Title
		out[i] = Option{p.ID, label}
	}
	return out
}

func (c *Root) runText() string {
	run := c.Ctl.Run()
	switch {
	case run.Running:
		return "simulating " + SideText(run) + "…"
	case run.Err != "":
		return "run failed: " + run.Err
	case c.App.A != nil && c.App.Masked():
		return "simulated: " + render.MaskedNote
	case c.App.A != nil:
		return SimulatedText(c.App.A, c.App.B)
	}
	return ""
}

// SimulatedText says how long each side's run took in simulated time,
// and, where the stage plays only part of it (the last of several
// sessions, after a prior one), how long that part is: the scrubber's
// length, which is otherwise ten times shorter with no word why.
func SimulatedText(a, b *scenario.Result) string {
	s := "simulated: A " + a.End.String() + ", B " + b.End.String()
	played := func(r *scenario.Result) sim.Time {
		if r.Timeline != nil {
			return r.Timeline.End
		}
		return r.End
	}
	if pa, pb := played(a), played(b); pa != a.End || pb != b.End {
		s += "; the stage plays one recorded session: A " + pa.String() + ", B " + pb.String()
	}
	return s
}

func (c *Root) runClass() string {
	if c.Ctl.Run().Err != "" {
		return "run-status msg"
	}
	return "run-status"
}

func (c *Root) hoverText() string { return HoverText(c.Ctl.Snapshot()) }

// HoverText describes what the pointer is over on the stage.
func HoverText(s control.Snapshot) string {
	if s.Hover != "" {
		return s.Hover
	}
	return "Point at the stage to see what a cell, way or bar is."
}

func (c *Root) query() string { return c.App.Query(c.Ctl.Snapshot()) }

// Query is the URL query the page should show now.
func (c *Root) Query() string { return c.query() }

func (c *Root) fullLink() string { return c.Page + "?" + c.App.LinkQuery(c.Ctl.Snapshot()) }

func (c *Root) embedCode() string { return app.EmbedCode(c.Page, c.query()) }

func (c *Root) keys() {
	if c.ToggleKeys != nil {
		c.ToggleKeys()
	}
}

// embedNoticeMax is how much of the first message the embed's notice shows.
const embedNoticeMax = 48

// embedNotice is the embed's one-line notice that the link had a refused
// value (the full page lists the messages; an embed has no room for them,
// and falling back silently would show a figure the author did not ask
// for without a word): the start of the first message and how many more.
func (c *Root) embedNotice() string { return EmbedNotice(c.App.Messages) }

// EmbedNotice is embedNotice for msgs ("" for none).
func EmbedNotice(msgs []string) string {
	if len(msgs) == 0 {
		return ""
	}
	first := []rune(msgs[0])
	text := "⚠ " + string(first[:min(len(first), embedNoticeMax)])
	if len(first) > embedNoticeMax {
		text += "…"
	}
	if n := len(msgs) - 1; n > 0 {
		text += fmt.Sprintf(" (+%d more)", n)
	}
	return text
}

// noticeTitle is the notice's tooltip: every message.
func (c *Root) noticeTitle() string { return strings.Join(c.App.Messages, "\n") }

// chartsMasked stands for the charts while a lesson's answer is kept back.
func (c *Root) chartsMasked() string {
	return "What changes with the setting: " + render.MaskedNote + "."
}
