package app

import (
	"sort"
	"strings"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/report"
)

// BandsState is the panel's error bars: the current pair run at the
// assumed hardware parameters' extremes, on request (the page runs it:
// the model's uncertainty package is below the panel), for one setting.
type BandsState struct {
	Key         string // the setting they are for (SettingKey)
	Running     bool
	Done, Total int // single runs done and planned
	Result      *report.Uncertainty
	Err         string
	Canceled    bool
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

// StartBands marks the error bars of the current setting running and
// returns what to run; false when they cannot be, are running or done.
func (a *App) StartBands() (BandsRequest, bool) {
	key := a.SettingKey()
	if !a.CanBand() || a.Bands.Key == key && (a.Bands.Running || a.Bands.Result != nil) {
		return BandsRequest{}, false
	}
	s, err := a.Registry.Get(a.State.Scenario)
	if err != nil {
		return BandsRequest{}, false
	}
	a.Bands = BandsState{Key: key, Running: true}
	p := make(scenario.Params, len(a.State.Params))
	for k, v := range a.State.Params {
		p[k] = v
	}
	return BandsRequest{Key: key, Scenario: s, Params: p, A: a.State.A, B: a.State.B}, true
}

// BandsProgress records done of total single runs; false when key is no
// longer the running setting (the goroutine should stop).
func (a *App) BandsProgress(key string, done, total int) bool {
	if a.Bands.Key != key || !a.Bands.Running {
		return false
	}
	a.Bands.Done, a.Bands.Total = done, total
	return true
}

// SetBands takes finished error bars for key (dropped when stale).
func (a *App) SetBands(key string, u *report.Uncertainty, err error) bool {
	if a.Bands.Key != key || !a.Bands.Running {
		return false
	}
	a.Bands.Running = false
	a.Bands.Result = u
	if err != nil {
		a.Bands.Err = err.Error()
	}
	return true
}

// CancelBands stops the error bars being computed (their goroutine sees
// BandsProgress refuse).
func (a *App) CancelBands() {
	if a.Bands.Running {
		a.Bands.Running, a.Bands.Canceled = false, true
	}
}

// CurrentBands is the error-bar state of the current setting (zero for
// another setting's).
func (a *App) CurrentBands() BandsState {
	if a.Bands.Key != a.SettingKey() {
		return BandsState{}
	}
	return a.Bands
}

// BandsStale reports whether the running error bars are for a setting no
// longer shown, or were canceled.
func (a *App) BandsStale(key string) bool {
	return a.Bands.Key != key || !a.Bands.Running || a.SettingKey() != key
}
