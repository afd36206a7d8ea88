package app

import (
	"sort"
	"strings"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/report"
	"github.com/dmaviz/dmaviz/site/control"
)

// BandsState is the panel's error bars: the current pair run at the
// assumed hardware parameters' extremes, on request, for one setting. The
// runner (control.RunState's Banding and BandsDone) owns their running,
// progress and cancelling, as it does every run's; App keeps what they
// are for and what they gave.
type BandsState struct {
	Key      string // the setting they are for (SettingKey)
	Asked    bool   // started and not yet delivered or canceled
	Running  bool   // computing now (from the runner; CurrentBands sets it)
	Done     int    // single runs done, of Total (from the runner's progress)
	Total    int    // single runs planned
	Result   *report.Uncertainty
	Err      string
	Canceled bool
}

// SettingKey names the current setting: the scenario, both policies and
// every parameter.
func (a *App) SettingKey() string {
	if a.Spec == nil {
		return ""
	}
	parts := []string{a.Spec.ID, a.State.A, a.State.B}
	names := make([]string, 0, len(a.State.Params))
	for k := range a.State.Params {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		parts = append(parts, k+"="+a.State.Params.Text(k))
	}
	return strings.Join(parts, "&")
}

// BandsRequest is what the page's error-bar goroutine runs: a private
// copy of the setting.
type BandsRequest struct {
	Key      string
	Scenario scenario.Scenario
	Params   scenario.Params
	A, B     string
}

// CanBand reports whether the current setting can be given error bars:
// a scenario on a hardware preset with results shown.
func (a *App) CanBand() bool { return a.Spec != nil && a.Spec.OnBoard && a.A != nil && a.B != nil }

// StartBands marks the error bars of the current setting asked for and
// returns what to run; false when they cannot be, are done, or are
// computing or queued in the runner (run).
func (a *App) StartBands(run control.RunState) (BandsRequest, bool) {
	key := a.SettingKey()
	if !a.CanBand() || a.Bands.Key == key && (a.live(run) || a.Bands.Result != nil) {
		return BandsRequest{}, false
	}
	s, err := a.Registry.Get(a.State.Scenario)
	if err != nil {
		return BandsRequest{}, false
	}
	p := make(scenario.Params, len(a.State.Params))
	for k, v := range a.State.Params {
		p[k] = v
	}
	a.Bands = BandsState{Key: key, Asked: true}
	return BandsRequest{Key: key, Scenario: s, Params: p, A: a.State.A, B: a.State.B}, true
}

// BandsPlanned records how many single runs the error bars for key plan.
func (a *App) BandsPlanned(key string, total int) {
	if a.Bands.Key == key && a.Bands.Asked {
		a.Bands.Total = total
	}
}

// SetBands takes finished error bars for key (dropped when stale or
// canceled).
func (a *App) SetBands(key string, u *report.Uncertainty, err error) bool {
	if a.Bands.Key != key || !a.Bands.Asked {
		return false
	}
	a.Bands.Asked = false
	a.Bands.Result = u
	if err != nil {
		a.Bands.Err = err.Error()
	}
	return true
}

// CancelBands records that the error bars asked for were canceled (the
// runner stops them: control.Controller.CancelBands).
func (a *App) CancelBands() {
	if a.Bands.Asked {
		a.Bands.Asked, a.Bands.Canceled = false, true
	}
}

// live says the error bars asked for are computing or queued: a re-run of
// the same setting drops them from the runner's queue without a word.
func (a *App) live(run control.RunState) bool {
	return a.Bands.Asked && (run.Banding || run.BandsQueued)
}

// CurrentBands is the error-bar state of the current setting (zero for
// another setting's), with the runner's progress.
func (a *App) CurrentBands(run control.RunState) BandsState {
	if a.Bands.Key != a.SettingKey() {
		return BandsState{}
	}
	b := a.Bands
	b.Running = a.live(run) // queued behind a run counts: Cancel applies
	if b.Running && run.Banding {
		b.Done = min(int(run.BandsDone*float64(b.Total)), b.Total)
	}
	return b
}
