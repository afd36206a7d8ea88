package app

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/report"
	"github.com/dmaviz/dmaviz/site/control"
)

// Error bars are for one setting: they start once, take a result only for
// that setting, are dropped when the setting changes, and can be canceled;
// their progress is the runner's.
func TestBandsFollowTheSetting(t *testing.T) {
	a := New(catalog.Registry(), "?scenario=etr&buffer=256KiB")
	computing := control.RunState{Banding: true}
	_, ok := a.StartBands(computing)
	assert.False(t, ok, "no error bars before results")
	a = ran(t, "?scenario=etr&buffer=256KiB")
	require.True(t, a.CanBand())
	req, ok := a.StartBands(control.RunState{})
	require.True(t, ok)
	assert.Equal(t, "256KiB", req.Params.Text("buffer"))
	_, again := a.StartBands(computing)
	assert.False(t, again, "already running")
	_, again = a.StartBands(control.RunState{BandsQueued: true})
	assert.False(t, again, "already queued")
	assert.False(t, a.CurrentBands(control.RunState{}).Running, "error bars the runner dropped show as running")
	a.BandsPlanned(req.Key, 62)
	cur := a.CurrentBands(control.RunState{Banding: true, BandsDone: 0.5})
	assert.True(t, cur.Running)
	assert.Equal(t, 62, cur.Total)
	assert.Equal(t, 31, cur.Done, "the runner's progress as runs")

	u := &report.Uncertainty{Runs: 31}
	assert.True(t, a.SetBands(req.Key, u, nil))
	assert.Same(t, u, a.CurrentBands(control.RunState{}).Result)
	assert.False(t, a.CurrentBands(control.RunState{}).Running)
	_, again = a.StartBands(control.RunState{})
	assert.False(t, again, "done for this setting")

	a.SetParam("buffer", "512KiB")
	assert.Nil(t, a.CurrentBands(control.RunState{}).Result, "another setting's bars are not shown")
	req2, ok := a.StartBands(control.RunState{})
	require.True(t, ok, "the new setting can have its own")
	a.CancelBands()
	assert.True(t, a.CurrentBands(control.RunState{}).Canceled)
	assert.False(t, a.SetBands(req2.Key, u, nil), "canceled error bars were taken")

	d := ran(t, "?scenario=demo")
	assert.False(t, d.CanBand(), "the demo runs on no preset")
}

// fakeBands stands for the model's uncertainty run: total single runs,
// each paced steps times, then a result of total/2 pair runs.
func fakeBands(total, steps int) BandsRun {
	return func(ctx context.Context, req BandsRequest, pace func(float64) error, progress func(done, total int)) (*report.Uncertainty, error) {
		for i := 0; i < total; i++ {
			progress(i, total)
			for s := 0; s < steps; s++ {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				if err := pace(float64(s) / float64(steps)); err != nil {
					return nil, err
				}
				time.Sleep(100 * time.Microsecond)
			}
		}
		progress(total, total)
		return &report.Uncertainty{Runs: total / 2}, nil
	}
}

// TestTheErrorBarsRunThroughTheRunner: the page's Runs computes the error
// bars through the controller's runner and delivers them into App; a
// newer run drops them.
func TestTheErrorBarsRunThroughTheRunner(t *testing.T) {
	a := New(catalog.Registry(), "?scenario=etr&buffer=256KiB&laps=1")
	r := &Runs{App: a, Ctl: control.New(), Env: &lock{}, Bands: fakeBands(24, 20)}
	started(t, r)
	r.Env.Lock()
	r.StartBands()
	r.Env.UnlockRender()
	assert.True(t, a.CurrentBands(r.Ctl.Run()).Running)
	require.Eventually(t, func() bool { return !r.Ctl.Run().Banding && !a.Bands.Asked }, 120*time.Second, 10*time.Millisecond)
	b := a.CurrentBands(r.Ctl.Run())
	require.Empty(t, b.Err)
	require.NotNil(t, b.Result, "the error bars were not delivered")
	assert.Equal(t, b.Total, 2*b.Result.Runs, "runs planned against runs made")

	a.SetParam("laps", "2")
	r.Env.Lock()
	r.Start()
	r.StartBands()
	r.Env.UnlockRender()
	r.Env.Lock()
	r.Start() // a newer setting before the bars started
	r.Env.UnlockRender()
	require.Eventually(t, func() bool { st := r.Ctl.Run(); return !st.Running && !st.Sweeping }, 60*time.Second, time.Millisecond)
	assert.False(t, r.Ctl.Run().Banding, "error bars of a superseded run started")
	assert.False(t, a.CurrentBands(r.Ctl.Run()).Running, "dropped error bars still show as running")
	r.Env.Lock()
	r.StartBands()
	r.Env.UnlockRender()
	assert.True(t, a.CurrentBands(r.Ctl.Run()).Running, "the dropped error bars cannot be asked for again")
	r.Env.Lock()
	r.CancelBands()
	r.Env.UnlockRender()
}
