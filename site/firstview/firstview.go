// Package firstview pre-renders the page's first view for the site
// builder: it runs a URL's setting natively, as the page would run it,
// and returns the stage at the opening cursor as SVG (render/figure, the
// code of `dmaviz export`), the panel as static HTML (the same Vugu
// components the page renders live, so the live panel takes the same
// room), and the results as data (app.ResultsData). The page shows them at
// once, without WebAssembly, until the live simulator takes over.
//
// A lesson stop's URL (?lesson=dma&stop=N) is pre-rendered the same way:
// its stage is the stop's setting at the lesson size, and the lesson card
// (the stop's title, position and question) comes with the panel, or
// alone for an embed, which has no panel.
package firstview

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"strings"

	"github.com/vugu/vugu"
	"github.com/vugu/vugu/staticrender"

	"github.com/dmaviz/dmaviz/model/provenance"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/render/figure"
	"github.com/dmaviz/dmaviz/site"
	"github.com/dmaviz/dmaviz/site/app"
	"github.com/dmaviz/dmaviz/site/control"
)

// View is one URL's first view.
type View struct {
	Scenario, Title string
	Query           string // the query the live page shows for it
	Embed           bool
	Cursor          string // the opening cursor: a time, or "end"
	SVG             []byte // the stage at the opening cursor
	// Panel is the panel's markup (with the lesson card when a lesson is
	// open); for an embed, the lesson card's alone, or nil outside a
	// lesson.
	Panel   []byte
	Results []byte // app.ResultsData of the runs
	// Lesson and Stop name the open lesson stop ("" and 0 outside one).
	Lesson string
	Stop   int
}

// Render runs query's setting and draws its first view with a stage of
// w x h CSS pixels (the window less the panel; the whole window for an
// embed). A query the page would correct with a message is refused: a
// first view must be what the live page shows. board lists a preset's
// parameters for the panel's Board section (platform.Parameters).
func Render(reg *scenario.Registry, board func(preset string) ([]provenance.Param, error), query string, w, h int) (*View, error) {
	a := app.New(reg, query)
	a.Hardware.Params = board
	if len(a.Messages) > 0 {
		return nil, fmt.Errorf("%q: %s", query, strings.Join(a.Messages, "; "))
	}
	ctl := control.New()
	for _, cmd := range a.InitialCommands() {
		ctl.Send(cmd)
	}
	req, err := a.Plan()
	if err != nil {
		return nil, fmt.Errorf("%q: %w", query, err)
	}
	ra, rb, err := req.Run(context.Background(), nil)
	a.SetResults(req, ra, rb, err)
	if err != nil {
		return nil, fmt.Errorf("%q: %w", query, err)
	}
	ctl.SetResults(ra, rb)
	// The live page starts the headline chart's sweep with its first
	// results: the panel it hands over to shows it being computed.
	if _, due := a.NextHeadline(); due {
		// The runner says the sweep is computing until this view is drawn.
		drawn := make(chan struct{})
		defer close(drawn)
		ctl.StartSweep(func(context.Context, func(int, float64) error) func(bool) {
			<-drawn
			return func(bool) {}
		})
	}
	first := a.FirstCursor()
	ctl.Send(first)
	ctl.Advance(0, true)
	snap := ctl.Snapshot()
	v := &View{Scenario: a.Spec.ID, Title: a.Spec.Title, Query: a.Query(snap), Embed: a.State.Embed}
	st := a.State
	end := first.Kind == control.CmdEnd
	v.Cursor = st.Cursor.String()
	if end {
		v.Cursor = "end"
	}
	var svgDoc bytes.Buffer
	if _, err := figure.Write(&svgDoc, a.Spec, ra, rb, st, figure.Options{End: end, W: w, H: h, Masked: a.Masked(), Hide: a.Hide, Top: top(a), Card: a.CardOnStage()}); err != nil {
		return nil, fmt.Errorf("%q: %w", query, err)
	}
	v.SVG = svgDoc.Bytes()
	if v.Results, _ = a.ResultsData(); v.Results == nil {
		return nil, fmt.Errorf("%q: no results", query)
	}
	if a.LessonOpen() {
		v.Lesson, v.Stop = st.Lesson, st.Stop
	}
	switch {
	case !v.Embed:
		v.Panel, err = panel(a, ctl)
	case a.LessonOpen():
		v.Panel, err = static(&site.LessonCard{App: a})
	}
	if err != nil {
		return nil, fmt.Errorf("%q: panel: %w", query, err)
	}
	return v, nil
}

// CollapsedBar is the height of presentation mode's panel, a bar over
// the top of the stage (style.css's .collapsed-bar in #panel-mount; the
// live stage keeps clear of it and narrates).
const CollapsedBar = 40

// top is the height a bar covers at the top of the stage.
func top(a *app.App) int {
	if a.Presenting() {
		return CollapsedBar
	}
	return 0
}

// panel renders the Vugu panel statically, with the metrics table in its
// host element as the page fills it (presentation mode's bar has none).
func panel(a *app.App, ctl *control.Controller) ([]byte, error) {
	root := &site.Root{App: a, Ctl: ctl}
	out, err := static(root)
	if err != nil {
		return nil, err
	}
	if a.State.Collapsed { // presentation mode: the panel is a bar
		return out, nil
	}
	page, err := fillHost(out, site.MetricsHostID, root.MetricsHTML())
	if err != nil {
		return nil, err
	}
	// Values the live panel sets as properties (Vugu's .value), which a
	// static render leaves out: the parameters' text and the scrubber.
	for _, p := range a.Spec.Params {
		page = setValue(page, "param-"+p.Name, a.Texts[p.Name])
	}
	return setValue(page, "scrub", site.ScrubValue(ctl.Snapshot())), nil
}

// static renders a Vugu component as the page's live code would, once.
func static(c vugu.Builder) ([]byte, error) {
	env, err := vugu.NewBuildEnv()
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := staticrender.New(&out).Render(env.RunBuild(c)); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// fillHost puts html inside the element with the id, which the live page
// fills the same way (an HTMLHost the Vugu panel renders empty).
func fillHost(page []byte, id, html string) ([]byte, error) {
	host := `<div id="` + id + `"`
	i := bytes.Index(page, []byte(host))
	if i < 0 {
		return nil, fmt.Errorf("no #%s in the panel", id)
	}
	j := bytes.IndexByte(page[i:], '>')
	if j < 0 {
		return nil, fmt.Errorf("unterminated #%s", id)
	}
	at := i + j + 1
	out := append([]byte{}, page[:at]...)
	out = append(out, html...)
	return append(out, page[at:]...), nil
}

// setValue gives the element with the id a value attribute.
func setValue(page []byte, id, value string) []byte {
	attr := []byte(`id="` + id + `"`)
	i := bytes.Index(page, attr)
	if i < 0 {
		return page
	}
	at := i + len(attr)
	out := append([]byte{}, page[:at]...)
	out = append(out, ` value="`+html.EscapeString(value)+`"`...)
	return append(out, page[at:]...)
}
