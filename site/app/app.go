// Package app is the panel's state: which scenario, policies and parameters
// are chosen, what the user typed into each field and what is wrong with it,
// the messages from the URL, and the latest pair of runs. It is plain Go (no
// Vugu, no syscall/js), so every rule the panel follows is tested natively;
// the Vugu components only display it and call its methods.
package app

import (
	"html"
	"net/url"
	"strings"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/site/control"
	"github.com/dmaviz/dmaviz/urlstate"
)

// App is the panel's state. Methods are called from the panel's goroutine
// only; the runner hands results back through SetResults in the same one.
type App struct {
	Registry *scenario.Registry
	Codec    *urlstate.Codec

	State    urlstate.State
	Spec     *scenario.Spec
	Texts    map[string]string // what each parameter field shows
	Errors   map[string]string // per parameter: why its text was refused
	Messages []string          // from the URL, shown until dismissed
	// CursorGiven says the URL named a time (t=...). Without one an embed
	// opens at the end of the runs, a meaningful frame, not the empty start.
	CursorGiven bool

	// A and B are the results shown; keys says which setting each is for
	// (RunKey), so that a change to one side re-runs that side only. The
	// runs themselves (number, side, progress, error, cancel) are the
	// controller's runner's (site/control).
	A, B *scenario.Result
	keys [2]string

	// Hardware reads the boards for the Board section (board.go).
	Hardware Hardware
	board    boardCache

	Headline     HeadlineState // the headline chart (headline.go)
	headlineVary string        // the board path it varies ("": the scenario's parameter; whatif.go)
	Bands        BandsState    // the error bars, on request (uncertainty.go)
	// runErrParam is the field that shows the last run's error ("" for none).
	runErrParam string
}

// New returns the panel state for a URL query (with or without "?").
func New(reg *scenario.Registry, query string) *App {
	a := &App{Registry: reg, Codec: &urlstate.Codec{Registry: reg, DefaultScenario: DefaultScenario(reg)}}
	st, msgs := a.Codec.Decode(query)
	if q, err := url.ParseQuery(strings.TrimPrefix(query, "?")); err == nil {
		a.CursorGiven = q.Has(urlstate.KeyCursor)
	}
	for _, m := range msgs {
		a.Messages = append(a.Messages, m.Text)
	}
	a.load(st)
	return a
}

// DefaultScenario is the scenario a bare URL opens: the first seed scenario
// registered ("etr"), else the first by id.
func DefaultScenario(reg *scenario.Registry) string {
	for _, id := range []string{"etr", "sg-sync"} {
		if _, err := reg.Get(id); err == nil {
			return id
		}
	}
	if all := reg.All(); len(all) > 0 {
		return all[0].Spec().ID
	}
	return ""
}

func (a *App) load(st urlstate.State) {
	a.State = st
	a.Spec = nil
	if s, err := a.Registry.Get(st.Scenario); err == nil {
		a.Spec = s.Spec()
	}
	a.Texts = map[string]string{}
	a.Errors = map[string]string{}
	a.runErrParam, a.headlineVary = "", ""
	if a.Spec != nil {
		for _, d := range a.Spec.Params {
			a.Texts[d.Name] = st.Params.Text(d.Name)
		}
	}
	a.A, a.B, a.keys = nil, nil, [2]string{}
}

// SetScenario switches to another scenario at the current size (its
// lesson or paper setting). It reports whether anything changed (and so a
// run is due).
func (a *App) SetScenario(id string) bool {
	if id == a.State.Scenario {
		return false
	}
	s, err := a.Registry.Get(id)
	if err != nil {
		a.Messages = append(a.Messages, err.Error())
		return false
	}
	st, _ := a.Codec.DecodeValues(map[string][]string{urlstate.KeyScenario: {s.Spec().ID}, urlstate.KeySize: {a.State.Size.String()}})
	st.Speed, st.Align, st.Collapsed, st.Embed = a.State.Speed, a.State.Align, a.State.Collapsed, a.State.Embed
	a.load(st)
	return true
}

