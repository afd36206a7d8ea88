package app

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/dmaviz/dmaviz/lesson"
	"github.com/dmaviz/dmaviz/urlstate"
)

// LessonView is how the open lesson's card shows: the question until
// Revealed, and the card folded to its head line while Folded.
type LessonView struct {
	Revealed, Folded bool
}

// lessonQuery gives a query that opens a lesson stop the stop's setting:
// its scenario, pair and the lesson size, under any of them the query
// names itself (a link to a stop with the teacher's own B keeps it). A
// query naming another scenario than its stop's takes the stop's. A bad
// lesson or stop is left to the codec, which says so.
func lessonQuery(query string) string {
	v, err := url.ParseQuery(strings.TrimPrefix(query, "?"))
	if err != nil || !v.Has(urlstate.KeyLesson) {
		return query
	}
	p, err := lesson.Get(v.Get(urlstate.KeyLesson))
	if err != nil {
		return query
	}
	n, err := strconv.Atoi(strings.TrimSpace(v.Get(urlstate.KeyStop)))
	if err != nil || n < 1 || n > len(p.Stops) {
		n = 1
	}
	stop := p.Stop(n)
	other := v.Has(urlstate.KeyScenario) && v.Get(urlstate.KeyScenario) != stop.Scenario
	for k, vals := range stop.Query() {
		if other || !v.Has(k) {
			v[k] = vals
		}
	}
	return v.Encode()
}

// LessonOpen reports whether a lesson path is open.
func (a *App) LessonOpen() bool { return a.State.Lesson != "" }

// LessonPath is the open path (the zero Path when none is).
func (a *App) LessonPath() lesson.Path {
	p, _ := lesson.Get(a.State.Lesson)
	return p
}

// LessonStop is the open path's current stop.
func (a *App) LessonStop() lesson.Stop { return a.LessonPath().Stop(a.State.Stop) }

// GoStop opens stop n (from 1) of the open path at its setting, keeping
// the view settings (speed, alignment, presentation or embed mode), with
// the question showing. It reports whether a run is due (false for a
// stop outside the path).
func (a *App) GoStop(n int) bool {
	p := a.LessonPath()
	if n < 1 || n > len(p.Stops) {
		return false
	}
	v := url.Values(p.Stop(n).Query())
	v.Set(urlstate.KeyLesson, p.ID)
	v.Set(urlstate.KeyStop, strconv.Itoa(n))
	st, msgs := a.Codec.DecodeValues(v)
	for _, m := range msgs {
		a.Messages = append(a.Messages, m.Text)
	}
	st.Speed, st.Align, st.Collapsed, st.Embed, st.Autoplay = a.State.Speed, a.State.Align, a.State.Collapsed, a.State.Embed, a.State.Autoplay
	a.load(st)
	a.Lesson = LessonView{}
	return true
}

// LessonForward is a clicker's "next": the answer if the question shows,
// else the next stop. It reports whether a run is due.
func (a *App) LessonForward() bool {
	if !a.LessonOpen() {
		return false
	}
	if !a.Lesson.Revealed {
		a.Lesson.Revealed, a.Lesson.Folded = true, false
		return false
	}
	return a.GoStop(a.State.Stop + 1)
}

// LessonBack is a clicker's "previous": the question again if the answer
// shows, else the previous stop. It reports whether a run is due.
func (a *App) LessonBack() bool {
	if !a.LessonOpen() {
		return false
	}
	if a.Lesson.Revealed {
		a.Lesson.Revealed, a.Lesson.Folded = false, false
		return false
	}
	return a.GoStop(a.State.Stop - 1)
}

// CloseLesson leaves the lesson; the scenario stays as it is.
func (a *App) CloseLesson() {
	a.State.Lesson, a.State.Stop = "", 0
	a.Lesson = LessonView{}
}

// Presenting reports presentation mode: the panel folded to a bar over
// a full-window stage that narrates (an embed is never presented).
func (a *App) Presenting() bool { return a.State.Collapsed && !a.State.Embed }

// CardOnStage reports whether the open lesson's card shows its stop's
// text under a presented stage: it then takes the place of the stage's
// narration row, which comes back when the card is folded (its head then
// sits in the bar's row) or closed.
func (a *App) CardOnStage() bool { return a.LessonOpen() && !a.Lesson.Folded && a.Presenting() }

// Masked reports whether the page keeps the answer back: a lesson stop
// shows its question, not yet revealed. The metrics, hazards, charts and
// the stage's counters then show their rows without values, and the
// narration without the answer's figures.
func (a *App) Masked() bool { return a.LessonOpen() && !a.Lesson.Revealed }

// Hide is text without the figures of the answer while Masked (the
// numbers that print a figure the stop quotes from the runs shown), else
// text as it is.
func (a *App) Hide(text string) string {
	if !a.Masked() {
		return text
	}
	st := a.LessonStop()
	return st.Hide(text, st.AnswerValues(a.A, a.B))
}
