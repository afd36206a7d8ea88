package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sweep"
	"github.com/dmaviz/dmaviz/site/control"
)

// HeadlineState is the panel's headline chart (Spec.Headline): computed by
// a sweep after the main runs, for one setting of everything but the
// varied parameter. Whether it is computing, and why it failed, are the
// runner's (control.RunState's Sweeping and SweepErr).
type HeadlineState struct {
	Key   string // the setting the chart is for (see HeadlineKey)
	Chart *scenario.Chart
}

// HeadlineKey is the setting a headline chart depends on: the scenario,
// both policies and every parameter but the varied one. "" when the
// scenario declares no headline.
func (a *App) HeadlineKey() string {
	if a.Spec == nil || a.Spec.Headline == nil {
		return ""
	}
	varied := a.headlineVaried()
	parts := []string{a.Spec.ID, a.State.A, a.State.B, "vary=" + varied}
	for _, d := range a.Spec.Params {
		if d.Name != varied {
			parts = append(parts, d.Name+"="+a.State.Params.Text(d.Name))
		}
	}
	for _, k := range a.hardwareKeys() { // the user's board
		if k != varied {
			parts = append(parts, k+"="+a.State.Params.Text(k))
		}
	}
	return strings.Join(parts, "&")
}

// HeadlineDue reports whether the headline chart must be (re)computed for
// the current setting, and marks it due for that setting if so.
func (a *App) HeadlineDue() bool {
	key := a.HeadlineKey()
	if key == "" || key == a.Headline.Key {
		return false
	}
	a.Headline = HeadlineState{Key: key}
	return true
}

// SetHeadline takes a computed chart for key; a chart for a setting that
// is no longer current is dropped (false). A sweep canceled before it
// ended leaves the chart due again (the next run's end starts it).
func (a *App) SetHeadline(key string, ch *scenario.Chart, canceled bool) bool {
	if key != a.Headline.Key {
		return false
	}
	if canceled {
		a.Headline = HeadlineState{}
		return false
	}
	a.Headline.Chart = ch
	return true
}

// HeadlineChart is the chart to show now, with its marker at the current
// value of the varied parameter; nil while none is ready for this setting.
func (a *App) HeadlineChart() *scenario.Chart {
	if a.Headline.Chart == nil || a.Headline.Key != a.HeadlineKey() {
		return nil
	}
	ch := *a.Headline.Chart
	ch.Mark = a.State.Params[a.headlineVaried()].Num
	if _, v, ok := a.boardValue(a.headlineVary); ok && a.headlineVary != "" {
		ch.Mark = v // the user's value or the preset's
	}
	return &ch
}

// HeadlineStatus says, from the runner's state, whether the headline chart
// for the current setting is being computed, or why it could not be (a
// computation for an earlier setting says nothing).
func (a *App) HeadlineStatus(run control.RunState) (running bool, err string) {
	if key := a.HeadlineKey(); key == "" || key != a.Headline.Key {
		return false, ""
	}
	return run.Sweeping, run.SweepErr
}

// HeadlineRequest is what the page's headline goroutine runs: a private
// copy of the parameters and the policies.
type HeadlineRequest struct {
	Key      string
	Scenario scenario.Scenario
	Params   scenario.Params
	A, B     string
	// Board, if set, is the board value varied in place of the
	// scenario's own parameter.
	Board *sweep.Axis
}

// NextHeadline returns the headline to compute, if one is due.
func (a *App) NextHeadline() (HeadlineRequest, bool) {
	if !a.HeadlineDue() {
		return HeadlineRequest{}, false
	}
	s, p, err := a.setting()
	if err != nil {
		return HeadlineRequest{}, false
	}
	req := HeadlineRequest{Key: a.Headline.Key, Scenario: s, Params: p, A: a.State.A, B: a.State.B}
	if ax, ok := a.whatIfAxis(); ok {
		req.Board = &ax
	}
	return req, true
}

// Run computes the chart; before is called ahead of each run and pace
// inside it (sweep.Headline). A model panic becomes an error (a panic in
// WebAssembly ends the page).
func (r HeadlineRequest) Run(ctx context.Context, before func(), pace func(float64) error) (ch *scenario.Chart, err error) {
	defer func() {
		if p := recover(); p != nil {
			ch, err = nil, fmt.Errorf("internal error in the headline chart: %v", p)
		}
	}()
	if r.Board != nil {
		return sweep.HeadlineOver(ctx, r.Scenario, r.Params, r.A, r.B, *r.Board, before, pace)
	}
	return sweep.Headline(ctx, r.Scenario, r.Params, r.A, r.B, before, pace)
}