// SetSize switches to the scenario's lesson or paper setting: every
// parameter takes its value at size (Spec.SizeParams), the policies stay.
// It reports whether any parameter changed (and so a run is due).
func (a *App) SetSize(size scenario.Size) bool {
	if a.Spec == nil {
		return false
	}
	p, err := a.Spec.SizeParams(size)
	if err != nil {
		a.Messages = append(a.Messages, err.Error())
		return false
	}
	a.State.Size = size
	changed := false
	for _, d := range a.Spec.Params {
		changed = changed || a.State.Params[d.Name] != p[d.Name]
	}
	for _, k := range a.hardwareKeys() { // the user's board stays
		p[k] = a.State.Params[k]
	}
	a.State.Params = p
	a.Texts, a.Errors, a.runErrParam = map[string]string{}, map[string]string{}, ""
	for _, d := range a.Spec.Params {
		a.Texts[d.Name] = p.Text(d.Name)
	}
	return changed
}

// SetPolicy chooses side 0 (A) or 1 (B)'s policy.
func (a *App) SetPolicy(side int, id string) bool {
	if a.Spec == nil {
		return false
	}
	if _, err := a.Spec.Policy(id); err != nil {
		a.Messages = append(a.Messages, err.Error())
		return false
	}
	p := &a.State.A
	if side == 1 {
		p = &a.State.B
	}
	if *p == id {
		return false
	}
	*p = id
	return true
}

// SetParam validates the text typed for a parameter. A valid value replaces
// the parameter and clears its error (and a run is due if it changed); an
// invalid one keeps the text in the field, records the message naming the
// field and the allowed range, and leaves the running value alone.
func (a *App) SetParam(name, text string) bool {
	if a.Spec == nil {
		return false
	}
	a.Texts[name] = text
	old := a.State.Params[name]
	if err := a.Spec.Set(a.State.Params, name, text); err != nil {
		a.Errors[name] = err.Error()
		return false
	}
	delete(a.Errors, name)
	a.Texts[name] = a.State.Params.Text(name)
	if a.State.Params[name] == old {
		return false
	}
	if name == "preset" {
		a.keepBoard()
	}
	return true
}

// SwapPolicies exchanges A and B.
func (a *App) SwapPolicies() bool {
	if a.State.A == a.State.B {
		return false
	}
	a.State.A, a.State.B = a.State.B, a.State.A
	return true
}

// DismissMessages clears the URL messages.
func (a *App) DismissMessages() { a.Messages = nil }

// Rows is the metrics table for the latest runs.
func (a *App) Rows() []scenario.Row {
	if a.A == nil || a.B == nil {
		return nil
	}
	return scenario.Compare(a.Spec, a.State.Params, a.A, a.B)
}

// Query is the current URL query (without "?") with the player's cursor,
// speed, alignment and zoom from snap.
func (a *App) Query(snap control.Snapshot) string {
	st := a.State
	st.Cursor, st.Speed, st.Align = max(snap.Cursor, 0), snap.Speed, snap.Align
	st.ZoomFirst, st.ZoomCount = snap.Zoom.First, snap.Zoom.Count
	return a.Codec.Encode(st)
}

// LinkQuery is Query for a link to the full app (never embed mode).
func (a *App) LinkQuery(snap control.Snapshot) string {
	embed := a.State.Embed
	a.State.Embed = false
	q := a.Query(snap)
	a.State.Embed = embed
	return q
}

// FirstCursor is the command that places the cursor once the first results
// are in: the URL's time, or the end for an embed that names none.
func (a *App) FirstCursor() control.Command {
	if a.State.Embed && !a.CursorGiven {
		return control.Command{Kind: control.CmdEnd}
	}
	return control.Command{Kind: control.CmdSeek, Int: int64(a.State.Cursor)}
}

// InitialCommands replays the URL's view settings into the player.
func (a *App) InitialCommands() []control.Command {
	return []control.Command{
		{Kind: control.CmdSpeed, Int: int64(a.State.Speed)},
		{Kind: control.CmdAlign, Text: a.State.Align.String()},
		{Kind: control.CmdZoom, Int: int64(a.State.ZoomFirst), Int2: int64(a.State.ZoomCount)},
	}
}

// EmbedCode is the iframe snippet for page (the page's URL without query)
// and query.
func EmbedCode(page, query string) string {
	q := query
	if q != "" {
		q += "&"
	}
	src := page + "?" + q + "embed=1"
	return `<iframe src="` + html.EscapeString(src) + `" width="960" height="600" style="border:0" title="dmaviz" loading="lazy"></iframe>`
}

// PageURL strips the query and fragment from a location.
func PageURL(href string) string {
	if i := strings.IndexAny(href, "?#"); i >= 0 {
		return href[:i]
	}
	return href
}
