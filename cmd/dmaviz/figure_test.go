package main

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/site/app"
	"github.com/dmaviz/dmaviz/site/control"
)

// The page's Export figure is `dmaviz export` of the page's link at the
// cursor and the stage's size, byte for byte, and says so in the command
// it prints.
func TestPageFigureIsTheExport(t *testing.T) {
	for _, c := range []struct {
		query  string
		cursor sim.Time
	}{
		{"scenario=demo", 1234567},
		{"scenario=smmu-bypass&b=smtnmb-tlben-off", 3 * sim.Microsecond},
		{"scenario=etr&align=progress&zoom=10:40", 0},
	} {
		a := app.New(catalog.Registry(), c.query)
		require.Empty(t, a.Messages, c.query)
		req, err := a.Plan()
		require.NoError(t, err, c.query)
		ra, rb, err := req.Run(context.Background(), nil)
		a.SetResults(req, ra, rb, err)
		require.NoError(t, err, c.query)
		snap := control.Snapshot{Cursor: c.cursor, Align: a.State.Align}
		snap.Zoom.First, snap.Zoom.Count = a.State.ZoomFirst, a.State.ZoomCount
		f, err := a.Figure(snap, 1100, 760)
		require.NoError(t, err, c.query)
		args := strings.Fields(f.Command("-"))[1:]
		for i := range args {
			args[i] = strings.Trim(args[i], "'")
		}
		code, out, errs := call(t, args...)
		require.Equal(t, 0, code, "%s: %s", c.query, errs)
		assert.True(t, out == string(f.SVG), "%s: the page's figure (%d bytes) is not the export (%d bytes)", c.query, len(f.SVG), len(out))
		assert.Contains(t, f.Command("x.svg"), "--size 1100x760")
	}
}
