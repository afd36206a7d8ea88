package main

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/site/firstview"
)

// The site builder's pre-rendered stage for each scenario's opening
// setting, and for an embed, is `dmaviz export` of the same URL at the
// opening cursor, byte for byte.
func TestFirstViewIsTheExport(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every scenario's paper setting twice")
	}
	queries := []string{"scenario=etr&embed=1"}
	for _, s := range catalog.Registry().All() {
		queries = append(queries, "scenario="+s.Spec().ID)
	}
	for _, q := range queries {
		v, err := firstview.Render(catalog.Registry(), platform.Parameters, q, 1100, 900)
		require.NoError(t, err, q)
		code, out, errs := call(t, "export", v.Scenario, "--url", v.Query, "--at", v.Cursor, "--size", "1100x900", "--svg", "-")
		require.Equal(t, 0, code, errs)
		assert.True(t, out == string(v.SVG), "%s: the pre-rendered stage (%d bytes) is not the export (%d bytes)", q, len(v.SVG), len(out))
		assert.NotEmpty(t, v.Results, q)
		if !v.Embed {
			assert.Contains(t, string(v.Panel), fmt.Sprintf(`<option selected="selected" value="%s">`, v.Scenario), "%s: the panel's scenario choice", q)
		}
	}
}
