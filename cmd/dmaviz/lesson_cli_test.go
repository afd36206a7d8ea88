package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
)

// runJSON runs the CLI with args and --json and decodes the report's
// sides' checks and no-hazard sentences.
func runJSON(t *testing.T, args ...string) (checks [2]map[string]float64, why [2]string) {
	t.Helper()
	code, out, errs := call(t, append(append([]string{"run"}, args...), "--json")...)
	require.Equal(t, 0, code, "%v: %s", args, errs)
	var rep struct {
		A, B struct {
			Checks   map[string]float64 `json:"checks"`
			NoHazard string             `json:"no_hazard"`
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep), "%v", args)
	return [2]map[string]float64{rep.A.Checks, rep.B.Checks}, [2]string{rep.A.NoHazard, rep.B.NoHazard}
}

// Through the CLI, as in the page: --url size=lesson runs the lesson size,
// where every bug policy reports its hazard, more stale or lost bytes than
// the default (correct) B (and no explanation why not).
func TestLessonSizeCatchesEveryBugInTheCLI(t *testing.T) {
	for _, s := range catalog.Registry().All() {
		spec := s.Spec()
		var def [2]map[string]float64
		for _, pol := range spec.Policies {
			if !pol.Bug {
				continue
			}
			if def[1] == nil { // the default pair, for what its correct B loses
				def, _ = runJSON(t, spec.ID, "--url", "size=lesson")
			}
			checks, why := runJSON(t, spec.ID, "--url", "size=lesson", "--b", pol.ID)
			assert.Greater(t, checks[1]["stale_bytes"]+checks[1]["lost_bytes"], def[1]["stale_bytes"]+def[1]["lost_bytes"],
				"%s %s at the lesson size: no more than the default B", spec.ID, pol.ID)
			assert.Empty(t, why[1], "%s %s bit; no explanation", spec.ID, pol.ID)
		}
	}
}

// At the paper size (the CLI's default) a bug that does not bite says why,
// in the table and in the JSON.
func TestQuietBugIsExplainedInTheCLI(t *testing.T) {
	checks, why := runJSON(t, "etr", "--a", "cached-no-sync", "--b", "cached-wrong-wrap-sync")
	for side := range 2 {
		assert.Zero(t, checks[side]["stale_bytes"]+checks[side]["lost_bytes"], "side %d at paper", side)
	}
	assert.Contains(t, why[0], "evicted all 16,384 stale copies")
	assert.Contains(t, why[1], "invalidated all 16,384 stale copies")
	code, out, errs := call(t, "run", "etr", "--a", "cached-no-sync", "--b", "cached-wrong-wrap-sync")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "no hazard from cached-no-sync (a bug policy) here: "+why[0])
	assert.Contains(t, out, "no hazard from cached-wrong-wrap-sync (a bug policy) here: "+why[1])
	_, out, _ = call(t, "run", "etr", "--b", "cached-no-sync", "--url", "size=lesson")
	assert.False(t, strings.Contains(out, "no hazard from"), "a bug that bites is not explained away")
}
