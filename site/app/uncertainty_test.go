package app

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/report"
)

// Error bars are for one setting: they start once, take progress and a
// result only for that setting, are dropped when the setting changes, and
// can be canceled.
func TestBandsFollowTheSetting(t *testing.T) {
	a := New(catalog.Registry(), "?scenario=etr&buffer=256KiB")
	_, ok := a.StartBands()
	assert.False(t, ok, "no error bars before results")
	a = ran(t, "?scenario=etr&buffer=256KiB")
	require.True(t, a.CanBand())
	req, ok := a.StartBands()
	require.True(t, ok)
	assert.Equal(t, "256KiB", req.Params.Text("buffer"))
	_, again := a.StartBands()
	assert.False(t, again, "already running")
	assert.True(t, a.BandsProgress(req.Key, 4, 62))
	assert.Equal(t, 4, a.CurrentBands().Done)
	assert.False(t, a.BandsStale(req.Key))

	u := &report.Uncertainty{Runs: 31}
	assert.True(t, a.SetBands(req.Key, u, nil))
	assert.Same(t, u, a.CurrentBands().Result)
	_, again = a.StartBands()
	assert.False(t, again, "done for this setting")

	a.SetParam("buffer", "512KiB")
	assert.Nil(t, a.CurrentBands().Result, "another setting's bars are not shown")
	req2, ok := a.StartBands()
	require.True(t, ok, "the new setting can have its own")
	assert.True(t, a.BandsStale(req.Key))
	a.CancelBands()
	assert.True(t, a.CurrentBands().Canceled)
	assert.False(t, a.BandsProgress(req2.Key, 1, 2), "a canceled run hears it at its next progress")
	assert.False(t, a.SetBands(req2.Key, u, nil))

	d := ran(t, "?scenario=demo")
	assert.False(t, d.CanBand(), "the demo runs on no preset")
}
