package site

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// A bug policy that produced no hazard shows the run's reason, not "No
// hazards": the list is not empty, and the line says which side and why.
func TestHazardsSayWhyABugDidNotBite(t *testing.T) {
	ok := &scenario.Result{Policy: "coherent", Checks: []scenario.Metric{{Name: "stale_bytes"}}}
	bug := &scenario.Result{Policy: "cached-no-sync", Checks: []scenario.Metric{{Name: "stale_bytes"}},
		NoHazard: "The CPU's own fills evicted all 16,384 stale copies before it read them."}
	c := &Hazards{Results: [2]*scenario.Result{ok, bug}}
	items := c.items()
	require.Len(t, items, 1)
	assert.Equal(t, "why", items[0].Class)
	assert.Equal(t, "B (cached-no-sync, a bug policy) shows no hazard at this setting: The CPU's own fills evicted all 16,384 stale copies before it read them.", items[0].Text)
	c.Results[1] = &scenario.Result{Policy: "cached-sync", Checks: []scenario.Metric{{Name: "stale_bytes"}}}
	assert.Empty(t, c.items(), "two correct runs: No hazards")
}

// Masked, the list is kept back: no hazard line, whatever the runs found.
func TestHazardsMasked(t *testing.T) {
	bug := &scenario.Result{Policy: "cacheable-no-sync", Checks: []scenario.Metric{{Name: "stale_bytes", Value: 4096}}}
	c := &Hazards{Results: [2]*scenario.Result{bug, bug}}
	require.Len(t, c.items(), 2)
	c.Masked = true
	assert.Empty(t, c.items())
	assert.Contains(t, c.masked(), "revealed with the answer")
}
